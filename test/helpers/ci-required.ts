/**
 * Tools some tests need (openssl, util-linux `script`): outside CI a missing one skips those tests,
 * each saying why; in CI (`CI` set) it fails the run at once, so a green CI run has run them all.
 */
export function requiredInCi(missing: string | undefined, install: string, env = process.env): void {
  if (missing !== undefined && env.CI)
    throw new Error(`${missing}, and CI must run the tests that need it (${install})`);
}
