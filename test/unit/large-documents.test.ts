/**
 * A memory of years is an export longer than one JavaScript string can hold (~512 MB): `tempora
 * export` writes it in pieces that join to exactly JSON.stringify(doc, null, 2) (`tempora import`
 * reads such a file record by record: import-file-stream.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { exportJsonChunks } from '../../shared/export-json';

function sampleExport() {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  m.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T09:00:00+09:00' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B — "now".\nReally.', reference_time: '2026-09-15T09:00:00+09:00' },
    { subject: '佐藤', predicate: 'lives_in', object: '東京', fact: '佐藤さんは東京に住んでいる。', reference_time: '2026-09-02T09:00:00Z' },
  ]);
  const doc = m.transfer.export();
  m.close();
  return doc;
}

describe('documents larger than a string', () => {
  it('writes an export in pieces that join to JSON.stringify(doc, null, 2), whatever the piece size', () => {
    const doc = sampleExport();
    const whole = JSON.stringify(doc, null, 2);
    for (const size of [1, 64, 4096, 1 << 20]) {
      const pieces = [...exportJsonChunks(doc, size)];
      expect(pieces.join('')).toBe(whole);
      if (size === 1) expect(pieces.length).toBeGreaterThan(doc.facts.length);
    }
    expect([...exportJsonChunks({ ...doc, conversations: [], claims: [] })].join('')).toBe(JSON.stringify({ ...doc, conversations: [], claims: [] }, null, 2));
  });
});
