/**
 * Parts some tests need (openssl, Debian's Chromium, util-linux `script`, a Secret Service, zsh
 * and fish, curl, busybox): where one is missing those tests skip, each saying why — except in CI on
 * Linux (.ci/run, the CI workflow's Linux jobs), which installs every part, so that there a
 * missing one fails the run and a green run has run them all. In CI on macOS and Windows the
 * Linux-only parts are missing by nature, and their tests skip as they do on a developer's machine.
 */

/** Whether a part missing here fails the run rather than skipping its tests. */
export function partsRequired(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  return Boolean(env.CI) && platform === 'linux';
}

/** Fails the run when a part is `missing` (why, in words) and {@link partsRequired}. */
export function requiredInCi(
  missing: string | undefined,
  install: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): void {
  if (missing !== undefined && partsRequired(env, platform))
    throw new Error(`${missing}, and CI must run the tests that need it (${install})`);
}
