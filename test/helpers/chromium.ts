/**
 * Debian's Chromium for the real-browser login tests: where it is, whether the tests can run
 * (CI must have it), and a headless launch through playwright-core. Screenshots go to ARTIFACTS.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { requiredInCi } from './ci-required.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
export const hasChromium = existsSync(CHROMIUM);
/** A missing Chromium skips the tests, their titles ending in this, except in CI on Linux (ci-required.ts). */
export const skippedWithoutChromium = hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`;
requiredInCi(hasChromium ? undefined : `${CHROMIUM} is missing`, "install Debian's chromium");

/** Headless, and loopback only: no proxy from the environment in between; `moreArgs` added. */
export async function launchChromium(moreArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-proxy-server'];
  return chromium.launch({ executablePath: CHROMIUM, args: [...args, ...moreArgs] });
}
