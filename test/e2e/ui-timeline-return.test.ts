/**
 * Back from a fact opened on the Timeline, a keyboard user goes on from where they were: the rows
 * scrolled as they were and the focus on the bar they opened — not at the top of a long list, tabbing
 * through every group header again (a review trying the screens by keyboard). In Chromium against
 * the bridge, a memory of 60 people (groups collapsed) and the user's own facts.
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

const PEOPLE = 60;

function seed(engine: TemporaEngine): void {
  const at = (day: number) => new Date(Date.UTC(2025, 0, 1 + day)).toISOString();
  const lines = [
    { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: at(0), cardinality: 'one' as const },
    { subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: at(3) },
  ];
  for (let i = 1; i <= PEOPLE; i++) {
    lines.push({ subject: `Person ${i}`, predicate: 'lives_in', object: `Town ${i}`, fact: `Person ${i} lives in Town ${i}.`, reference_time: at(i * 5), cardinality: 'one' as const });
  }
  engine.memory.facts.observe(lines);
}

describe.skipIf(CHROMIUM_MISSING !== null)('back to the timeline from a fact opened there', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { TZ: 'Asia/Tokyo' }, engine: { startWorker: false }, seed });

  it('returns to the rows where they were, the focus on the bar that was opened', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const body = page.locator('.tl-body');
    await page.locator('.tl-group[data-group="me"]').waitFor();
    // Far down the list: a person's group opened, and one of their bars opened from the keyboard.
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const group = page.locator('.tl-group[data-group="Person 58"]');
    await group.waitFor();
    await group.locator('.tl-group-toggle').click();
    const bar = page.locator('.tl-row[data-row="Person 58 · lives_in"] g.tl-bar');
    await bar.waitFor();
    const factId = await bar.getAttribute('data-fact-id');
    const scrolled = await body.evaluate((el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(500);
    await bar.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/facts/${factId}`);
    await page.locator('h1').filter({ hasText: /./ }).first().waitFor();

    await page.goBack();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/timeline');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-fact-id') ?? null)).toBe(factId);
    expect(await body.evaluate((el) => el.scrollTop)).toBe(scrolled);

    // Gone to another screen from the fact's page, the way back is no longer the bar's.
    await bar.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/facts/${factId}`);
    await go(page, '#/chat');
    await go(page, '#/timeline');
    await page.locator('.tl-group[data-group="me"]').waitFor();
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
    expect(await body.evaluate((el) => el.scrollTop)).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-fact-id') ?? null)).toBeNull();

    // Arriving from elsewhere afterwards starts as the view was, with no bar taken for the user.
    await go(page, '#/facts');
    await page.locator('.fact-row').first().waitFor();
    await go(page, '#/timeline');
    await page.locator('.tl-group[data-group="me"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-fact-id') ?? null)).toBeNull();
  });
});
