import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (!found) {
    throw new Error('chromium is not installed (Debian: apt-get install chromium), nor is CHROMIUM_PATH set');
  }
  return found;
}

/**
 * Headless Chromium driven by playwright-core, never a downloaded browser. WebGL (the console's map)
 * runs on SwiftShader, the CPU renderer, since the machines have no GPU.
 */
export async function launchChromium(): Promise<Browser> {
  // Loaded here: most tests that import @fleet/testing never start a browser.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
    ],
  });
}
