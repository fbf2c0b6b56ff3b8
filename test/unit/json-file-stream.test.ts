/**
 * The stream reader of export files (electron/memory/transfer/json-file-stream.ts): the same value
 * as JSON.parse, whatever the chunks; progress up to the whole size; a byte-order mark skipped; a
 * fault named by line and column in one sentence; a read that can be stopped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotJsonError, ReadCancelled, streamJsonFile } from '../../electron/memory/index';
import { JsonFault, JsonRecords } from '../../electron/memory/transfer/json-records';
import { describeJsonError } from '../../shared/json-position';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-json-stream-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('streamJsonFile', () => {
  it('gives the value JSON.parse gives, and tells progress up to the whole file', async () => {
    const doc = { format: 'tempora.memory', facts: Array.from({ length: 40_000 }, (_, i) => ({ id: `f${i}`, fact: `Fact ${i} — 日本語` })) };
    const text = JSON.stringify(doc, null, 2);
    const path = write('big.json', text);
    const seen: number[] = [];
    expect(await streamJsonFile(path, { label: 'big.json', onProgress: ({ bytes, totalBytes }) => seen.push(bytes / totalBytes) })).toEqual(doc);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(1);
  });

  it('refuses bytes that are not UTF-8, naming the byte, also past the first chunk of 256 KiB', async () => {
    const head = Buffer.from(`{"facts": ["${'x'.repeat(300_000)}", "`);
    const path = write('sjis.json', Buffer.concat([head, Buffer.from([0x93, 0x8c, 0x8b, 0x9e]), Buffer.from('"]}')]));
    await expect(streamJsonFile(path, { label: 'sjis.json' })).rejects.toThrow(`sjis.json is not JSON: not UTF-8 text at byte ${head.length.toLocaleString('en-US')}: save the file as UTF-8`);
  });

  it('names a bad byte after a character cut by the chunk boundary at its place, and a character cut short by the end at its start, as cut short', async () => {
    // 東 (E6 9D B1) split over the first 256 KiB boundary, then "x", then a byte that starts nothing.
    const head = Buffer.from(`{"facts": ["${'x'.repeat(256 * 1024 - 14)}`);
    expect(head.length).toBe(256 * 1024 - 2);
    const split = write('split.json', Buffer.concat([head, Buffer.from('東x'), Buffer.from([0xff]), Buffer.from('"]}')]));
    await expect(streamJsonFile(split, { label: 'split.json' })).rejects.toThrow(`not UTF-8 text at byte ${(head.length + 4).toLocaleString('en-US')}:`);
    const cut = Buffer.from('{"facts": ["東');
    const short = write('short.json', cut.subarray(0, cut.length - 1));
    await expect(streamJsonFile(short, { label: 'short.json' })).rejects.toThrow(`short.json is not JSON: the file ends in the middle of a character at byte ${(cut.length - 3).toLocaleString('en-US')} (was it cut short?)`);
  });

  it('skips a byte-order mark', async () => {
    const path = write('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"version": 3}')]));
    expect(await streamJsonFile(path, { label: 'bom.json' })).toEqual({ version: 3 });
  });

  it('names the line and column of a fault, in one sentence without the quoted text', async () => {
    const path = write('broken.json', '{\n  "format": "tempora.memory",\n  "facts": [,]\n}\n');
    const error = await streamJsonFile(path, { label: 'broken.json' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotJsonError);
    expect((error as Error).message).toBe("broken.json is not JSON: line 3, column 13: unexpected ',' (a value missing before it, or a comma too many?)");
    const cut = write('cut.json', '{"facts": [1, 2');
    expect(((await streamJsonFile(cut, { label: 'cut.json' }).catch((e: unknown) => e)) as Error).message).toMatch(/^cut\.json is not JSON: line 1, column 16: /);
  });

  it('stops when told', async () => {
    const path = write('x.json', JSON.stringify({ a: 'x'.repeat(5 << 20) }));
    const stop = new AbortController();
    const read = streamJsonFile(path, { label: 'x.json', signal: stop.signal, onProgress: () => stop.abort() });
    await expect(read).rejects.toBeInstanceOf(ReadCancelled);
  });

  it('reads any text in any pieces as JSON.parse does, and places a fault where the whole text has it', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const doc = { format: 'tempora.memory', version: 3, n: -1.5e3, ok: true, none: null, s: 'a "quoted" \\ 日本', facts: [{ id: 'f1', tags: ['x', { y: [1, 2] }] }, [], {}, 'z', 0], empty: [], nested: { a: [1, { b: '}' }] } };
    const whole = JSON.stringify(doc, null, 2);
    const read = (text: string): unknown => {
      const records = new JsonRecords();
      for (let at = 0; at < text.length; ) {
        const size = 1 + Math.floor(random() * 9);
        records.push(text.slice(at, at + size));
        at += size;
      }
      return records.end();
    };
    for (const text of [whole, JSON.stringify(doc), '[1, 2]', '"x"', ' 42 ']) expect(read(text)).toEqual(JSON.parse(text));
    // Each single-character change that JSON.parse refuses is refused here at the same line and column.
    let refused = 0;
    for (let i = 0; i < 1000; i++) {
      const at = Math.floor(random() * whole.length);
      const text = whole.slice(0, at) + '{}[],:"x1 '[Math.floor(random() * 10)] + whole.slice(at + 1);
      let expected: string;
      try {
        JSON.parse(text);
        continue;
      } catch (error) {
        expected = /^line \d+, column \d+/.exec(describeJsonError(text, error))![0];
      }
      refused++;
      const fault = (() => {
        try {
          read(text);
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(fault, text).toBeInstanceOf(JsonFault);
      expect((fault as JsonFault).message, `changed at ${at}`).toMatch(new RegExp(`^${expected}:`));
    }
    expect(refused).toBeGreaterThan(300);
  });
});
