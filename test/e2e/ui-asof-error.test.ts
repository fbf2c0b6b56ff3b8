/**
 * The as-of panel when its list fails: the first page refused says why in one sentence, in place of
 * "Loading…", with Try again; a Show more refused says why above the button, the pages already
 * shown kept, and Show more asks again. The page's WebSocket to the bridge is routed through
 * Playwright (routeWebSocket): every frame passes on to the real bridge, but while `refuse` names
 * the as-of list's call (listFacts with an asOf), the page gets the failure result the bridge sends
 * for a refused call instead of the call reaching the engine (helpers/refused-calls.ts). Pictures
 * of both at 1400 and 900 px, light and dark.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_MISSING } from './helpers/browser';
import { BUSY, BUSY_SENTENCE, routeRefusals, type Refusal, type RefusedCalls } from './helpers/refused-calls';
import { screenshot } from './helpers/screenshots';
import { seedHourlyPeople } from './helpers/seed-memory';
import { go, useUi } from './helpers/ui-session';


/** An answer the engine withheld because it broke the contract: a technical message, for the details. */
const BROKEN: Refusal = { code: 'invalid_response', error: 'listFacts: invalid response: facts.3.valid_at: Invalid ISO datetime' };

const BROKEN_SENTENCE = 'Something went wrong inside Tempora; try again, and if it happens again, report it with the details.';

describe.skipIf(CHROMIUM_MISSING !== null)('the as-of panel when its list fails', () => {
  /** Which as-of pages (by offset) are refused, and how; null: every call reaches the engine. */
  let refuse: ((offset: number) => Refusal | null) | null = null;
  let calls: RefusedCalls;
  /** The offsets of the as-of pages refused so far. */
  const refused = () => calls.refused.map((call) => Number(call.request?.offset ?? 0));

  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed: seedHourlyPeople, shotPrefix: 'asof-error' });

  beforeAll(async () => {
    calls = await routeRefusals(ui().page);
    // Only the as-of list's calls (listFacts with an asOf), by the page's offset.
    calls.refuse((call) => (call.name === 'listFacts' && call.request?.asOf !== undefined ? refuse?.(Number(call.request.offset ?? 0)) : null));
  });

  const panel = (page: Page) => page.locator('.asof-panel');

  it('says why the first page failed, in a sentence instead of Loading…, and Try again loads it', async () => {
    const { page } = ui();
    refuse = (offset) => (offset === 0 ? BUSY : null);
    await go(page, '#/timeline');
    await expect.poll(() => refused().length).toBeGreaterThan(0);
    await expect.poll(() => panel(page).getByRole('alert').textContent()).toBe(BUSY_SENTENCE);
    expect(await panel(page).getByText('Loading…').count()).toBe(0);
    const tryAgain = panel(page).getByRole('button', { name: 'Try again' });
    expect(await tryAgain.isVisible()).toBe(true);
    await pictures(page, 'first-page');
    // The engine answers again: Try again asks once more, and the list comes.
    refuse = null;
    await tryAgain.click();
    await expect.poll(() => page.getByTestId('asof-count').textContent()).toBe('1,000 facts are true now · showing the first 100');
    expect(await panel(page).getByRole('alert').count()).toBe(0);
    expect(await tryAgain.count()).toBe(0);
    expect(await page.getByTestId('asof-answer').count()).toBeGreaterThan(0);
  });

  it('says why Show more failed, keeps the pages shown, and Show more asks again', async () => {
    const { page } = ui();
    const count = page.getByTestId('asof-count');
    const first = await page.getByTestId('asof-answer').first().innerText();
    refuse = (offset) => (offset > 0 ? BROKEN : null);
    const before = refused().length;
    const more = panel(page).getByRole('button', { name: 'Show 100 more' });
    await more.click();
    await expect.poll(() => refused().slice(before)).toEqual([100]);
    const alert = panel(page).getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(BROKEN_SENTENCE);
    // What the engine said, behind the disclosure, without the call's name.
    expect(await panel(page).locator('.error-details pre').textContent()).toBe('facts.3.valid_at: Invalid ISO datetime');
    // The first page is still there, counted, and Show more still offered.
    expect(await count.textContent()).toBe('1,000 facts are true now · showing the first 100');
    expect(await page.getByTestId('asof-answer').first().innerText()).toBe(first);
    expect(await more.isVisible()).toBe(true);
    await pictures(page, 'show-more');
    refuse = null;
    await more.click();
    await expect.poll(() => count.textContent()).toBe('1,000 facts are true now · showing the first 200');
    expect(await alert.count()).toBe(0);
  });
});

/** The panel as the user sees it, wide and narrow, light and dark; back to 1280 px, light, after. */
async function pictures(page: Page, name: string): Promise<void> {
  for (const width of [1400, 900]) {
    await page.setViewportSize({ width, height: 800 });
    // Narrow, the panel folds to a button (once the screen has measured its new width), open once asked.
    if (width === 900) {
      const toggle = page.locator('.asof-panel-toggle');
      await toggle.waitFor();
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    }
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.locator('.asof-panel').getByRole('alert').isVisible()).toBe(true);
      await screenshot(page, `asof-error-${name}-${width}-${theme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}
