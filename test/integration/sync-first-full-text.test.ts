/**
 * A large first sync onto an empty device builds its full text on the machine's other core
 * (electron/memory/transfer/bulk-load-helper.ts, full text only): the write's own thread sends each
 * stored message's and fact's text to a worker, builds the other indexes and the counts meanwhile,
 * then copies the worker's full-text tables in. The memory must be the one a first sync building its
 * full text in one thread makes — the same index, page for page — and when the worker delivers
 * nothing, the write builds it itself.
 */
import type Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { BulkLoadHelper } from '../../electron/memory/transfer/bulk-load-helper';
import { syncOnce } from '../../electron/sync/sync-runner';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf, type MemoryTarget } from '../fixtures/sync-devices';
import { fileMemories } from '../fixtures/file-memories';

const device = devicesClosedAfterEach();
const files = fileMemories('first-sync-text');

const FULL_TEXT = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk'];
const SAID = [
  ['I bought a cello in Kyoto last spring', 'チェロを京都で買いました'],
  ['My sister moved to Lima for work', '妹は仕事でリマに引っ越しました'],
  ['We hiked up Mount Takao on Saturday', '土曜日に高尾山に登りました'],
];

/** Three devices that each said things and told facts, uploaded a segment a record: many segments. */
async function uploaded(): Promise<MemoryTarget> {
  const target = memoryTarget();
  for (const [i, lines] of SAID.entries()) {
    const m = device();
    for (const [j, content] of lines.entries()) m.messages.append({ role: 'user', content, time: `2026-09-0${i + 1}T0${j + 1}:00:00.000Z`, conversation: `c${i}` });
    m.facts.observe([{ subject: `Person ${i}`, predicate: 'likes', object: lines[1]!, fact: lines[0]!, reference_time: `2026-09-0${i + 1}T05:00:00.000Z`, cardinality: 'many' }]);
    await syncOnce(syncOf(m), target, markingCipher, { segmentRows: 1 });
  }
  return target;
}

/**
 * A target and two devices on disk, `worker` after a first sync with its full text on a worker that
 * failed on its first record (rolled back: still empty), and `here`, not synced yet.
 */
async function afterAFailedFirstSync(): Promise<{ target: MemoryTarget; worker: Memory; here: Memory }> {
  const target = await uploaded();
  const [worker, here] = [files.open(files.dir()), files.open(files.dir())];
  const crash = (index: number) => {
    if (index === 0) throw new Error('crash mid-apply');
  };
  await expect(syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1, afterRecord: crash })).rejects.toThrow('crash mid-apply');
  expect(syncOf(worker).emptyForFirstSync()).toBe(true);
  return { target, worker, here };
}

/** Each full-text table's shadow tables, row by row, and a check of each index against its rows. */
function fullText(m: Memory) {
  const db = databaseOf(m);
  for (const table of FULL_TEXT) db.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
  // The structure record (id 10) begins with a count of the index's writes, not its content.
  const data = (table: string) => db.prepare(`SELECT id, CASE id WHEN 10 THEN substr(block, 5) ELSE block END FROM ${table}_data ORDER BY id`).raw().all();
  const rows = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all();
  return FULL_TEXT.map((table) => [data(table), rows(`${table}_idx`), rows(`${table}_docsize`), rows(`${table}_config`)]);
}

const found = (m: Memory, query: string) => m.facts.search(query, { limit: 5 }).map((hit) => hit.fact.fact);
/** Messages whose full text holds `query` (three characters or more: the trigram index). */
const said = (m: Memory, query: string) =>
  databaseOf(m).prepare<[string], string>('SELECT e.content FROM episodes_fts f JOIN episodes e ON e.rowid = f.rowid WHERE episodes_fts MATCH ? ORDER BY e.rowid').pluck().all(`"${query}"`);

describe('a large first sync builds its full text on a worker', () => {
  it('the same full text, page for page, as built in the write’s own thread, and searchable', async () => {
    const target = await uploaded();
    const [worker, here] = [files.open(files.dir()), files.open(files.dir())];
    const adopted = vi.spyOn(BulkLoadHelper.prototype, 'adopt');
    try {
      await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
      // Its worker built the full text and the write took it (a false here: built again in this thread).
      expect(adopted.mock.results.map((r) => r.value)).toEqual([true]);
      await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
      expect(adopted).toHaveBeenCalledTimes(1);
    } finally {
      adopted.mockRestore();
    }
    expect(fullText(worker)).toEqual(fullText(here));
    expect(fullText(worker)[2]![0]!.length).toBeGreaterThan(0);
    expect(found(worker, 'cello')).toEqual(['I bought a cello in Kyoto last spring']);
    expect(said(worker, '高尾山')).toEqual(['土曜日に高尾山に登りました']);
    expect(said(worker, 'Lima')).toEqual(said(here, 'Lima'));
    // No scratch database left beside the memory once its worker is done.
    await worker.settled();
    expect(databaseOf(worker).prepare('PRAGMA database_list').all().map((d) => (d as { name: string }).name)).toEqual(['main']);
    // What is written next is indexed as any write is.
    worker.messages.append({ role: 'user', content: 'The cello needs new strings', time: '2026-09-09T01:00:00.000Z', conversation: 'c0' });
    expect(said(worker, 'strings')).toEqual(['The cello needs new strings']);
    fullText(worker);
  });

  it('a message stored and then forgotten inside the sync: each row indexed at its own rowid', async () => {
    // One device's message forgotten on another, which syncs after: the target still holds the
    // teller's segment with it (until the teller next syncs), and the forget in a later segment —
    // the first sync stores the message, then deletes it, and the messages' rowids have a gap.
    const [x, y] = [device(), device()];
    const [teller, forgetter] = syncOf(x).device().id < syncOf(y).device().id ? [x, y] : [y, x];
    const target = memoryTarget();
    const ids = SAID.flat().map((content, i) => teller.messages.append({ role: 'user', content, time: `2026-09-01T0${i + 1}:00:00.000Z`, conversation: 'c' }).episode.id);
    await syncOnce(syncOf(teller), target, markingCipher, { segmentRows: 1 });
    await syncOnce(syncOf(forgetter), target, markingCipher);
    forgetter.messages.forget(ids[0]!);
    await syncOnce(syncOf(forgetter), target, markingCipher);
    const [worker, here] = [files.open(files.dir()), files.open(files.dir())];
    await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
    await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    const rowids = databaseOf(worker).prepare('SELECT rowid FROM episodes ORDER BY rowid').pluck().all();
    expect(rowids[0]).toBe(2);
    expect(said(worker, 'cello')).toEqual([]);
    expect(said(worker, 'Lima')).toEqual(['My sister moved to Lima for work']);
    expect(fullText(worker)).toEqual(fullText(here));
  });

  it('after a first sync that failed part-way, the next one still builds its full text on the worker', async () => {
    // The failed write rolled back its dropped indexes and triggers: the retry's write must still
    // leave the worker's scratch database unlocked (it locks the memory's database alone).
    const { target, worker, here } = await afterAFailedFirstSync();
    await worker.settled(); // the failed sync's worker has removed its scratch database
    const adopted = vi.spyOn(BulkLoadHelper.prototype, 'adopt');
    try {
      await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
      expect(adopted.mock.results.map((r) => r.value)).toEqual([true]);
    } finally {
      adopted.mockRestore();
    }
    await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    expect(fullText(worker)).toEqual(fullText(here));
  });

  it('a retry at once, while the failed sync’s worker may still be removing its scratch database: the full text is whole', async () => {
    // Both workers use the same scratch file: the write must copy only what its own worker built.
    const { target, worker, here } = await afterAFailedFirstSync();
    await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
    await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    expect(fullText(worker)).toEqual(fullText(here));
    expect(found(worker, 'cello')).toEqual(['I bought a cello in Kyoto last spring']);
  });

  it('when the scratch database attached is not the one its worker built, the write builds the full text itself', async () => {
    // A retry at once: the failed sync's worker removes the shared scratch path after this write
    // attached it and before this worker opened it, so each holds a file of its own.
    const target = await uploaded();
    const [worker, here] = [files.open(files.dir()), files.open(files.dir())];
    const adopted = vi.spyOn(BulkLoadHelper.prototype, 'adopt');
    const scratchSwapped = vi.spyOn(BulkLoadHelper.prototype, 'sendStoredRows').mockImplementationOnce(function (this: BulkLoadHelper) {
      scratchSwapped.mockRestore();
      this.sendStoredRows();
      const db = (this as unknown as { db: Database.Database }).db;
      db.exec(`DETACH DATABASE bulk_scratch; ATTACH DATABASE '' AS bulk_scratch`);
    });
    try {
      await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
      expect(adopted.mock.results.map((r) => r.value)).toEqual([false]);
    } finally {
      adopted.mockRestore();
    }
    await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    expect(fullText(worker)).toEqual(fullText(here));
    expect(found(worker, 'cello')).toEqual(['I bought a cello in Kyoto last spring']);
  });

  it('when its worker delivers nothing, the write builds the full text itself', async () => {
    const target = await uploaded();
    const dir = files.dir();
    const [worker, here] = [files.open(dir), files.open(files.dir())];
    // The rows never reach the worker: it has nothing to give, and adopt() must say so.
    const sent = vi.spyOn(BulkLoadHelper.prototype, 'sendStoredRows').mockImplementation(() => {});
    try {
      await syncOnce(syncOf(worker), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
    }
    await syncOnce(syncOf(here), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    expect(fullText(worker)).toEqual(fullText(here));
    expect(found(worker, 'cello')).toEqual(['I bought a cello in Kyoto last spring']);
    await worker.settled();
    expect(readdirSync(dir).filter((f) => f.includes('scratch'))).toEqual([]);
  });
});
