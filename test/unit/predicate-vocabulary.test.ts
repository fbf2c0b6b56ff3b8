/**
 * One vocabulary (issue 18): predicates are normalised at every entry — observe, ingestion, import —
 * by one function, and migration 0009 normalises stores written before, re-resolving merged slots.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { flushFullText, registerTextFunctions } from '../../electron/memory/text-search/fts-index';
import type { MemoryExport } from '../../shared/memory-schema';

const fresh = (): Memory => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
const note = (object: string, day: string, predicate = 'note-3') => ({ subject: 'me', predicate, object, fact: `Note: ${object}.`, reference_time: `2026-09-${day}T00:00:00Z`, cardinality: 'one', object_type: 'literal' });

/** An export whose predicates were written as given (as imports used to keep them). */
function rawDocument(): MemoryExport {
  const m = fresh();
  m.facts.observe([note('first', '01')]);
  const doc = JSON.parse(JSON.stringify(m.transfer.export())) as MemoryExport;
  for (const f of doc.facts) f.predicate = 'note-3';
  return doc;
}

describe('one predicate vocabulary', () => {
  it('an imported "note-3" and an observed "note 3" share a slot: the later closes the earlier', () => {
    const m = fresh();
    m.transfer.import(rawDocument());
    expect(m.facts.list().map((f) => f.predicate)).toEqual(['note_3']);
    m.facts.observe([note('second', '10', 'note 3')]);
    const facts = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
    expect(facts.map((f) => [f.object, f.invalid_at?.slice(0, 10) ?? null])).toEqual([
      ['first', '2026-09-10'],
      ['second', null],
    ]);
    expect(m.facts.search('note_3').length).toBeGreaterThan(0);
  });

  it('a document whose two spellings of one one-valued slot are both open is refused, naming both', () => {
    const doc = rawDocument();
    const m = fresh();
    m.facts.observe([note('other', '05', 'note_3')]);
    const other = JSON.parse(JSON.stringify(m.transfer.export())) as MemoryExport;
    const merged: MemoryExport = {
      ...doc,
      episodes: [...doc.episodes, ...other.episodes],
      conversations: [...doc.conversations, ...other.conversations],
      facts: [...doc.facts, { ...other.facts[0]!, subject_id: doc.facts[0]!.subject_id }],
    };
    const target = fresh();
    expect(() => target.transfer.import(merged)).toThrow(/are both still true/);
    expect(target.facts.list()).toEqual([]);
  });

  it('migration 0009 normalises an older store and re-resolves the slots it merged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-vocab-'));
    try {
      // A store at schema 8 holding the same one-valued relation under two spellings, both open.
      const path = join(dir, 'memory.sqlite');
      const db = new Database(path);
      registerTextFunctions(db);
      migrate(db, migrations.slice(0, 8));
      const t = (d: string) => `2026-09-${d}T00:00:00.000Z`;
      db.exec(`INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_me', 'me', 'me', 'user', '${t('01')}')`);
      const insert = db.prepare(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
        VALUES (?, ?, 'ent_me', ?, ?, ?, 'one', ?, 'open', ?, ?, 'import')`);
      const claim = db.prepare(`INSERT INTO claims (fact_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, reference_time, episode_ids, origin)
        VALUES (?, 'ent_me', ?, ?, ?, 'one', ?, ?, '[]', 'import')`);
      for (const [id, predicate, object, day] of [['f1', 'Note-3', 'first', '01'], ['f2', 'note_3', 'second', '10']] as const) {
        insert.run(id, id, predicate, object, `Note: ${object}.`, t(day), t(day), t(day));
        claim.run(id, predicate, object, `Note: ${object}.`, t(day), t(day));
      }
      flushFullText(db); // indexed under the old spelling: the migration must re-index, not just rename
      db.close();
      const progress: [number, number][] = [];
      const m = openMemory({ dataDir: dir, clock: steppingClock('2027-01-01T00:00:00.000Z'), onQueuedSlots: (done, total) => progress.push([done, total]) });
      try {
        // Resolved as an explicit step of opening, with its progress, not by the constructor.
        expect(progress).toEqual([[1, 1]]);
        const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
        expect(live.map((f) => [f.predicate, f.object, f.invalid_at?.slice(0, 10) ?? null])).toEqual([
          ['note_3', 'first', '2026-09-10'],
          ['note_3', 'second', null],
        ]);
        expect(databaseOf(m).prepare('SELECT COUNT(*) AS n FROM slot_refresh_queue').get()).toEqual({ n: 0 });
        expect(m.facts.search('note_3').map((h) => h.fact.object)).toContain('second');
        expect(() => databaseOf(m).prepare("INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
      } finally {
        m.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
