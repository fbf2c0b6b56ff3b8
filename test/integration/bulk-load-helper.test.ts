/**
 * A large import into an empty store with its second thread (electron/memory/transfer/bulk-load-helper.ts):
 * the worker builds episodes, fact_episodes and the full-text indexes in a scratch database and the
 * import copies them in. It must give exactly what the one-thread import gives, leave indexes and
 * triggers as they were, and fall back to one thread whenever the worker cannot deliver.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { databasePath, type Memory } from '../../electron/memory/index';
import { BulkLoadHelper } from '../../electron/memory/transfer/bulk-load-helper';
import { importMemory, parseExport } from '../../electron/memory/transfer/memory-import';
import { fileMemories } from '../fixtures/file-memories';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { syntheticExport } from '../bench/synthetic-export';
import type { MemoryExport } from '../../shared/memory-schema';
import { databaseOf, storeOf } from '../../electron/memory/memory';
import { exportContents } from '../fixtures/export-contents';

const files = fileMemories('bulk');

function fileMemory(): { memory: Memory; dir: string } {
  const dir = files.dir();
  return { memory: files.open(dir), dir };
}

let cached: MemoryExport | undefined;
/** ~1,500 fact versions about people in English and Japanese, with closed and superseded versions. */
function document(): MemoryExport {
  cached ??= syntheticExport(generateSyntheticMemory({ observations: 1500, seed: 7 }), 1500);
  return JSON.parse(JSON.stringify(cached)) as MemoryExport;
}

const QUERIES = ['manager', 'coffee', 'London', '住んでいます', 'ラーメン', '担当', '東京', '上司'];
const FULL_TEXT = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk'];

function fullTextState(m: Memory) {
  const vocab = (table: string) => databaseOf(m).prepare(`SELECT term, doc, cnt FROM ${table}_vocab ORDER BY term`).all();
  return {
    vocab: FULL_TEXT.map((t) => vocab(t)),
    hits: QUERIES.map((q) => m.facts.search(q, { limit: 20 }).map((h) => h.fact.id)),
    episodes: databaseOf(m).prepare("SELECT rowid, id FROM episodes ORDER BY rowid").all(),
  };
}

function schemaObjects(m: Memory) {
  return databaseOf(m).prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'table') ORDER BY name").all();
}

function checkFullText(m: Memory): void {
  for (const table of [...FULL_TEXT, 'entities_fts']) databaseOf(m).prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
}

describe('import with the bulk-load worker', () => {
  it('gives the same memory, indexes and search results as the one-thread import', async () => {
    const doc = document();
    const one = fileMemory().memory;
    const two = fileMemory();
    const schemaBefore = schemaObjects(two.memory);
    one.transfer.import(document(), { helper: false });
    const summary = two.memory.transfer.import(doc, { helper: true });
    expect(summary.facts).toBe(doc.facts.length);
    await two.memory.settled();

    expect(exportContents(two.memory)).toEqual(exportContents(one));
    expect(fullTextState(two.memory)).toEqual(fullTextState(one));
    expect(fullTextState(two.memory).hits.flat().length).toBeGreaterThan(20);
    checkFullText(two.memory); // external-content tables: also checks every row against the table
    expect(schemaObjects(two.memory)).toEqual(schemaBefore);
    expect(databaseOf(two.memory).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(databaseOf(two.memory).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(databaseOf(two.memory).pragma('foreign_key_check')).toEqual([]);
    expect(databaseOf(two.memory).prepare('SELECT COUNT(*) AS n FROM fts_queue').get()).toEqual({ n: 0 });
    expect(databaseOf(two.memory).prepare('PRAGMA database_list').all().map((d) => (d as { name: string }).name)).toEqual(['main']);
    expect(readdirSync(two.dir).filter((f) => f.includes('scratch'))).toEqual([]);

    // the adopted indexes keep working: a new fact is found, a forgotten one is gone from them
    two.memory.facts.observe([{ subject: '私', predicate: '趣味', object: '盆栽', fact: '盆栽が趣味です。', reference_time: '2026-10-15T00:00:00Z' }]);
    expect(two.memory.facts.search('盆栽').map((h) => h.fact.fact)).toEqual(['盆栽が趣味です。']);
    const victim = two.memory.facts.search('London', { limit: 1 })[0]!.fact;
    two.memory.facts.forget(victim.id);
    expect(two.memory.facts.search('London', { limit: 50 }).map((h) => h.fact.id)).not.toContain(victim.id);
    checkFullText(two.memory);
  });

  it('a refused document leaves the store, its settings and the data directory as they were', async () => {
    const { memory, dir } = fileMemory();
    const dangling = document();
    dangling.facts[5]!.episode_ids = ['epi_missing'];
    expect(() => memory.transfer.import(dangling, { helper: true })).toThrow(/facts\.5\.episode_ids\.0: unknown episode epi_missing/);
    // the worker gets the rows before validation: a document that is not even rows still gets the validation's message
    const shapeless = { ...document(), episodes: 'none', facts: [{ episode_ids: 7 }] };
    expect(() => memory.transfer.import(shapeless, { helper: true })).toThrow(/not a valid Tempora export: episodes/);
    // facts that can be sent, episodes that cannot: the worker has begun and is told to stop
    const halfShaped = { ...document(), episodes: 'none' };
    expect(() => memory.transfer.import(halfShaped, { helper: true })).toThrow(/not a valid Tempora export: episodes/);
    await memory.settled();
    expect(memory.transfer.export().facts).toEqual([]);
    expect(memory.facts.search('東京')).toEqual([]);
    checkFullText(memory);
    expect(databaseOf(memory).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(databaseOf(memory).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(readdirSync(dir).filter((f) => f.includes('scratch'))).toEqual([]);
    // and the next import goes through
    memory.transfer.import(document(), { helper: true });
    checkFullText(memory);
    expect(memory.facts.search('東京').length).toBeGreaterThan(0);
  });

  it('when the worker cannot deliver, the import writes and indexes everything in its own thread', async () => {
    const reference = fileMemory().memory;
    reference.transfer.import(document(), { helper: false });
    const { memory, dir } = fileMemory();
    const doc = parseExport(document());
    // a worker that never gets its rows: adopt() has nothing to copy and must say so
    const helper = BulkLoadHelper.spawn(databaseOf(memory), databasePath(dir))!;
    expect(helper).not.toBeNull();
    databaseOf(memory).pragma('foreign_keys = OFF');
    databaseOf(memory).transaction(() => importMemory(storeOf(memory), doc, false, helper))();
    databaseOf(memory).pragma('foreign_keys = ON');
    helper.finish({ dbPath: databasePath(dir) });
    await helper.exited;
    expect(exportContents(memory)).toEqual(exportContents(reference));
    expect(fullTextState(memory)).toEqual(fullTextState(reference));
    checkFullText(memory);
    expect(existsSync(`${databasePath(dir)}.bulk-scratch`)).toBe(false);
  });
});
