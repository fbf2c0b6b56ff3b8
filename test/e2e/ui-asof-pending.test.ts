/**
 * The as-of panel while a new moment's answer is on its way: the count line never states a figure
 * for a moment other than the one its heading names. The page's calls for the new moment's list
 * are held back over the routed WebSocket (helpers/refused-calls.ts) until the test releases them,
 * so the wait is as long as the test wants, without a sleep; every state the panel went through
 * (its heading's moment and its count line, together) is recorded in the page as the DOM changes
 * (a MutationObserver), so a wrong figure shown for a moment, even for one frame, is seen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_MISSING } from './helpers/browser';
import { routeRefusals, type RefusedCalls } from './helpers/refused-calls';
import { screenshot } from './helpers/screenshots';
import { seedHourlyPeople } from './helpers/seed-memory';
import { go, useUi } from './helpers/ui-session';

/** The seed: seedHourlyPeople (1,000 true now, 817 at CURSOR). */
const CURSOR = '2026-02-04T00:00:00.000Z';

/** Starts recording, in the page, every (heading's moment, count line) the as-of panel shows. */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { asOfStates: string[] }).asOfStates = seen;
    const note = () => {
      const at = document.querySelector('#asof-title time')?.getAttribute('datetime') ?? '';
      const count = document.querySelector('[data-testid="asof-count"]')?.textContent ?? '';
      const state = `${at} | ${count}`;
      if (seen[seen.length - 1] !== state) seen.push(state);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const states = (page: Page) => page.evaluate(() => (window as unknown as { asOfStates: string[] }).asOfStates);

describe.skipIf(CHROMIUM_MISSING !== null)('the as-of panel while a new moment is counted', () => {
  let calls: RefusedCalls;
  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed: seedHourlyPeople, shotPrefix: 'asof-pending' });

  beforeAll(async () => {
    calls = await routeRefusals(ui().page);
  });

  it('says it is counting, never the previous moment’s figure, until the new moment answers', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const count = page.getByTestId('asof-count');
    const panel = page.locator('.asof-panel');
    await expect.poll(() => count.textContent()).toBe('1,000 facts are true now · showing the first 100');
    await recordStates(page);
    // The list's calls for the moment picked wait until released.
    calls.hold((call) => call.name === 'listFacts' && call.request?.asOf === CURSOR);
    const field = page.getByRole('textbox', { name: /^As of/ });
    await field.fill('2026-02-04 00:00');
    await field.press('Enter');
    await expect.poll(() => page.locator('#asof-title time').getAttribute('datetime')).toBe(CURSOR);
    await expect.poll(() => calls.held.length).toBe(1);
    // Asked, not answered: the heading names the new moment, the count line no figure at all.
    expect(await count.textContent()).toBe('Counting the facts true then…');
    expect(await panel.getAttribute('aria-busy')).toBe('true');
    expect(await panel.getByRole('button', { name: /^Show \d+ more$/ }).count()).toBe(0);
    await screenshot(page, 'asof-pending-counting');
    calls.hold(null);
    calls.release();
    await expect.poll(() => count.textContent()).toBe('817 facts were true then · showing the first 100');
    expect(await panel.getAttribute('aria-busy')).not.toBe('true');
    expect(await panel.getByRole('button', { name: 'Show 100 more' }).isVisible()).toBe(true);
    // Every state shown on the way: a figure only ever beside the moment it was counted for.
    const shown = await states(page);
    const now = shown[0]!.split(' | ')[0]!;
    expect(shown[0]).toBe(`${now} | 1,000 facts are true now · showing the first 100`);
    for (const state of shown.slice(1)) {
      const [at, line] = state.split(' | ') as [string, string];
      if (!/\d/.test(line)) continue;
      expect(state).toBe(at === CURSOR ? `${CURSOR} | 817 facts were true then · showing the first 100` : `${at} | 1,000 facts are true now · showing the first 100`);
    }
    expect(shown).toContain(`${CURSOR} | Counting the facts true then…`);
  });

  it('marks the Facts list busy while a new moment’s answer is on its way, its old rows kept', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    const list = page.locator('.fact-list');
    await expect.poll(() => page.locator('.result-count').textContent()).toBe('1,000 facts');
    expect(await list.getAttribute('aria-busy')).toBeNull();
    calls.hold((call) => call.name === 'listFacts' && call.request?.asOf === CURSOR);
    const field = page.getByRole('textbox', { name: /^As of/ });
    await field.fill('2026-02-04 00:00');
    await field.press('Enter');
    await expect.poll(() => calls.held.length).toBe(1);
    // The rows shown are the moment before's: said so to assistive technology.
    expect(await list.getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.fact-row').count()).toBeGreaterThan(0);
    calls.hold(null);
    calls.release();
    await expect.poll(() => page.locator('.result-count').textContent()).toBe('817 facts');
    expect(await list.getAttribute('aria-busy')).toBeNull();
  });
});
