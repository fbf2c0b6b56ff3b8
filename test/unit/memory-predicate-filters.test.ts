/**
 * The screens say a predicate in words ("lives in": shared/predicate-words.ts); a user types what
 * they read. The Facts screen's predicate filter (listFacts and the search's predicate, the name
 * normalised) and the timeline's row filter (temporal/timeline-source.ts: a space typed reads as an
 * underscore for the predicate) find a fact whether "lives in" or "lives_in" is typed — the row
 * filter whichever way it is answered (the pass over the facts it keeps, or the kept rows), by index.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { keptRowsFiltered } from '../../electron/memory/temporal/timeline-kept-filter';
import { likePattern } from '../../electron/memory/temporal/timeline-source';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { sayPredicate } from '../../shared/predicate-words';

const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;

function memory(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  const say = (subject: string, predicate: string, object: string, day: string, cardinality: 'one' | 'many' = 'one') =>
    m.facts.observe([{ subject, predicate, object, fact: `${subject} ${predicate} ${object}.`, reference_time: `2026-${day}T00:00:00Z`, cardinality }]);
  say('Mia', 'lives_in', 'Lima', '01-10');
  say('Mia', 'has_manager', 'Aoki', '02-01');
  say('Mia', 'likes', 'tea', '03-01', 'many');
  say('Bo', 'lives in', 'Quito', '04-01');
  say('Bo', 'works_at', 'Acme', '05-01');
  say('me', '好き_な_食べ物', '寿司', '06-01', 'many');
  return m;
}

const rowsOf = (w: { rows: { subject: string; predicate: string }[] }) => w.rows.filter((r) => r.predicate !== '').map((r) => `${r.subject} · ${r.predicate}`);

describe('a predicate typed as the screens say it', () => {
  it('is the name stored: "lives in" is lives_in', () => {
    const m = memory();
    expect(m.facts.list({ subject: 'Bo', predicate: 'lives_in' }).map((f) => f.predicate)).toEqual(['lives_in']);
    for (const f of m.facts.list({})) expect(m.facts.list({ predicate: sayPredicate(f.predicate) }).map((g) => g.id)).toContain(f.id);
    m.close();
  });

  it('finds the same facts in the Facts filter as the name does, listed or searched', () => {
    const m = memory();
    const ids = (facts: { id: string }[]) => facts.map((f) => f.id).sort();
    const byName = ids(m.facts.list({ predicate: 'lives_in' }));
    expect(byName).toHaveLength(2);
    for (const typed of ['lives in', 'Lives In', '  lives   in ', 'lives-in']) {
      expect(ids(m.facts.list({ predicate: typed })), typed).toEqual(byName);
      expect(m.facts.page({ predicate: typed, limit: 1 }).total, typed).toBe(2);
      expect(ids(m.facts.search('Lima', { predicate: typed }).map((h) => h.fact)), typed).toEqual(ids(m.facts.search('Lima', { predicate: 'lives_in' }).map((h) => h.fact)));
    }
    expect(ids(m.facts.list({ predicate: '好き な 食べ物' }))).toEqual(ids(m.facts.list({ predicate: '好き_な_食べ物' })));
    expect(m.facts.list({ predicate: '好き な 食べ物' })).toHaveLength(1);
    m.close();
  });

  it('keeps the same timeline rows as the name, in the pass and from the kept rows', () => {
    const m = memory();
    const db = databaseOf(m);
    for (const [typed, name] of [
      ['lives in', 'lives_in'],
      ['LIVES IN', 'lives_in'],
      ['has manager', 'has_manager'],
      ['es i', 'es_i'],
      ['な 食べ', 'な_食べ'],
    ] as const) {
      const pass: TimelineWindowQuery = { ...ALL, filter: typed, rowLimit: 50 };
      expect(rowsOf(timelineWindow(db, pass)), typed).toEqual(rowsOf(timelineWindow(db, { ...pass, filter: name })));
      const grouped: TimelineWindowQuery = { ...pass, groups: { collapseAbove: 0, expanded: m.facts.list({}).map((f) => f.subject_id) } };
      // From the kept rows (timeline-kept-filter.ts), the same as the pass.
      expect(keptRowsFiltered(db, typed, likePattern(typed))?.totals(), typed).toEqual(keptRowsFiltered(db, name, likePattern(name))?.totals());
      expect(timelineWindow(db, grouped), typed).toEqual(timelineWindow(db, grouped, { kept: false }));
      expect(rowsOf(timelineWindow(db, grouped)), typed).toEqual(rowsOf(timelineWindow(db, { ...grouped, filter: name })));
    }
    expect(rowsOf(m.facts.timelineWindow({ ...ALL, filter: 'lives in', rowLimit: 50 }))).toEqual(['Bo · lives_in', 'Mia · lives_in']);
    expect(rowsOf(m.facts.timelineWindow({ ...ALL, filter: 'has manager', rowLimit: 50 }))).toEqual(['Mia · has_manager']);
    // A space is no wildcard: "lives  in" (two) and "in lima" (a predicate and an object) keep nothing.
    expect(rowsOf(m.facts.timelineWindow({ ...ALL, filter: 'lives  in', rowLimit: 50 }))).toEqual([]);
    expect(rowsOf(m.facts.timelineWindow({ ...ALL, filter: 'in lima', rowLimit: 50 }))).toEqual([]);
    // Nor is a subject's or an object's space an underscore.
    expect(rowsOf(m.facts.timelineWindow({ ...ALL, filter: 'ia_', rowLimit: 50 }))).toEqual([]);
    m.close();
  });

  it('is read by index, as the name is: no fact table read whole', () => {
    const m = memory();
    const db = databaseOf(m);
    for (const q of [
      { ...ALL, filter: 'has manager', rowLimit: 10 },
      { ...ALL, filter: 'has manager', rowLimit: 10, groups: { collapseAbove: 0 } },
    ] satisfies TimelineWindowQuery[]) {
      const plans = plansOf(db, () => timelineWindow(db, q)).flatMap((p) => p.plan);
      expect(plans.filter((line) => /^SCAN (f|facts)\b(?! USING COVERING INDEX)/.test(line)), plans.join('\n')).toEqual([]);
    }
    m.close();
  });
});
