// Headless Chromium for the reports' browser tests (shared/DESIGN.md "Browser tests"): the
// Chromium findChromium picks, a fresh profile per run, no network-facing features. Under CI=true a
// Chromium that is missing or does not start fails the test; elsewhere the test skips with the reason.
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { findChromium } from './find-chromium.js';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export type HeadlessChromium = { readonly ok: true; readonly browser: BrowserContext } | { readonly ok: false; readonly reason: string };

/** Starts Chromium with its profile under `dir` (playwright-core, a devDependency, is loaded here, not with the package). */
export async function launchHeadlessChromium(dir: string): Promise<HeadlessChromium> {
  const found = await findChromium();
  if (!found.ok) return found;
  try {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: found.executablePath, env: { ...process.env, ...found.env }, headless: true, args: FLAGS });
    return { ok: true, browser };
  } catch (e) {
    return { ok: false, reason: `${found.source} does not start: ${(e as Error).message.split('\n')[0]}` };
  }
}

/** The browser, or (outside CI) the test skipped with why; under CI=true a missing Chromium throws. */
export function requireChromium(h: HeadlessChromium | undefined, ctx: { skip(note?: string): never }): BrowserContext {
  if (h?.ok) return h.browser;
  const why = `no usable Chromium: ${h?.reason ?? 'not started'}. Install Debian's chromium (apt-get install -y chromium; .ci/run does)`;
  if (process.env['CI'] === 'true' || process.env['CI'] === '1') throw new Error(why);
  console.log(`skipped: ${why}`);
  return ctx.skip(why);
}
