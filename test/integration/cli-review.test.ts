/**
 * `tempora review`: the waiting messages with the facts they propose (times in the user's zone),
 * approve and reject by id or --all, the setting on and off, and usage errors in words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareIngest } from '../../electron/assistant/ingestion/ingest-message';
import { runAsync } from '../../electron/cli/run';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { scriptedModel } from '../fixtures/scripted-model';

const root = mkdtempSync(join(tmpdir(), 'tempora-cli-review-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function tempora(dir: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAsync([...argv, '--data', join(dir, 'data')], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: dir,
    env: { TEMPORA_TZ: 'Asia/Tokyo', LANG: 'en_GB.UTF-8', LANCEDB_LOG: 'error' },
    clock: steppingClock('2026-11-01T00:00:00.000Z'),
  });
  return { code, out, err };
}

/** A data directory with review on and two learned messages waiting. */
async function waiting(): Promise<{ dir: string; ids: string[] }> {
  const dir = mkdtempSync(join(root, 'w-'));
  const m = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  m.review.setBeforeRemembering(true);
  const ids: string[] = [];
  for (const [content, object, time] of [
    ['My manager is Sato.', 'Sato', '2026-09-01T09:00:00+09:00'],
    ['I live in Kyoto.', 'Kyoto', '2026-09-02T09:00:00+09:00'],
  ] as const) {
    const predicate = object === 'Sato' ? 'manager' : 'lives_in';
    const model = scriptedModel({ extract: { [content]: [{ subject: 'me', predicate, object, object_type: 'person', fact: content, cardinality: 'one' }] } });
    const { episode, job } = m.messages.append({ role: 'user', content, time, timeZone: 'Asia/Tokyo', conversation: 'c1' });
    const prepared = await prepareIngest(m, model, episode);
    m.messages.applyIngestion(job!.id, prepared.learning, prepared.usage);
    ids.push(episode.id);
  }
  m.close();
  return { dir, ids };
}

describe('tempora review', () => {
  it('lists what waits with its facts in the user zone, approves one, rejects the other', async () => {
    const { dir, ids } = await waiting();
    const list = await tempora(dir, ['review']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('Review before remembering is on; 2 messages waiting:');
    expect(list.out).toContain(`${ids[0]}  `);
    expect(list.out).toMatch(/0\. me · manager · Sato {2}since 1 Sept 2026$/m);
    const approved = await tempora(dir, ['review', 'approve', ids[0]!]);
    expect(approved.out).toBe('Approved 1 message: 1 fact version written.\n1 message waiting.\n');
    const rejected = await tempora(dir, ['review', 'reject', '--all']);
    expect(rejected.out).toContain('Rejected 1 message: nothing of it is remembered (the messages are kept).');
    const facts = await tempora(dir, ['facts', '--json']);
    expect((JSON.parse(facts.out) as { object: string }[]).map((f) => f.object)).toEqual(['Sato']);
    const json = JSON.parse((await tempora(dir, ['review', '--json'])).out) as { reviewBeforeRemembering: boolean; waiting: number; reviews: unknown[] };
    expect(json).toEqual({ reviewBeforeRemembering: true, waiting: 0, reviews: [] });
    expect((await tempora(dir, ['review', 'off'])).out).toBe('Review before remembering is off.\n0 messages waiting.\n');
  });

  it('refuses what it cannot do, in words, and changes nothing', async () => {
    const { dir, ids } = await waiting();
    const none = await tempora(dir, ['review', 'approve']);
    expect(none.code).not.toBe(0);
    expect(none.err).toContain('review approve: give a MESSAGE_ID (see `tempora review`) or --all');
    expect((await tempora(dir, ['review', 'approve', ids[0]!, '--all'])).err).toContain('give a MESSAGE_ID or --all, not both');
    expect((await tempora(dir, ['review', 'maybe'])).err).toContain('review: unknown action "maybe"');
    const missing = await tempora(dir, ['review', 'reject', 'epi_nowhere']);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('message epi_nowhere has nothing waiting for review');
    expect((await tempora(dir, ['review'])).out).toContain('2 messages waiting');
  });
});
