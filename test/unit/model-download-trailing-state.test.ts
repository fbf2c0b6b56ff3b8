/**
 * A finished download whose file runs on past the announced size with the downloader's own state
 * record (ipull's JSON, written after the bytes and cut off when done; a write still in flight then
 * lands after the cut — seen once in CI as 69 bytes past 17,327,872): the record is cut off, so the
 * size and checksum checks judge the model's bytes. Bytes past the size that are not such a record
 * stay, for the size check to refuse.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropTrailingState } from '../../electron/llm/model-download';

let dir = '';
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tempora-trailing-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const model = Buffer.from('GGUF' + 'x'.repeat(1020));
const state = Buffer.from(JSON.stringify({ downloadId: 'a1', chunks: [1, 1, 1], chunkSize: 5242880 }));

function file(...parts: Buffer[]): string {
  const path = join(dir, 'model.gguf.partial');
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

describe('dropTrailingState', () => {
  it('cuts a JSON state record past the announced size', async () => {
    const path = file(model, state);
    await dropTrailingState(path, model.length);
    expect(readFileSync(path).equals(model)).toBe(true);
  });

  it('leaves bytes that are not a state record, a file of the right size, and an unknown size alone', async () => {
    const garbage = file(model, Buffer.from('not json at all'));
    await dropTrailingState(garbage, model.length);
    expect(readFileSync(garbage).length).toBe(model.length + 15);
    const list = file(model, Buffer.from('[1,2,3]'));
    await dropTrailingState(list, model.length);
    expect(readFileSync(list).length).toBe(model.length + 7);
    const exact = file(model);
    await dropTrailingState(exact, model.length);
    expect(readFileSync(exact).equals(model)).toBe(true);
    const unknown = file(model, state);
    await dropTrailingState(unknown, 0);
    expect(readFileSync(unknown).length).toBe(model.length + state.length);
  });

  it('leaves a tail longer than any state record', async () => {
    const long = Buffer.from(JSON.stringify({ pad: 'y'.repeat(70 * 1024) }));
    const path = file(model, long);
    await dropTrailingState(path, model.length);
    expect(readFileSync(path).length).toBe(model.length + long.length);
  });
});
