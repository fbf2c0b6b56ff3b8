/**
 * An export file imported record by record (electron/memory/transfer/export-records.ts, import-into.ts):
 * the same memory and the same refusals, in the same words, as the document imported whole; the
 * reader keeps no record it has handed over; the bulk-load worker gets the rows in batches of at
 * most BATCH_ROWS, never more than BATCHES_IN_FLIGHT ahead of it; progress up to the whole file in
 * both passes; a cancel while the file is checked writes nothing; a file in another order is read whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemory, ReadCancelled, steppingClock, type ImportProgress, type Memory } from '../../electron/memory/index';
import { BulkLoadHelper } from '../../electron/memory/transfer/bulk-load-helper';
import { BATCH_ROWS, BATCHES_IN_FLIGHT } from '../../electron/memory/transfer/bulk-load-protocol';
import { ExportFile } from '../../electron/memory/transfer/export-records';
import { JsonRecords } from '../../electron/memory/transfer/json-records';
import type { MemoryExport } from '../../shared/memory-schema';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { exportContents } from '../fixtures/export-contents';

const dirs: string[] = [];
const open: Memory[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const m of open.splice(0)) {
    await m.settled();
    m.close();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-import-file-'));
  dirs.push(dir);
  return dir;
}

function fileMemory(): Memory {
  const memory = openMemory({ dataDir: tempDir(), clock: steppingClock('2026-11-01T00:00:00.000Z', 1000) });
  open.push(memory);
  return memory;
}

const cached = new Map<number, MemoryExport>();
/** A synthetic export of `n` observations, with closed and superseded versions and claims. */
function document(n = 1500): MemoryExport {
  if (!cached.has(n)) cached.set(n, syntheticExport(generateSyntheticMemory({ observations: n, seed: 7 }), n));
  return structuredClone(cached.get(n)!);
}

function writeDoc(doc: unknown, pretty = true): string {
  const path = join(tempDir(), 'export.json');
  writeFileSync(path, pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));
  return path;
}

const contents = exportContents;

/** The error the whole-document import throws, and the one the file import rejects with. */
async function bothRefusals(doc: unknown): Promise<[string, string]> {
  const whole = fileMemory();
  let wholeError = '(none)';
  try {
    whole.transfer.import(structuredClone(doc));
  } catch (error) {
    wholeError = (error as Error).message;
  }
  const streamed = fileMemory();
  const fileError = await streamed.transfer.importFile(writeDoc(doc), { label: 'export.json' }).then(
    () => '(none)',
    (error: unknown) => (error as Error).message,
  );
  expect(streamed.facts.list({ limit: 1 })).toEqual([]);
  return [wholeError, fileError];
}

describe('an export file imported record by record', () => {
  it('hands records over one at a time and keeps none of them', () => {
    const seen: number[] = [];
    const json = new JsonRecords({ members: new Set(['facts']), onElement: (member, _value, index, before) => seen.push(index + (before.version === 3 ? 0 : 1e6)) });
    json.push('{"version": 3, "facts": [{"id": "a"}, {"id": "b"},');
    json.push(' {"id": "c"}], "claims": [1]}');
    expect(json.end()).toEqual({ version: 3, facts: [], claims: [1] });
    expect(seen).toEqual([0, 1, 2]);
  });

  it('keeps a character whose bytes a read of the file cuts (text of 1 to 4 UTF-8 bytes a character)', async () => {
    const doc = document(20);
    const texts = ['é', 'あ', '𠮷', 'aé𠮷あ'].map((c) => c.repeat(120_000));
    texts.forEach((text, i) => (doc.episodes[i]!.content = text));
    const path = writeDoc(doc, false);
    const seen: string[] = [];
    new ExportFile(path, 'export.json').read({ episode: (e, i) => i < texts.length && seen.push(e.content) });
    expect(seen).toEqual(texts);
  });

  it('gives the memory the whole document gives, with and without the bulk-load worker', async () => {
    const doc = document();
    const reference = fileMemory();
    reference.transfer.import(document(), { helper: false });
    for (const helper of [false, true]) {
      const memory = fileMemory();
      const summary = await memory.transfer.importFile(writeDoc(doc, helper), { label: 'export.json', helper });
      expect(summary).toMatchObject({ facts: doc.facts.length, episodes: doc.episodes.length, entities: doc.entities.length, replaced: 0 });
      await memory.settled();
      expect(contents(memory)).toEqual(contents(reference));
      expect(memory.facts.search('London', { limit: 20 }).map((h) => h.fact.id)).toEqual(reference.facts.search('London', { limit: 20 }).map((h) => h.fact.id));
    }
  });

  it('feeds the bulk-load worker in batches of at most BATCH_ROWS rows, never more than BATCHES_IN_FLIGHT ahead', async () => {
    const helpers: BulkLoadHelper[] = [];
    const spawn = BulkLoadHelper.spawn.bind(BulkLoadHelper);
    vi.spyOn(BulkLoadHelper, 'spawn').mockImplementation((...args) => {
      const helper = spawn(...args);
      if (helper) helpers.push(helper);
      return helper;
    });
    const doc = document(6000);
    const memory = fileMemory();
    await memory.transfer.importFile(writeDoc(doc), { label: 'export.json', helper: true });
    expect(helpers).toHaveLength(1);
    const { sent, failure } = helpers[0]!;
    expect(failure).toBeNull();
    // Episodes and facts each fill whole batches but the last; no batch is larger.
    const rows = doc.facts.length + doc.episodes.length;
    expect(sent.batches).toBeGreaterThanOrEqual(Math.ceil(rows / BATCH_ROWS));
    expect(sent.largest).toBe(BATCH_ROWS);
    expect(sent.mostInFlight).toBeLessThanOrEqual(BATCHES_IN_FLIGHT);
    await memory.settled();
    expect(memory.facts.list({ limit: 1, history: true }).length).toBe(1);
  });

  it('tells its progress in both passes, up to the whole file', async () => {
    const path = writeDoc(document(3000));
    const seen: ImportProgress[] = [];
    await fileMemory().transfer.importFile(path, { label: 'export.json', onProgress: (p) => seen.push(p) });
    const checking = seen.filter((p) => p.phase === 'checking');
    const writing = seen.filter((p) => p.phase === 'writing');
    expect(checking.length).toBeGreaterThan(2);
    expect(checking.at(-1)!.bytes).toBe(checking.at(-1)!.totalBytes);
    expect(writing.at(-1)!.bytes).toBe(writing.at(-1)!.totalBytes);
    expect(seen.indexOf(writing[0]!)).toBeGreaterThan(seen.indexOf(checking.at(-1)!));
    expect(checking.map((p) => p.records)).toEqual([...checking.map((p) => p.records)].sort((a, b) => a - b));
  });

  it('stopped while the file is checked, it writes nothing', async () => {
    const memory = fileMemory();
    const stop = new AbortController();
    const read = memory.transfer.importFile(writeDoc(document(3000)), { label: 'export.json', signal: stop.signal, onProgress: () => stop.abort() });
    await expect(read).rejects.toBeInstanceOf(ReadCancelled);
    expect(memory.facts.list({ limit: 1, history: true })).toEqual([]);
  });

  it('refuses what the whole document refuses, in the same words, and writes nothing', async () => {
    const base = () => document(200);
    const cases: [string, (d: MemoryExport) => unknown][] = [
      ['a dangling episode', (d) => ((d.facts[5]!.episode_ids = ['epi_missing']), d)],
      ['a record of the wrong shape', (d) => (Object.assign(d.facts[3]!, { valid_at: 'yesterday' }), d)],
      ['a repeated id', (d) => (d.episodes.push(d.episodes[0]!), d)],
      ['an unknown entity', (d) => ((d.facts[0]!.subject_id = 'ent_missing'), d)],
      ['an unknown fact replaced', (d) => ((d.facts[2]!.supersedes = 'fct_missing'), d)],
      ['a claim about another object', (d) => ((d.claims[0]!.object = 'something else'), d)],
      ['a header of the wrong shape', (d) => ({ ...d, exported_at: 'now' })],
      ['a missing section', (d) => ({ ...d, claims: undefined })],
      ['an unknown member', (d) => ({ ...d, extra: 1 })],
    ];
    for (const [what, spoil] of cases) {
      const [whole, file] = await bothRefusals(spoil(base()));
      expect(whole, what).not.toBe('(none)');
      expect(file, what).toBe(whole);
    }
  });

  it('refuses ids already here unless replacing, as the whole document does', async () => {
    const memory = fileMemory();
    const path = writeDoc(document(200));
    await memory.transfer.importFile(path, { label: 'export.json' });
    await expect(memory.transfer.importFile(path, { label: 'export.json' })).rejects.toThrow(/already exist.*--replace/);
    const replaced = await memory.transfer.importFile(path, { label: 'export.json', replace: true });
    expect(replaced.replaced).toBeGreaterThan(0);
  });

  it('reads a file in another order (version last, claims first) whole, to the same memory', async () => {
    const doc = document(200);
    const { format, version, exported_at, claims, ...sections } = doc;
    const reordered = { claims, ...sections, exported_at, format, version };
    const reference = fileMemory();
    reference.transfer.import(document(200));
    const memory = fileMemory();
    await memory.transfer.importFile(writeDoc(reordered), { label: 'export.json' });
    expect(contents(memory)).toEqual(contents(reference));
  });

  it('reads a version-1 file record by record, as the whole document is upgraded', async () => {
    const doc = document(200);
    const v1 = {
      format: doc.format,
      version: 1,
      exported_at: doc.exported_at,
      conversations: doc.conversations,
      episodes: doc.episodes.map(({ utc_offset: _o, time_zone: _z, ...e }) => e),
      entities: doc.entities,
      facts: doc.facts.map(({ valid_at_precision: _v, invalid_at_precision: _i, ...f }) => f),
    };
    const reference = fileMemory();
    reference.transfer.import(structuredClone(v1));
    const memory = fileMemory();
    const seen: number[] = [];
    await new ExportFile(writeDoc(v1), 'v1.json').scan({ fact: (f, i) => seen.push(f.valid_at_precision === 'instant' ? i : -1) });
    expect(seen).toEqual(v1.facts.map((_, i) => i));
    await memory.transfer.importFile(writeDoc(v1), { label: 'v1.json' });
    expect(contents(memory)).toEqual(contents(reference));
  });
});
