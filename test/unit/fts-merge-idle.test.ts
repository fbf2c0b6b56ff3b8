/**
 * The full-text indexes merge while the memory is idle, never inside a write (text-search/fts-merge.ts,
 * fts-idle-merge.ts): the settings are in every FTS5 table of a new store and of one opened again;
 * single writes only add segments (up to the crisismerge cap); the idle merge — run to completion by
 * mergeFullText(), or by its timer (fake timers: no test sleeps) — brings them back to a few while
 * search keeps finding everything; close() stops it, after a bounded last merge. Real SQLite
 * through the real Memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { FullTextIdleMerge, IDLE_DELAY_MS, MAX_WAIT_MS } from '../../electron/memory/text-search/fts-idle-merge';
import { MERGED_TABLES, mergeStep, ROW_BY_ROW_CRISISMERGE, segmentCount, type MergedTable } from '../../electron/memory/text-search/fts-merge';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-fts-merge-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A word no other fact holds, from letters only (trigram search, no digits to tokenise apart). */
function word(i: number): string {
  let s = '';
  for (let n = i + 26 * 26; n > 0; n = Math.floor(n / 26)) s = String.fromCharCode(97 + (n % 26)) + s;
  return `qz${s}`;
}

/** Write `i`: one fact (facts_fts, facts_cjk, entities_fts: a new subject) or one message (episodes_*), in one write each. */
function writeOne(memory: Memory, i: number): void {
  if (i % 2 === 0) {
    memory.facts.observe([{ subject: `Collector ${word(i)}`, predicate: 'collects', object: word(i), fact: `Collector ${word(i)} collects ${word(i)} 切手を集めている。`, reference_time: '2026-05-01T00:00:00Z', cardinality: 'many' }]);
  } else {
    memory.messages.append({ role: 'user', content: `Message ${word(i)}: 今日は東京で会議があった。`, time: '2026-05-01T00:00:00Z', conversation: 'cnv_fts', learn: false });
  }
}

function segments(memory: Memory): Record<MergedTable, number> {
  const db = databaseOf(memory);
  return Object.fromEntries(MERGED_TABLES.map((t) => [t, segmentCount(db, t)])) as Record<MergedTable, number>;
}

/** Every fact written so far (even i below n) is the first hit for its own word. */
function expectEveryFactFound(memory: Memory, n: number): void {
  for (let i = 0; i < n; i += 2) expect(memory.facts.search(`Who collects ${word(i)}?`, { limit: 3 })[0]?.fact.object, word(i)).toBe(word(i));
}

const config = (memory: Memory, table: string) =>
  Object.fromEntries((databaseOf(memory).prepare(`SELECT k, v FROM ${table}_config WHERE k IN ('automerge', 'crisismerge')`).all() as { k: string; v: number }[]).map((r) => [r.k, r.v]));

describe('merge settings', () => {
  it('covers every FTS5 table of the store', () => {
    const memory = openMemory({ dataDir: ':memory:' });
    const fts5 = (databaseOf(memory).prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(%'").all() as { name: string }[]).map((r) => r.name);
    expect([...fts5].sort()).toEqual([...MERGED_TABLES].sort());
    memory.close();
  });

  it('are in every table of a new store, and put back when a store is opened again', () => {
    const dir = dataDir();
    let memory = openMemory({ dataDir: dir });
    for (const t of MERGED_TABLES) expect(config(memory, t), t).toEqual({ automerge: 0, crisismerge: ROW_BY_ROW_CRISISMERGE });
    // A store from before: FTS5's defaults (no rows in %_config), or settings changed since.
    const db = databaseOf(memory);
    db.unsafeMode(true); // %_config is a shadow table, read-only in SQLite's defensive mode
    db.exec("DELETE FROM facts_fts_config WHERE k IN ('automerge', 'crisismerge')");
    db.unsafeMode(false);
    db.exec("INSERT INTO episodes_cjk (episodes_cjk, rank) VALUES ('automerge', 4)");
    memory.close();
    memory = openMemory({ dataDir: dir });
    for (const t of MERGED_TABLES) expect(config(memory, t), t).toEqual({ automerge: 0, crisismerge: ROW_BY_ROW_CRISISMERGE });
    memory.close();
    // Read-only: nothing written, the settings still read back.
    memory = openMemory({ dataDir: dir, readonly: true });
    expect(config(memory, 'facts_fts')).toEqual({ automerge: 0, crisismerge: ROW_BY_ROW_CRISISMERGE });
    memory.close();
  });

  it.each([
    ['on this thread', false],
    ['by the second thread, whose %_config is copied in', true],
  ])('survive an import whose bulk load builds the indexes %s', async (_, helper) => {
    const source = openMemory({ dataDir: ':memory:' });
    for (let i = 0; i < 20; i++) writeOne(source, i);
    const doc = source.transfer.export();
    source.close();
    const memory = openMemory({ dataDir: dataDir() });
    memory.transfer.import(doc, { helper });
    await memory.settled();
    for (const t of MERGED_TABLES) expect(config(memory, t), t).toEqual({ automerge: 0, crisismerge: ROW_BY_ROW_CRISISMERGE });
    memory.close();
  });
});

describe('writes leave merging to idle time', () => {
  it('adds a segment per write and merges none, until the crisismerge cap', () => {
    const memory = openMemory({ dataDir: ':memory:' });
    // Every write adds a message (observe keeps its input as one); every other one a fact.
    for (let i = 0; i < 60; i++) writeOne(memory, i);
    // Below the cap: every segment still there (automerge would have left a handful).
    expect(segments(memory).facts_fts).toBeGreaterThanOrEqual(30);
    expect(segments(memory).episodes_fts).toBeGreaterThanOrEqual(60);
    for (let i = 60; i < ROW_BY_ROW_CRISISMERGE + 36; i++) writeOne(memory, i);
    // The 64th write merged level 0 inside itself; 36 are left beside its output.
    expect(segments(memory).episodes_fts).toBeLessThan(ROW_BY_ROW_CRISISMERGE);
    expect(segments(memory).episodes_fts).toBeGreaterThanOrEqual(36);
    memory.close();
  });

  it('merges back to a few segments per table once idle, and search finds every fact during and after', async () => {
    const memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
    let n = 0;
    for (; n < 120; n++) writeOne(memory, n);
    expect(segments(memory).facts_fts).toBeGreaterThanOrEqual(40);
    const merging = memory.mergeFullText();
    // Writes and searches between the merge's steps (each yields a turn of the event loop).
    for (let k = 0; k < 40; k++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      writeOne(memory, n++);
      if (k % 10 === 0) expectEveryFactFound(memory, n);
      for (const i of [n - 1, (k * 14) % n].map((j) => j - (j % 2))) expect(memory.facts.search(`Who collects ${word(i)}?`, { limit: 3 })[0]?.fact.object).toBe(word(i));
    }
    await merging;
    const after = segments(memory);
    for (const t of MERGED_TABLES) expect(after[t], t).toBeLessThanOrEqual(4);
    expectEveryFactFound(memory, n);
    // Nothing left to merge: a second run finds no work.
    const before = databaseOf(memory).prepare('SELECT total_changes() AS n').get() as { n: number };
    await memory.mergeFullText();
    expect((databaseOf(memory).prepare('SELECT total_changes() AS n').get() as { n: number }).n - before.n).toBeLessThan(2 * MERGED_TABLES.length);
    memory.close();
  });

  it('steps until a step does no work: total_changes() rose by fewer than 2', async () => {
    const memory = openMemory({ dataDir: ':memory:' });
    const db = databaseOf(memory);
    // Long messages: their segments' terms fill many ~4 KB pages, so a one-page step merges a little.
    const long = (i: number) => Array.from({ length: 200 }, (_, j) => word(1000 + i * 200 + j)).join(' ');
    const writeLong = (from: number) => {
      for (let i = from; i < from + 40; i++) memory.messages.append({ role: 'user', content: long(i), time: '2026-05-01T00:00:00Z', conversation: 'cnv_fts', learn: false });
    };
    for (let i = 0; i < 120; i++) writeOne(memory, i);
    writeLong(0);
    // The pass keeps stepping each table until it has nothing left, yielding between steps.
    const merge = new FullTextIdleMerge(db, 1);
    await merge.mergeNow();
    for (const [t, count] of Object.entries(segments(memory))) expect(count, t).toBeLessThanOrEqual(4);
    expectEveryFactFound(memory, 120);
    merge.close();
    // Each step did work until the last, which says so by total_changes() rising by fewer than 2.
    writeLong(40);
    let steps = 0;
    while (steps < 10_000 && mergeStep(db, 'episodes_fts', 1)) steps++;
    expect(steps).toBeGreaterThan(5);
    expect(steps).toBeLessThan(10_000);
    expect(segments(memory).episodes_fts).toBeLessThanOrEqual(4);
    memory.close();
  });

  it('runs by itself once no write has come for the idle delay, and each write postpones it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    const memory = openMemory({ dataDir: ':memory:' });
    for (let i = 0; i < 60; i++) writeOne(memory, i);
    const written = segments(memory).episodes_fts;
    expect(written).toBeGreaterThanOrEqual(30);
    await vi.advanceTimersByTimeAsync(IDLE_DELAY_MS - 1);
    writeOne(memory, 61); // postpones the merge by a whole delay again
    await vi.advanceTimersByTimeAsync(IDLE_DELAY_MS - 1);
    expect(segments(memory).episodes_fts).toBe(written + 1);
    await vi.runAllTimersAsync();
    for (const [t, count] of Object.entries(segments(memory))) expect(count, t).toBeLessThanOrEqual(4);
    expect(vi.getTimerCount()).toBe(0);
    memory.close();
  });

  it('is not postponed forever by writes that keep coming a little closer than the idle delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    const memory = openMemory({ dataDir: ':memory:' });
    for (let i = 0; i < 30; i++) writeOne(memory, i);
    const gap = IDLE_DELAY_MS - 100;
    // Each write postpones it; MAX_WAIT_MS after the first, it runs between two of them. (Fewer
    // writes in all than the crisismerge cap, which would merge them too.)
    const more = Math.ceil(MAX_WAIT_MS / gap);
    expect(30 + more).toBeLessThan(ROW_BY_ROW_CRISISMERGE);
    for (let i = 30; i < 30 + more; i++) {
      await vi.advanceTimersByTimeAsync(gap);
      writeOne(memory, i);
    }
    expect(segments(memory).episodes_fts).toBeLessThan(10);
    memory.close();
  });
});

describe('close', () => {
  it('stops a merge in flight: it resolves, no step runs after, nothing is logged', async () => {
    const errors = vi.spyOn(console, 'error');
    const memory = openMemory({ dataDir: ':memory:' });
    for (let i = 0; i < 120; i++) writeOne(memory, i);
    const prepare = vi.spyOn(databaseOf(memory), 'prepare');
    const merging = memory.mergeFullText();
    memory.close();
    const calls = prepare.mock.calls.length;
    await expect(merging).resolves.toBeUndefined();
    expect(prepare.mock.calls.length).toBe(calls);
    expect(errors).not.toHaveBeenCalled();
  });

  it('drops the pending idle timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    const errors = vi.spyOn(console, 'error');
    const memory = openMemory({ dataDir: ':memory:' });
    writeOne(memory, 1);
    expect(vi.getTimerCount()).toBe(1);
    memory.close();
    expect(vi.getTimerCount()).toBe(0);
    await vi.runAllTimersAsync();
    expect(errors).not.toHaveBeenCalled();
  });

  it('merges a little first, so a process that exits right after its writes does not only add segments', () => {
    const dir = dataDir();
    let memory = openMemory({ dataDir: dir });
    for (let i = 0; i < 40; i++) writeOne(memory, i);
    expect(segments(memory).episodes_fts).toBeGreaterThanOrEqual(20);
    memory.close();
    memory = openMemory({ dataDir: dir });
    for (const [t, count] of Object.entries(segments(memory))) expect(count, t).toBeLessThanOrEqual(4);
    memory.close();
  });

  it('merges nothing when this process wrote nothing (a command that only reads takes no write lock)', () => {
    const dir = dataDir();
    const writer = openMemory({ dataDir: dir });
    for (let i = 0; i < 40; i++) writeOne(writer, i);
    const before = segments(writer);
    expect(before.episodes_fts).toBeGreaterThanOrEqual(20);
    const reader = openMemory({ dataDir: dir });
    expect(reader.facts.search('Who collects things?', { limit: 1 })).toHaveLength(1);
    reader.close();
    expect(segments(writer)).toEqual(before);
    writer.close();
  });
});
