/**
 * A memory of years is an export longer than one JavaScript string can hold (~512 MB): `tempora
 * export` writes it in pieces that join to exactly JSON.stringify(doc, null, 2), and `tempora import`
 * parses a large file as a stream of tokens into the same value (faults still named, in words).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFileOfAnySize } from '../../electron/cli/files';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { exportJsonChunks } from '../../shared/export-json';

const dir = mkdtempSync(join(tmpdir(), 'tempora-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sampleExport() {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00Z', 1000) });
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

  it('reads a large file as a stream into the same value, and names a broken one', async () => {
    const doc = sampleExport();
    const file = join(dir, 'memory.json');
    writeFileSync(file, [...exportJsonChunks(doc, 100)].join(''));
    expect(await readJsonFileOfAnySize('memory.json', dir, 0)).toEqual(JSON.parse(JSON.stringify(doc)));
    writeFileSync(join(dir, 'broken.json'), '{"format": "tempora.memory", "facts": [1, 2');
    await expect(readJsonFileOfAnySize('broken.json', dir, 0)).rejects.toThrow(/^broken\.json: not JSON \(/);
    writeFileSync(join(dir, 'bad.json'), '{"format": tempora}');
    await expect(readJsonFileOfAnySize('bad.json', dir, 0)).rejects.toThrow(/^bad\.json: not JSON \(line 1, column 13: Unexpected token 'e'\)$/);
    await expect(readJsonFileOfAnySize('missing.json', dir, 0)).rejects.toThrow('cannot read missing.json: no such file or directory');
  });
});
