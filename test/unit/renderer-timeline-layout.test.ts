/**
 * The timeline's pure layout (renderer/src/timeline): Fit skips a long empty stretch with a few old
 * facts beyond it (timeline-fit.ts); facts of a slot that do not overlap share a lane, and a row of
 * more than MAX_LANES lanes is folded until opened (timeline-model.ts); a label starts at the left
 * edge of the part of its bar on screen (bar-label.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FactRecord } from '../../shared/memory-schema';
import { visibleLabel } from '../../renderer/src/timeline/bar-label';
import { fitSpan } from '../../renderer/src/timeline/timeline-fit';
import { buildLayout, buildRow, LANE_HEIGHT, MAX_LANES, ROW_PADDING } from '../../renderer/src/timeline/timeline-model';

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);

function density(from: number, to: number, at: Record<number, number>, buckets = 120) {
  const counts = new Array<number>(buckets).fill(0);
  for (const [ms, n] of Object.entries(at)) counts[Math.min(buckets - 1, Math.floor(((Number(ms) - from) / (to - from)) * buckets))]! += n;
  return { from, to, counts };
}

const fact = (id: string, validAt: string, invalidAt: string | null) => ({ id, valid_at: validAt, invalid_at: invalidAt }) as FactRecord;

describe('Fit', () => {
  it('skips a long empty stretch before the data, with the few facts before it', () => {
    const first = t('2023-06-01T00:00:00Z');
    const dataFrom = t('2026-01-01T00:00:00Z');
    const now = t('2026-04-01T00:00:00Z');
    const d = density(first, now, { [first]: 3, [dataFrom]: 200, [dataFrom + 30 * DAY]: 300, [dataFrom + 80 * DAY]: 297 });
    const span = fitSpan(d, first, now, now);
    expect(span.from).toBeGreaterThan(dataFrom - 15 * DAY);
    expect(span.from).toBeLessThanOrEqual(dataFrom);
    expect(span.to).toBeGreaterThanOrEqual(now);
  });

  it('keeps everything when the data has no long gap, or the far side holds many facts', () => {
    const from = t('2026-01-01T00:00:00Z');
    const now = t('2026-12-01T00:00:00Z');
    const even = density(from, now, Object.fromEntries(Array.from({ length: 11 }, (_, i) => [from + i * 30 * DAY, 10])));
    expect(fitSpan(even, from, now, now)).toMatchObject({ from });
    // Two halves of the data apart: both are kept.
    const halves = density(from, now, { [from]: 50, [now - DAY]: 50 });
    expect(fitSpan(halves, from, now, now).from).toBe(from);
    // No density (no facts): the range given.
    expect(fitSpan(null, from, now, now)).toEqual({ from, to: now });
  });
});

describe('Fit and the user’s own story (issue #25)', () => {
  it('keeps the user’s facts years after the bulk, and now, but not the user’s own few old ones', () => {
    const bulk = t('2022-06-01T00:00:00Z');
    const own = t('2025-05-01T00:00:00Z');
    const now = t('2026-12-01T00:00:00Z');
    // 900 starts and ends in 2022–23, 20 of the user's in 2025–26 (by the density alone, outliers); now is always in.
    const d = density(bulk, t('2026-11-01T00:00:00Z'), { [bulk]: 400, [bulk + 200 * DAY]: 500, [own]: 10, [own + 300 * DAY]: 10 });
    expect(fitSpan(d, bulk, now, now).to).toBe(now);
    const mine = density(own, own + 300 * DAY, { [own]: 10, [own + 300 * DAY - 1]: 10 }, 64);
    const span = fitSpan(d, bulk, now, now, mine);
    expect(span.from).toBeLessThanOrEqual(bulk);
    expect(span.to).toBeGreaterThanOrEqual(now);
    // The user's group with a birth place decades before: its own outliers stay out.
    const born = t('1990-01-01T00:00:00Z');
    const withBirth = density(born, own + 300 * DAY, { [born]: 1, [own]: 10, [own + 300 * DAY - 1]: 10 }, 64);
    expect(fitSpan(d, bulk, now, now, withBirth).from).toBeGreaterThan(t('2021-01-01T00:00:00Z'));
    // Without marks, the group's first and last.
    expect(fitSpan(d, bulk, now, now, { from: own, to: own + 300 * DAY })).toMatchObject({ to: now });
  });
});

describe('lanes', () => {
  it('puts facts of a slot that do not overlap in one lane, and folds a row of many lanes', () => {
    const row = buildRow('k', 'me', 'likes', [fact('a', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), fact('b', '2026-02-01T00:00:00Z', null), fact('c', '2026-01-15T00:00:00Z', null)]);
    expect(row.bars.map((b) => [b.fact.id, b.lane])).toEqual([
      ['a', 0],
      ['c', 1],
      ['b', 0],
    ]);
    expect(row.folded).toBe(false);
    const many = Array.from({ length: MAX_LANES + 2 }, (_, i) => fact(`f${i}`, `2026-01-0${i + 1}T00:00:00Z`, null));
    const folded = buildRow('k', 'me', 'likes', many);
    expect([folded.lanes, folded.folded, folded.height]).toEqual([MAX_LANES + 2, true, LANE_HEIGHT + ROW_PADDING]);
    const opened = buildRow('k', 'me', 'likes', many, { open: true });
    expect([opened.folded, opened.height]).toEqual([false, (MAX_LANES + 2) * LANE_HEIGHT + ROW_PADDING]);
  });
});

describe('the as-of layout', () => {
  it("puts the user's rows first, then by subject and predicate", () => {
    const f = (id: string, subject: string, predicate: string) => ({ ...fact(id, '2026-01-01T00:00:00Z', null), subject, subject_id: subject, predicate, object: id, fact: id });
    const layout = buildLayout([f('1', 'Aoki', 'likes'), f('2', 'me', 'manager'), f('3', 'Zed', 'likes'), f('4', 'me', 'likes')], '', t('2026-02-01T00:00:00Z'));
    expect(layout.rows.map((r) => `${r?.subject} · ${r?.predicate}`)).toEqual(['me · likes', 'me · manager', 'Aoki · likes', 'Zed · likes']);
    // Names in natural order, as the memory sorts its groups: Person 2 before Person 10.
    const people = buildLayout([f('5', 'Person 10', 'likes'), f('6', 'Person 2', 'likes'), f('7', 'person 1', 'likes')], '', t('2026-02-01T00:00:00Z'));
    expect(people.rows.map((r) => r?.subject)).toEqual(['person 1', 'Person 2', 'Person 10']);
  });

  it('keeps the rows the filter names, a predicate typed as stored or as the rows say it', () => {
    const f = (id: string, subject: string, predicate: string, object: string) => ({ ...fact(id, '2026-01-01T00:00:00Z', null), subject, subject_id: subject, predicate, object, fact: id });
    const facts = [f('1', 'Mia', 'lives_in', 'Lima'), f('2', 'Mia', 'has_manager', 'Aoki'), f('3', 'Bo', 'likes', 'tea')];
    const kept = (filter: string) => buildLayout(facts, filter, t('2026-02-01T00:00:00Z')).rows.map((r) => `${r?.subject} · ${r?.predicate}`);
    for (const filter of ['lives in', 'LIVES_IN', ' lives in ', 'es i', 'mia lives in lima']) expect(kept(filter), filter).toEqual(['Mia · lives_in']);
    expect(kept('has manager')).toEqual(['Mia · has_manager']);
    expect(kept('lives  in')).toEqual([]);
    expect(kept('')).toEqual(['Bo · likes', 'Mia · has_manager', 'Mia · lives_in']);
  });
});

describe('bar labels', () => {
  it('start at the left edge of the visible part, and fit in it', () => {
    expect(visibleLabel('Kyoto', -300, 200, 600)).toEqual({ x: 5, text: 'Kyoto' });
    expect(visibleLabel('Kyoto', 100, 200, 600)).toEqual({ x: 105, text: 'Kyoto' });
    expect(visibleLabel('a long value that does not fit', 550, 900, 600).text).toMatch(/…$/);
    expect(visibleLabel('Kyoto', 598, 900, 600).text).toBe('');
  });
});
