/**
 * Screenshots of the UI: always to test-results/screenshots/ (test artifacts); also to
 * docs/screenshots/ (the README's pictures) when TEMPORA_DOCS_SCREENSHOTS=1.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');
const DOCS_DIR = join(process.cwd(), 'docs', 'screenshots');

export async function screenshot(page: Page, name: string, options: { docs?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // Let fonts and the last React commit settle so the picture is what a user sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  if (options.docs && process.env.TEMPORA_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_DIR, { recursive: true });
    copyFileSync(path, join(DOCS_DIR, `${name}.png`));
  }
  return path;
}
