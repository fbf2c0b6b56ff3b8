/**
 * Stores made by earlier schemas upgrade to the current one and keep what they meant (issue #26):
 * each fixture (test/fixtures/old-stores/store-at-NN.sql, made once by make.ts and never regenerated)
 * is loaded into a file and opened through the real door (openMemory → openDatabase: the copy before
 * migrating is written). Every stored row is still there with the same values; the facts read the same
 * on both time axes; the timeline's kept rows equal a recount; the full-text indexes find the
 * sentences, CJK ones included; the counts kept by triggers equal counting.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { migrations } from '../../electron/memory/store/database/migrations';
import { objectKeyOf, type FactRow } from '../../electron/memory/store/fact-rows';
import { backupPathBefore } from '../../electron/memory/store/database/upgrade-store';
import { recountTimelineRows } from '../../electron/memory/store/timeline-rows';

const FIXTURES = join(import.meta.dirname, '../fixtures/old-stores');
const VERSIONS = [9, 14, 19];
const NOW = '2026-10-01T00:00:00.000Z';

/** Tables whose rows a later step or the store itself derives (compared to a recount below, not row by row). */
const DERIVED = /^(timeline_|live_|fts_queue$|slot_refresh_queue$)/;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-old-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function loadFixture(version: number, path: string): Database.Database {
  const db = new Database(path);
  db.exec(readFileSync(join(FIXTURES, `store-at-${String(version).padStart(2, '0')}.sql`), 'utf8'));
  return db;
}

/** The plain tables of a store and their rows by primary key (the full-text shadow tables left out). */
function rowsOf(db: Database.Database): Map<string, Map<string, Record<string, unknown>>> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_%' AND name NOT LIKE '%_cjk_%'")
    .pluck()
    .all() as string[];
  const result = new Map<string, Map<string, Record<string, unknown>>>();
  for (const table of tables) {
    const info = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[];
    const key = info.filter((c) => c.pk > 0).map((c) => c.name);
    const rows = new Map<string, Record<string, unknown>>();
    for (const row of db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]) {
      rows.set(JSON.stringify(key.length ? key.map((k) => row[k]) : row), row);
    }
    result.set(table, rows);
  }
  return result;
}

function openUpgraded(version: number): { memory: Memory; before: ReturnType<typeof rowsOf> } {
  const path = join(dir, 'memory.sqlite');
  const old = loadFixture(version, path);
  const before = rowsOf(old);
  expect(old.pragma('user_version', { simple: true })).toBe(version);
  old.close();
  const memory = openMemory({ dataDir: dir, clock: steppingClock(NOW, 1000) });
  return { memory, before };
}

const ids = (facts: { id: string }[]) => facts.map((f) => f.id).sort();

describe.each(VERSIONS)('a store at schema %i', (version) => {
  it('upgrades through openDatabase with a copy of it first', () => {
    const { memory } = openUpgraded(version);
    try {
      expect(databaseOf(memory).pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      memory.close();
    }
    const copy = new Database(backupPathBefore(join(dir, 'memory.sqlite'), version), { readonly: true });
    try {
      expect(copy.pragma('user_version', { simple: true })).toBe(version);
      expect(copy.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(5);
    } finally {
      copy.close();
    }
  });

  it('keeps every stored row with the same values', () => {
    const { memory, before } = openUpgraded(version);
    try {
      const after = rowsOf(databaseOf(memory));
      for (const [table, rows] of before) {
        if (DERIVED.test(table)) continue;
        const kept = after.get(table);
        expect(kept, `${table} is still there`).toBeDefined();
        expect(kept!.size, `${table}'s rows`).toBe(rows.size);
        for (const [stored, was] of rows) {
          // Step 0026 named the review setting as shared/settings-schema.ts does, its value as JSON.
          const renamed = table === 'memory_settings' && was.key === 'review_before_remembering';
          const row = renamed ? { key: 'reviewBeforeRemembering', value: was.value === '1' ? 'true' : 'false' } : was;
          const key = renamed ? JSON.stringify([row.key]) : stored;
          const now = kept!.get(key);
          expect(now, `${table} ${key}`).toBeDefined();
          // Step 0012 titled a conversation still called "New conversation" from its first message.
          const changed = table === 'conversations' && version < 12 && row.title === 'New conversation' ? ['title'] : [];
          for (const [column, value] of Object.entries(row)) {
            if (!changed.includes(column)) expect(now![column], `${table} ${key} ${column}`).toEqual(value);
          }
        }
      }
      // A column a step filled from stored rows holds what the store computes for them today.
      const claims = databaseOf(memory).prepare('SELECT object_id, object_literal, object_key FROM claims').all() as (Pick<FactRow, 'object_id' | 'object_literal'> & { object_key: string })[];
      expect(claims.map((c) => c.object_key)).toEqual(claims.map((c) => objectKeyOf(c)));
      const all = before.get('facts')!.size + before.get('episodes')!.size + before.get('claims')!.size + before.get('entities')!.size;
      expect(all).toBe(5 + 6 + 4 + 5);
    } finally {
      memory.close();
    }
  });

  it('reads the same facts on both time axes', () => {
    const { memory } = openUpgraded(version);
    try {
      expect(ids(memory.facts.list())).toEqual(['fct_globex', 'fct_ramen']);
      expect(ids(memory.facts.list({ asOf: '2024-06-01T00:00:00.000Z' }))).toEqual(['fct_acme_2', 'fct_osaka']);
      // As known in June 2024, Ann's job at Acme had no end yet: the version since replaced.
      expect(ids(memory.facts.list({ asOf: '2024-06-01T00:00:00.000Z', knownAt: '2024-06-01T00:00:00.000Z' }))).toEqual(['fct_acme_1', 'fct_osaka']);
      expect(ids(memory.facts.list({ knownAt: '2025-03-01T00:00:00.000Z' }))).toEqual(['fct_acme_1']);
      expect(ids(memory.facts.list({ history: true }))).toEqual(['fct_acme_1', 'fct_acme_2', 'fct_globex', 'fct_osaka', 'fct_ramen']);
      expect(memory.facts.list({ subject: 'Ann', asOf: '2024-06-01T00:00:00.000Z' })).toEqual([
        {
          id: 'fct_acme_2', subject_id: 'ent_ann', subject: 'Ann Lee', predicate: 'works_at', object_id: 'ent_acme', object: 'Acme', fact: 'Ann works at Acme.',
          cardinality: 'one', valid_at: '2024-01-10T00:00:00.000Z', invalid_at: '2025-03-01T00:00:00.000Z', created_at: '2025-03-05T10:00:05.000Z', expired_at: null,
          episode_ids: ['ep_acme'], invalidated_by: 'fct_globex', supersedes: 'fct_acme_1', origin: 'extracted', valid_at_precision: 'day', invalid_at_precision: 'day',
        },
      ]);
      const osaka = memory.facts.get('fct_osaka');
      expect([osaka?.object, osaka?.valid_at_precision, osaka?.invalid_at_precision, osaka?.invalid_at]).toEqual(['Osaka', 'month', 'year', '2025-01-01T00:00:00.000Z']);
    } finally {
      memory.close();
    }
  });

  it('finds the sentences by full text, CJK ones included', () => {
    const { memory } = openUpgraded(version);
    try {
      expect(memory.facts.search('Globex').map((hit) => hit.fact.id)).toContain('fct_globex');
      expect(memory.facts.search('ラーメン').map((hit) => hit.fact.id)).toContain('fct_ramen');
      expect(ids(memory.facts.list({ text: '近藤' }))).toEqual(['fct_ramen']);
      const db = databaseOf(memory);
      const episodes = (table: string, query: string) =>
        db.prepare(`SELECT e.id FROM ${table} JOIN episodes e ON e.rowid = ${table}.rowid WHERE ${table} MATCH ? ORDER BY e.id`).pluck().all(query);
      expect(episodes('episodes_fts', '"Osaka"')).toEqual(['ep_trip']);
      expect(episodes('episodes_cjk', '"ラー"')).toEqual(['ep_ramen']);
      expect(db.prepare("SELECT entity_id FROM entities_fts WHERE entities_fts MATCH '\"Globex\"'").pluck().all()).toEqual(['ent_globex']);
    } finally {
      memory.close();
    }
  });

  it("keeps the timeline's rows and the trigger-kept counts equal to counting again", () => {
    const { memory } = openUpgraded(version);
    try {
      const db = databaseOf(memory);
      const kept = () =>
        ['timeline_slots', 'timeline_subjects', 'timeline_hours', 'timeline_totals'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
      const before = kept();
      expect(before[0]).toHaveLength(3); // Ann works_at, 近藤 likes, me lives_in
      db.exec('SAVEPOINT recount');
      recountTimelineRows(db);
      const recounted = kept();
      db.exec('ROLLBACK TO recount; RELEASE recount');
      expect(before).toEqual(recounted);
      expect(db.prepare('SELECT subject_id, live FROM live_subjects ORDER BY 1').all()).toEqual(
        db.prepare('SELECT subject_id, count(*) AS live FROM facts WHERE expired_at IS NULL GROUP BY 1 ORDER BY 1').all(),
      );
      expect(db.prepare('SELECT predicate, cardinality, live FROM live_predicates ORDER BY 1, 2').all()).toEqual(
        db.prepare('SELECT predicate, cardinality, count(*) AS live FROM facts WHERE expired_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2').all(),
      );
      expect(db.prepare('SELECT id, message_count, last_message_at FROM conversations ORDER BY id').all()).toEqual(
        db.prepare('SELECT c.id, count(e.id) AS message_count, max(e.created_at) AS last_message_at FROM conversations c LEFT JOIN episodes e ON e.conversation_id = c.id GROUP BY c.id ORDER BY c.id').all(),
      );
    } finally {
      memory.close();
    }
  });

  it('keeps conversations, messages, jobs, learning and reviews as the app reads them', () => {
    const { memory } = openUpgraded(version);
    try {
      const titles = Object.fromEntries(memory.conversations.list().map((c) => [c.id, c.title]));
      expect(titles).toEqual({ cnv_work: 'Work talk', cnv_new: version < 12 ? '近藤さんはラーメンが好きです。' : 'New conversation', cnv_imported: 'Trip plans' });
      expect(memory.conversations.messages('cnv_work').map((m) => m.id)).toEqual(['ep_acme', 'ep_noted', 'ep_globex', 'ep_held']);
      expect(memory.messages.parked().map((m) => m.episodeId)).toEqual(['ep_trip']);
      // What the message's learning changed was recorded from step 0012 on; before, it was learned, no more.
      const learning = memory.messages.learning('ep_globex')!;
      expect([learning.state, learning.recorded, ids(learning.added), ids(learning.closed)]).toEqual(
        version >= 12 ? ['learned', true, ['fct_globex'], ['fct_acme_2']] : ['learned', false, [], []],
      );
      expect(memory.review.status()).toEqual({ reviewBeforeRemembering: version >= 16, waiting: version >= 16 ? 1 : 0 });
      expect(memory.facts.closedBy(['fct_globex'])).toEqual([{ hit: 0, id: 'fct_acme_2' }]);
    } finally {
      memory.close();
    }
  });
});
