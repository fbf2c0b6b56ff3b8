/** Debian's Chromium driven by playwright-core (no browser download), in a fresh profile. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.TEMPORA_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for a final check. */
  problems: string[];
  close(): Promise<void>;
}

/** `locale`: the page's language (navigator.language, Intl): en-US unless a test needs another. */
export async function launchBrowser(options: { locale?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'tempora-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
    colorScheme: 'light',
    locale: options.locale ?? 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Why the UI tests cannot run here (no Chromium), or null. CI installs Debian's chromium; with
 * CI=true a missing Chromium is never a reason to skip: the UI tests run and fail at launch, so a
 * broken CI machine cannot pass by skipping every screen.
 */
export const CHROMIUM_MISSING: string | null =
  existsSync(CHROMIUM) || process.env.CI === 'true'
    ? null
    : `no Chromium at ${CHROMIUM} (install Debian's chromium package, or set TEMPORA_CHROMIUM to a Chromium binary)`;
if (CHROMIUM_MISSING) console.warn(`UI tests skipped: ${CHROMIUM_MISSING}`);
