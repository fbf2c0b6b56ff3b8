/**
 * One time language on screen (issue #25), in Chromium over the bridge, in an en-GB locale and
 * Tokyo's zone: a fact still true until a future end says "until …" (the report: "closed 31 Dec
 * 2026, 23:59" shown before that day), a past end says "ended …"; the Timeline's known-at field
 * takes what people type and shows it back day-first, says under the field, in words, what it
 * cannot read (linked by aria-describedby, never ignored), and a known-at before anything was
 * recorded says why the Timeline is empty and when the first facts were recorded.
 */
import { describe, expect, it } from 'vitest';
import { formatAt } from '../../shared/time-format';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const GB_TOKYO = { timeZone: 'Asia/Tokyo', locale: 'en-GB' };
/** ICU versions write September "Sep" or "Sept"; compare without that difference. */
const sameMonths = (text: string | null) => (text ?? '').replace(/\bSept\b/g, 'Sep');
/** A trip planned 40 days ahead, a day in Tokyo: a fact that starts later is not true yet. */
const TRIP_DAY = new Date(Date.now() + 40 * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' });

describe.skipIf(CHROMIUM_MISSING !== null)('one time language: until, ended, the known-at field and the empty state', () => {
  const ui = useUi({
    zone: 'Asia/Tokyo',
    env: { LANCEDB_LOG: 'error' },
    engine: { startWorker: false },
    locale: 'en-GB',
    seed: (engine) => {
      engine.memory.facts.observe([
        // Ends in the last minute of a day far ahead: still true, so "until", and as a day.
        { subject: 'me', predicate: 'works_at', object: 'Acme', fact: 'I work at Acme.', reference_time: '2024-09-01T09:00:00+09:00', valid_at: '2024-09-01', invalid_at: '2099-12-31T23:59:00+09:00', cardinality: 'one' },
        // Ended in the past.
        { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I lived in Kyoto.', reference_time: '2024-09-01T09:00:00+09:00', valid_at: '2020-04-01', invalid_at: '2025-05-25', cardinality: 'one' },
        // Starts later: not true yet.
        { subject: 'me', predicate: 'plans', object: 'a trip to Oslo', fact: 'I will go to Oslo.', reference_time: '2024-09-01T09:00:00+09:00', valid_at: TRIP_DAY, cardinality: 'many' },
      ]);
    },
    shotPrefix: 'time-language',
  });

  const factId = (object: string) => ui().engine.memory.facts.list({ history: true }).find((f) => f.object === object && f.expired_at === null)!.id;

  it('a future end says "until", never "closed"; a past one says "ended"', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(factId('Acme'))}`);
    const badges = page.locator('.fact-header .badges');
    await expect.poll(() => badges.textContent()).toContain('until 31 Dec 2099');
    expect(await badges.textContent()).not.toMatch(/closed|ended|23:59/);
    expect(sameMonths(await page.locator('.fact-times').textContent())).toContain('since 1 Sep 2024, until 31 Dec 2099');

    await go(page, `#/facts/${encodeURIComponent(factId('Kyoto'))}`);
    await expect.poll(() => badges.textContent()).toContain('ended 25 May 2025');
    expect(await page.locator('.fact-times').textContent()).toContain('1 Apr 2020 – 25 May 2025');
  });

  it('a fact that starts later is "not yet true", "from …" on its page and its Timeline bar', async () => {
    const { page } = ui();
    const id = factId('a trip to Oslo');
    const from = `from ${sameMonths(formatAt(`${TRIP_DAY}T00:00:00+09:00`, 'day', GB_TOKYO))}`;
    await go(page, `#/facts/${encodeURIComponent(id)}`);
    const badges = page.locator('.fact-header .badges');
    await expect.poll(() => badges.textContent()).toContain('not yet true');
    expect(await badges.textContent()).not.toContain('true now');
    const times = page.locator('.fact-times dd').first();
    expect(sameMonths(await times.textContent())).toBe(from);
    await screenshot(page, 'time-language-fact-to-come');

    await go(page, '#/timeline');
    const bar = page.locator(`.tl-bar[data-fact-id="${id}"]`);
    await expect.poll(() => bar.count()).toBe(1);
    expect(sameMonths(await bar.getAttribute('aria-label'))).toBe(`a trip to Oslo: I will go to Oslo. (${from}; not yet true)`);
    // Drawn from its start on, to the chart's end (what it says: true from then), not a stub ending at now.
    const reach = await bar.evaluate((g) => {
      const rect = g.querySelector('rect')!;
      const svg = g.closest('svg')!;
      return { right: rect.x.baseVal.value + rect.width.baseVal.value, width: svg.getBoundingClientRect().width, arrow: g.querySelector('.tl-open-end') !== null };
    });
    expect(reach.right).toBeGreaterThanOrEqual(reach.width);
    expect(reach.arrow).toBe(false);
    await screenshot(page, 'time-language-bar-to-come');
  });

  it('known-at: what cannot be read is said under the field; a day is shown back day-first', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const field = page.getByLabel('Known at (Asia/Tokyo)');
    await field.fill('garbage');
    await field.press('Enter');
    const error = page.locator('.tl-toolbar .time-field', { has: field }).getByRole('alert');
    await expect.poll(() => error.textContent()).toBe('“garbage” cannot be read as a time: write a date like 1 Jun 2026, a time like 1 Jun 2026, 10:00, or words like “yesterday”.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain(await error.getAttribute('id'));
    // Nothing was applied: the memory is still shown as held now.
    expect(await page.locator('.timeline-screen .screen-header').textContent()).toContain('as it is held now');

    // A date that cannot be, in the reader's own words (as the edit forms say it), not the examples.
    await field.fill('2026-02-30');
    await field.press('Enter');
    await expect.poll(() => error.textContent()).toBe('2026-02-30 is not a date: February 2026 has 28 days');

    // Japanese as people type it: 1 June of this year in Tokyo, shown back in the locale's order.
    await field.fill('6月1日');
    await field.press('Enter');
    await expect.poll(() => field.inputValue()).toMatch(/^1 Jun \d{4}$/);
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(() => error.count()).toBe(0);
    await page.getByRole('button', { name: 'Known now' }).click();
    await expect.poll(() => field.inputValue()).toBe('');

    // As of: the same control; a date moves the cursor to the end of that day in Tokyo (what was
    // true by then), shown back as the day.
    const asOf = page.getByLabel('As of (Asia/Tokyo)', { exact: true });
    await asOf.fill('1 January 2025');
    await asOf.press('Enter');
    await expect.poll(() => page.locator('#asof-title time').getAttribute('datetime')).toBe('2025-01-01T14:59:59.998Z');
    await expect.poll(() => asOf.inputValue()).toBe('1 Jan 2025');
    await expect.poll(() => page.locator('.asof-panel').textContent()).toContain('Kyoto');

    // The Facts list's as-of is the same control.
    await go(page, '#/facts');
    const factsAsOf = page.getByLabel('As of (Asia/Tokyo)', { exact: true });
    await factsAsOf.fill('1 January 2025');
    await factsAsOf.press('Enter');
    await expect.poll(() => factsAsOf.inputValue()).toBe('1 Jan 2025');
    await expect.poll(() => page.locator('.facts-screen .screen-header').textContent()).toContain('as of 1 Jan 2025');
    await expect.poll(() => page.locator('.fact-list').textContent()).toContain('I lived in Kyoto.');
    // "today" there is now, following the clock: the field empties to now, as the Now button does.
    await factsAsOf.fill('today');
    await factsAsOf.press('Enter');
    await expect.poll(() => factsAsOf.inputValue()).toBe('');
    await expect.poll(() => page.locator('.facts-screen .screen-header').textContent()).not.toContain('as of 1 Jan 2025');
    await factsAsOf.fill('1 January 2025');
    await factsAsOf.press('Enter');
    await expect.poll(() => factsAsOf.inputValue()).toBe('1 Jan 2025');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await expect.poll(() => factsAsOf.inputValue()).toBe('');
    // A month typed is said back as the month, in the field and the list's heading, not its last day.
    await factsAsOf.fill('January 2025');
    await factsAsOf.press('Enter');
    await expect.poll(() => page.locator('.facts-screen .screen-header').textContent()).toContain('as of January 2025.');
    expect(await factsAsOf.inputValue()).toBe('January 2025');
  });

  it('the Facts list’s Now button leaves no error behind for the text it replaced', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    const asOf = page.getByLabel('As of (Asia/Tokyo)', { exact: true });
    const error = page.locator('.facts-toolbar .time-field', { has: asOf }).getByRole('alert');
    await asOf.fill('1 January 2025');
    await asOf.press('Enter');
    await expect.poll(() => page.locator('.facts-screen .screen-header').textContent()).toContain('as of');
    // Text that cannot be read, left by clicking Now: the field reads it as it loses the focus, but Now has reset it.
    await asOf.fill('2026-02-30');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await expect.poll(() => asOf.inputValue()).toBe('');
    await page.waitForTimeout(500);
    expect(await error.count()).toBe(0);
    expect(await asOf.getAttribute('aria-invalid')).toBeNull();
  });

  it('a known-at before anything was recorded says why the Timeline is empty', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const field = page.getByLabel('Known at (Asia/Tokyo)');
    await field.fill('1 June 2020');
    await field.press('Enter');
    await expect.poll(() => field.inputValue()).toBe('1 Jun 2020');
    const first = formatAt(ui().engine.memory.facts.firstRecordedAt()!, 'day', GB_TOKYO);
    await expect
      .poll(async () => sameMonths(await page.getByTestId('nothing-recorded').textContent()))
      .toBe(sameMonths(`Nothing was recorded yet on 1 Jun 2020 — the first facts were recorded on ${first}.`));
    await expect.poll(() => page.locator('.tl-row').count()).toBe(0);
    await screenshot(page, 'timeline-nothing-recorded-yet');
    await page.getByRole('button', { name: 'Known now' }).click();
    await expect.poll(() => page.getByTestId('nothing-recorded').count()).toBe(0);
  });
});
