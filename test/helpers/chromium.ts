/**
 * Debian's Chromium for the real-browser login tests: where it is, whether the tests can run
 * (CI must have it), and a headless launch through playwright-core. Screenshots go to ARTIFACTS.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
export const hasChromium = existsSync(CHROMIUM);
/** Outside CI a missing Chromium skips the tests, their titles ending in this; in CI it fails them. */
export const skippedWithoutChromium = hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`;
if (!hasChromium && process.env.CI) {
  throw new Error(
    `${CHROMIUM} is missing, and CI must run the browser login tests (install Debian's chromium)`,
  );
}

/** Headless, and loopback only: no proxy from the environment in between; `moreArgs` added. */
export async function launchChromium(moreArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-proxy-server'];
  return chromium.launch({ executablePath: CHROMIUM, args: [...args, ...moreArgs] });
}
