/**
 * The extraction prompt's vocabulary at a cost that does not grow with the memory (issue 14): the
 * counts of facts held now per subject and per predicate are kept by triggers and always equal a
 * count from the facts, whatever wrote them (observe, edit, close, forget, import in bulk or into a
 * store in use); the names a message mentions are found by index and are exactly those the old
 * full read found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { mentionedEntities, nameHeads } from '../../electron/memory/store/vocabulary';
import type { IsoTime } from '../../shared/time';

function fresh(start: IsoTime = '2026-10-01T00:00:00.000Z'): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock(start, 1000) });
}

/** The stored counts and a count from the facts themselves. */
function counts(m: Memory) {
  const db = databaseOf(m);
  const rows = (sql: string) => db.prepare(sql).all();
  return {
    stored: {
      subjects: rows('SELECT subject_id, live FROM live_subjects ORDER BY subject_id'),
      predicates: rows('SELECT predicate, cardinality, live FROM live_predicates ORDER BY predicate, cardinality'),
    },
    counted: {
      subjects: rows('SELECT subject_id, COUNT(*) AS live FROM facts WHERE expired_at IS NULL GROUP BY subject_id ORDER BY subject_id'),
      predicates: rows('SELECT predicate, cardinality, COUNT(*) AS live FROM facts WHERE expired_at IS NULL GROUP BY predicate, cardinality ORDER BY predicate, cardinality'),
    },
  };
}

const line = fc.record({
  subject: fc.constantFrom('me', 'Bob', '佐藤'),
  predicate: fc.constantFrom('manager', 'likes', 'lives_in'),
  object: fc.constantFrom('X', 'Y', '東京'),
  day: fc.integer({ min: 1, max: 9 }),
  cardinality: fc.constantFrom('one', 'many'),
  then: fc.constantFrom('keep', 'edit', 'close', 'forget'),
});

describe('live counts kept by triggers', () => {
  it('equal a count from the facts after any mix of observe, edit, close, forget and import', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        const m = fresh();
        try {
          for (const [i, l] of lines.entries()) {
            const { episodeIds } = m.facts.observe([{ subject: l.subject, predicate: l.predicate, object: l.object, fact: `${l.subject} ${l.predicate} ${l.object}.`, reference_time: `2026-09-0${l.day}T00:00:00Z`, cardinality: l.cardinality }]);
            const mine = m.facts.list({ history: false }).filter((f) => f.episode_ids.includes(episodeIds[0]!));
            const f = mine[0];
            if (f && l.then === 'edit') m.facts.edit(f.id, { object: `Z${i}` });
            if (f && l.then === 'close' && f.invalid_at === null) m.facts.close(f.id, '2026-09-20T00:00:00.000Z');
            if (f && l.then === 'forget') m.facts.forget(f.id);
          }
          const { stored, counted } = counts(m);
          expect(stored).toEqual(counted);
          const doc = m.transfer.export();
          // into an empty store (a bulk load: triggers dropped, counted once) and into one in use
          const empty = fresh('2027-01-01T00:00:00.000Z');
          const used = fresh('2027-01-01T00:00:00.000Z');
          used.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-01-01T00:00:00Z' }]);
          for (const target of [empty, used]) {
            target.transfer.import(structuredClone(doc));
            const after = counts(target);
            expect(after.stored).toEqual(after.counted);
            target.close();
          }
        } finally {
          m.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the vocabulary names the most talked-about subjects and the predicates in use, most first', () => {
    const m = fresh();
    const say = (subject: string, predicate: string, object: string, cardinality = 'many') =>
      m.facts.observe([{ subject, predicate, object, fact: `${subject} ${predicate} ${object}.`, reference_time: '2026-09-01T00:00:00Z', cardinality }]);
    for (const o of ['a', 'b', 'c']) say('Bob', 'likes', o);
    say('Ann', 'likes', 'd');
    say('Ann', 'manager', 'Bob', 'one');
    const v = m.facts.vocabularyFor('nothing to see');
    expect(v.knownEntities.slice(0, 2).map((e) => e.name)).toEqual(['Bob', 'Ann']);
    expect(v.knownPredicates).toEqual([
      { predicate: 'likes', cardinality: 'many' },
      { predicate: 'manager', cardinality: 'one' },
    ]);
    m.close();
  });
});

describe('names a message mentions, by index', () => {
  // The full read it replaced: every entity's primary name (the first line of its names) against the message.
  const OLD = "SELECT entity_id AS id FROM entities_fts WHERE instr(?, substr(names, 1, instr(names || char(10), char(10)) - 1)) > 0";

  it('finds exactly the entities whose name the message contains, as a full read does', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'A', '佐', '藤', ' ', '😀'), minLength: 1, maxLength: 5 }).filter((s) => s.trim() === s && s.length > 0);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'A', '佐', '藤', ' ', '😀', 'x'), maxLength: 30 }), (names, message) => {
        const m = fresh();
        try {
          for (const n of names) m.facts.observe([{ subject: n, predicate: 'likes', object: 'tea', object_type: 'literal', fact: `${n} likes tea.`, reference_time: '2026-09-01T00:00:00Z' }]);
          const db = databaseOf(m);
          const expected = (db.prepare(`${OLD} ORDER BY rowid`).all(message) as { id: string }[]).map((r) => r.id);
          expect(mentionedEntities(db, message, 100)).toEqual(expected);
        } finally {
          m.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('heads are the runs of one to three characters, by code point', () => {
    expect(nameHeads('ab😀')).toEqual(['a', 'ab', 'ab😀', 'b', 'b😀', '😀']);
    expect(nameHeads('')).toEqual([]);
  });

  it('the lookups read indexes, not the tables', () => {
    const m = fresh();
    const db = databaseOf(m);
    const plan = (sql: string, ...args: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('\n');
    const mentioned = plan('SELECT id FROM entities WHERE substr(name, 1, 3) IN (SELECT value FROM json_each(?)) AND instr(?, name) > 0 ORDER BY rowid LIMIT 20', '["a"]', 'a');
    expect(mentioned).toMatch(/entities USING INDEX entities_by_name_head/);
    expect(mentioned).not.toMatch(/SCAN entities\b/);
    const frequent = plan('SELECT subject_id FROM live_subjects ORDER BY live DESC, subject_id LIMIT ?', 15);
    expect(frequent).toMatch(/live_subjects USING (COVERING )?INDEX live_subjects_by_count/);
    expect(frequent).not.toMatch(/TEMP B-TREE/);
    m.close();
  });
});
