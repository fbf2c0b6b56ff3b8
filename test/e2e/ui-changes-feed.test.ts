/**
 * What changed, in Chromium against the bridge (real engine), the user in Asia/Tokyo: the feed
 * newest first, grouped by month in the user's zone (a change at 20:00 UTC on 31 Oct is November's
 * there), "subject · predicate: before → after", each row a link to its fact and its message; the
 * entity filter; Show more; and on a fact's page the history of its slot, paged.
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, type UiSession, useUi } from './helpers/ui-session';

/** The 60 values of one project's phase: a second page in the feed and in the slot's history. */
const PHASES = 60;

function seed(engine: TemporaEngine): void {
  const memory = engine.memory;
  const say = (subject: string, predicate: string, object: string, validAt: string, extra: { end?: string; one?: boolean } = {}) =>
    memory.facts.observe([
      {
        subject,
        predicate,
        object,
        fact: `${subject} ${predicate.replace('_', ' ')} ${object}.`,
        reference_time: validAt,
        ...(extra.end ? { invalid_at: extra.end } : {}),
        cardinality: extra.one ? 'one' : 'many',
      },
    ]);
  for (let i = 0; i < PHASES; i++) say('Project X', 'phase', `phase ${i + 1}`, new Date(Date.UTC(2019, 0, 1 + i)).toISOString(), { one: true });
  say('me', 'lives_in', 'Osaka', '2023-01-10T03:00:00.000Z', { one: true });
  say('me', 'manager', 'Aiko Tanaka', '2024-04-01T00:00:00.000Z', { one: true });
  // 20:00 UTC on 31 October is 05:00 on 1 November in Tokyo.
  say('me', 'manager', 'Kenji Sato', '2025-10-31T20:00:00.000Z', { one: true });
  say('Kenji Sato', 'likes', 'tea', '2026-02-01T00:00:00.000Z', { end: '2026-05-01T00:00:00.000Z' });
  say('me', 'lives_in', 'Tokyo', '2026-03-01T00:00:00.000Z', { one: true });
  // An end still to come ("until the end of 2027"): it "ends", it has not ended.
  say('me', 'works_at', 'Acme', '2026-06-01T00:00:00.000Z', { end: '2027-12-31T00:00:00.000Z' });
}

const months = (ui: UiSession) => ui.page.locator('.change-month h2').allTextContents();
const rows = (ui: UiSession) => ui.page.locator('.change-row .change-what').allTextContents();

describe.skipIf(CHROMIUM_MISSING !== null)('what changed, and a slot\'s history', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { TZ: 'Asia/Tokyo' }, engine: { startWorker: false }, seed });

  it('lists the changes newest first by month in the user\'s zone, before → after, from the nav', async () => {
    const { page } = ui();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Changes/ }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/changes');
    await expect.poll(() => page.locator('.zone-note').first().textContent()).toContain('Asia/Tokyo');
    await expect.poll(() => months(ui()).then((m) => m.slice(0, 8))).toEqual(['December 2027', 'June 2026', 'May 2026', 'March 2026', 'February 2026', 'November 2025', 'April 2024', 'January 2023']);
    expect((await rows(ui())).slice(0, 8)).toEqual([
      'me · works at: Acme',
      'me · works at: Acme',
      'Kenji Sato · likes: tea',
      'me · lives in: Osaka → Tokyo',
      'Kenji Sato · likes: tea',
      'me · manager: Aiko Tanaka → Kenji Sato',
      'me · manager: Aiko Tanaka',
      'me · lives in: Osaka',
    ]);
    expect((await page.locator('.change-row .change-kind').allTextContents()).slice(0, 8)).toEqual(['ends', 'new', 'ended', 'changed', 'new', 'changed', 'new', 'new']);
    // An end to come is not drawn as one that came: not struck through, no "closed" badge.
    const struck = (n: number) => page.locator('.change-row').nth(n).locator('.change-before').evaluate((el) => getComputedStyle(el).textDecorationLine);
    expect(await struck(0)).toBe('none');
    expect(await struck(2)).toBe('line-through');
    expect(await page.locator('.change-row').nth(0).locator('.change-kind').getAttribute('class')).not.toContain('closed');
    // What is still to come is folded under one line, above what has changed: the first month in view is June 2026.
    const coming = page.locator('details.changes-coming');
    expect(await coming.locator('summary').textContent()).toMatch(/^1 change still to come — the soonest ends .*2027.*: me · works at$/);
    expect(await coming.getAttribute('open')).toBeNull();
    expect(await coming.locator('.change-row').count()).toBe(1);
    expect(await page.locator('.change-month h2').filter({ visible: true }).first().textContent()).toBe('June 2026');
    await coming.locator('summary').click();
    await expect.poll(() => coming.locator('.change-row').first().isVisible()).toBe(true);
    await coming.locator('summary').click();
    // The time of each, in Tokyo, as precisely as it was said: a start implied by its line is a day.
    expect(await page.locator('.change-row').nth(5).locator('.change-when').textContent()).toBe('Nov 1, 2025');
    await screenshot(page, 'changes-feed');

    // A page of 50, then Show more: the 60 phases of Project X and the 8 above, each once.
    expect(await page.locator('.change-row').count()).toBe(50);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => page.locator('.change-row').count()).toBe(PHASES + 8);
    await expect.poll(() => page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    expect(new Set(await page.locator('.change-row').evaluateAll((li) => li.map((r) => `${r.className} ${r.getAttribute('data-fact')}`))).size).toBe(PHASES + 8);
  });

  it('draws a fact with an end to come as still true on the timeline, its end line dashed', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    // data-row names the row as stored (works_at); its label says "works at".
    const acme = page.locator('.tl-row[data-row="me · works_at"] g.tl-bar');
    await expect.poll(() => page.locator('.tl-row[data-row="me · works_at"] .tl-predicate').textContent()).toBe('works at');
    await expect.poll(() => acme.getAttribute('class')).toContain('open ends');
    expect(await acme.getAttribute('class')).not.toContain('closed');
    expect(await acme.locator('.tl-close-cap').evaluate((el) => getComputedStyle(el).strokeDasharray)).not.toBe('none');
    // One that has ended is drawn ended.
    expect(await page.locator('.tl-row[data-row="Kenji Sato · likes"] g.tl-bar').getAttribute('class')).toContain('closed');
  });

  it('filters by an entity', async () => {
    const { page } = ui();
    await go(page, '#/changes');
    await page.getByLabel('About').fill('Kenji Sato');
    await expect.poll(() => rows(ui())).toEqual(['Kenji Sato · likes: tea', 'Kenji Sato · likes: tea']);
    expect(await months(ui())).toEqual(['May 2026', 'February 2026']);
    await page.getByLabel('About').fill('Nobody at all');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Nothing has changed about' }).count()).toBe(1);
  });

  it("links each change to its message and its fact, whose page shows the slot's history, paged", async () => {
    const { page } = ui();
    await go(page, '#/changes');
    await page.getByLabel('About').fill('');
    const manager = page.locator('.change-row').filter({ hasText: 'Aiko Tanaka → Kenji Sato' });
    await manager.waitFor();
    const message = await manager.locator('.change-message').getAttribute('href');
    expect(message).toMatch(/^#\/chat\/cnv_[^/]+\/epi_[^/]+$/);
    await manager.locator('.change-message').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(message);
    await expect.poll(() => page.getByText('me manager Kenji Sato.').count()).toBeGreaterThan(0);

    await go(page, '#/changes');
    await page.locator('.change-row').filter({ hasText: 'Aiko Tanaka → Kenji Sato' }).locator('.change-what').click();
    await expect.poll(() => page.locator('.fact-header h1').textContent()).toBe('me manager Kenji Sato.');
    const history = page.locator('.slot-history');
    await expect.poll(() => history.locator('h2').textContent()).toBe('History of me · manager (2 values)');
    const values = await history.locator('li').allTextContents();
    expect(values.map((v) => v.split(' ').slice(0, 2).join(' '))).toEqual(['Kenji Sato', 'Aiko Tanaka']);
    // When each was true, in Tokyo: from 05:00 on 1 November.
    expect(values[0]).toContain('Nov 1, 2025');
    expect(values[1]).toContain('Nov 1, 2025');
    expect(await history.locator('li[aria-current="true"]').textContent()).toContain('Kenji Sato');
    await history.getByRole('link', { name: 'Aiko Tanaka' }).click();
    await expect.poll(() => page.locator('.fact-header h1').textContent()).toBe('me manager Aiko Tanaka.');

    // A slot of 60 values: 20, then Show more.
    await go(page, '#/changes');
    await page.getByLabel('About').fill('Project X');
    await expect.poll(() => rows(ui()).then((r) => r[0])).toBe(`Project X · phase: phase ${PHASES - 1} → phase ${PHASES}`);
    await page.locator('.change-row .change-what').first().click();
    await expect.poll(() => history.locator('h2').textContent()).toBe(`History of Project X · phase (${PHASES} values)`);
    await expect.poll(() => history.locator('li').count()).toBe(20);
    expect(await history.locator('li a').first().textContent()).toBe(`phase ${PHASES}`);
    await history.getByRole('button', { name: /Show more/ }).click();
    await expect.poll(() => history.locator('li').count()).toBe(40);
    await screenshot(page, 'fact-slot-history');
    expect(ui().browser.problems).toEqual([]);
  });
});
