/**
 * `tempora observe FILE` names the conversation it makes after the file's name, not the path it
 * was given (a title is shown on the Chat screen, where "/home/me/notes/2026/seed.jsonl" is noise).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { steppingClock } from '../../electron/memory/index';
import type { MemoryExport } from '../../shared/memory-schema';
import { runTempora } from './cli-helpers';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-observe-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (object: string, day: string) =>
  JSON.stringify({ subject: 'me', predicate: 'lives_in', object, fact: `I live in ${object}.`, reference_time: `2026-${day}T10:00:00+09:00`, cardinality: 'one' });

it('titles the conversation "Observations from NAME" for a relative and an absolute path', () => {
  const clock = steppingClock('2026-12-01T00:00:00.000Z');
  mkdirSync(join(dir, 'notes', '2026'), { recursive: true });
  writeFileSync(join(dir, 'notes', '2026', 'moves.jsonl'), line('Osaka', '03-01') + '\n');
  writeFileSync(join(dir, 'later.jsonl'), line('Tokyo', '06-01') + '\n');

  for (const file of [join('notes', '2026', 'moves.jsonl'), join(dir, 'later.jsonl')]) {
    const run = runTempora(dir, clock, ['observe', file]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
  }

  const exported = runTempora(dir, clock, ['export']);
  expect(exported.code).toBe(0);
  const titles = (JSON.parse(exported.out) as MemoryExport).conversations.map((c) => c.title).sort();
  expect(titles).toEqual(['Observations from later.jsonl', 'Observations from moves.jsonl']);
});
