/**
 * A bulk import leaves each full-text index it built as one segment above level 0
 * (text-search/fts-index.ts indexAbove): the level-0 crisis merge that row-by-row writes reach after
 * ROW_BY_ROW_CRISISMERGE writes merges their small segments only, and never rewrites the imported
 * index inside a one-message write (898 ms at 1M, docs/benchmarks.md). Through the real import, with
 * and without the bulk-load helper, on files.
 */
import { describe, expect, it } from 'vitest';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { ROW_BY_ROW_CRISISMERGE } from '../../electron/memory/text-search/fts-merge';
import { fileMemories } from '../fixtures/file-memories';
import type { Memory } from '../../electron/memory/index';

const files = fileMemories('import-fts-level');

/** Another memory's export: facts and the messages they were said in. */
function exportOf(facts: number) {
  const other = openMemory({ dataDir: ':memory:' });
  try {
    for (let i = 0; i < facts; i += 50) {
      other.facts.observe(
        Array.from({ length: 50 }, (_, k) => ({ subject: `Person ${(i + k) % 40}`, predicate: 'visited', object: `Town ${i + k}`, fact: `Person ${(i + k) % 40} visited Town ${i + k}, 東京の近く.`, reference_time: `2025-0${1 + ((i + k) % 9)}-01T00:00:00Z`, cardinality: 'many' })),
      );
    }
    return other.transfer.export();
  } finally {
    other.close();
  }
}

const INDEXES = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk'] as const;

/**
 * The level of each segment of an FTS5 index, from its structure record (%_data id 10): a 4-byte
 * cookie, the version-2 marker ff 00 00 01 where tables keep tombstones (contentless_delete), then
 * varints — levels, segments, write counter, and per level its merge count, its segments, and per
 * segment its id and first and last page (version 2: two origins and three counts more).
 */
function segmentLevels(m: Memory, table: string): { segid: number; level: number }[] {
  const block = (databaseOf(m).prepare(`SELECT block FROM ${table}_data WHERE id = 10`).pluck().get() as Buffer) ?? Buffer.alloc(0);
  let at = 4;
  const v2 = block.subarray(4, 8).equals(Buffer.from([0xff, 0, 0, 1]));
  if (v2) at += 4;
  const varint = (): number => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const byte = block[at++]!;
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if (byte < 0x80) return value;
    }
    return value;
  };
  const levels = varint();
  varint(); // segments
  varint(); // write counter
  const out: { segid: number; level: number }[] = [];
  for (let level = 0; level < levels; level++) {
    varint(); // merge
    const n = varint();
    for (let k = 0; k < n; k++) {
      const segid = varint();
      for (let field = 0; field < (v2 ? 7 : 2); field++) varint();
      out.push({ segid, level });
    }
  }
  return out;
}

describe('an imported full-text index', () => {
  for (const helper of [false, true]) {
    it(`is one segment that the writes after the import leave alone (${helper ? 'with' : 'without'} the bulk-load helper)`, () => {
      const memory = files.open(files.dir());
      memory.transfer.import(exportOf(300), { helper });
      const imported = Object.fromEntries(INDEXES.map((t) => [t, segmentLevels(memory, t)]));
      for (const t of INDEXES) {
        expect(imported[t], t).toHaveLength(1);
        expect(imported[t]![0]!.level, t).toBeGreaterThan(0);
      }
      // Enough one-fact writes for a crisis merge of level 0 (no idle turn between them): it merges
      // their segments only, and the imported one is still the segment the import wrote.
      for (let i = 0; i < ROW_BY_ROW_CRISISMERGE + 2; i++) {
        memory.facts.observe([{ subject: `Walker ${i}`, predicate: 'walked', object: `Path ${i}`, fact: `Walker ${i} walked path ${i} 大阪で.`, reference_time: '2026-05-01T00:00:00Z', cardinality: 'many' }]);
      }
      for (const t of ['facts_fts', 'facts_cjk'] as const) {
        const now = segmentLevels(memory, t);
        expect(now.length, t).toBeLessThan(ROW_BY_ROW_CRISISMERGE);
        expect(now, t).toContainEqual(imported[t]![0]);
      }
      expect(memory.facts.search('Who visited Town 123?', { limit: 3 })[0]?.fact.object).toBe('Town 123');
      expect(memory.facts.search('Who walked path 40?', { limit: 3 })[0]?.fact.object).toBe('Path 40');
    });
  }
});
