/**
 * One screen's render error stays in that screen (app/ScreenErrorBoundary.tsx): with the page's
 * date formatting made to throw (a fault injected into Chromium, switched on and off from the
 * test), the Timeline shows one sentence and a Reload button in its place, not a blank window; the
 * navigation still works, another screen renders, and Reload brings the Timeline back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { seedMemory } from './helpers/seed-memory';
import { go, startUi, type UiSession } from './helpers/ui-session';

let ui: UiSession;

/** Makes every Intl.DateTimeFormat#format throw while window.__breakTimes is true. */
const FAULT = `(() => {
  const proto = Intl.DateTimeFormat.prototype;
  const get = Object.getOwnPropertyDescriptor(proto, 'format').get;
  Object.defineProperty(proto, 'format', {
    configurable: true,
    get() {
      const format = get.call(this);
      return (date) => {
        if (window.__breakTimes) throw new Error('injected fault: dates cannot be formatted');
        return format(date);
      };
    },
  });
})();`;

const setFault = (on: boolean) => ui.page.evaluate((value) => ((window as unknown as { __breakTimes: boolean }).__breakTimes = value), on);

describe.skipIf(CHROMIUM_MISSING !== null)('a screen that fails to render', () => {
  beforeAll(async () => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    ui = await startUi({ engine: { startWorker: false }, seed: seedMemory });
    await ui.browser.context.addInitScript({ content: FAULT });
    await ui.page.reload();
    await ui.page.locator('nav[aria-label="Main"]').waitFor();
  });

  afterAll(async () => {
    await ui?.close();
    vi.unstubAllEnvs();
  });

  it('shows a sentence and Reload in its place, keeps the navigation, and recovers', async () => {
    const { page } = ui;
    await go(page, '#/data');
    await page.locator('.data-screen').waitFor();
    await setFault(true);
    await go(page, '#/timeline');
    const alert = page.locator('.screen-error [role="alert"]');
    await expect.poll(() => alert.textContent()).toBe('This screen stopped working because of an error in the page; reload the page to start it again.');
    expect(await page.locator('.screen-error details pre').textContent()).toContain('injected fault');
    expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    expect(await page.locator('nav[aria-label="Main"]').isVisible()).toBe(true);
    // React reported the error it caught; nothing was left uncaught.
    expect(ui.browser.problems.filter((p) => p.startsWith('page error'))).toEqual([]);
    // Another screen renders, and the Timeline again once the fault is gone.
    await setFault(false);
    await page.getByRole('link', { name: /Export/ }).click();
    await page.locator('.data-screen').waitFor();
    await go(page, '#/timeline');
    await page.locator('.tl-group, .tl-row').first().waitFor();
    expect(await page.locator('.screen-error').count()).toBe(0);
    // Reload reloads the page.
    await setFault(true);
    await go(page, '#/facts');
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.locator('.fact-row').first().waitFor();
    expect(await page.locator('.screen-error').count()).toBe(0);
  });
});

