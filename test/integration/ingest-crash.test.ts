/**
 * Kill `tempora ingest` (a real child process, SIGKILL) in the middle of its work, start it again:
 * no message or job is lost, no job's result is applied twice, and LanceDB agrees with SQLite.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/index';
import { VECTOR_TABLES } from '../../electron/engine/vector-service';
import { liveVectorItems } from '../../electron/memory/vectors/vector-source';
import { VectorIndex } from '../../electron/memory/vectors/vector-index';
import { storeOf } from '../../electron/memory/memory';
import { conversationLines } from '../fixtures/conversation';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

const MESSAGES = 24;
let dir: string;
let data: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-crash-'));
  data = join(dir, 'data');
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  writeFileSync(join(dir, 'conversation.jsonl'), conversationLines(MESSAGES));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startIngest() {
  return spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'ingest', join(dir, 'conversation.jsonl'), '--model', join(dir, 'tiny.gguf'), '--embedding-model', join(dir, 'tiny.gguf'), '--data', data, '--json'], {
    cwd: process.cwd(),
    env: { ...process.env, TEMPORA_THREADS: '1', LANCEDB_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function query<T>(sql: string): T {
  const db = new Database(join(data, 'memory.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}

describe('ingest survives SIGKILL', () => {
  it('loses nothing, applies nothing twice, and reconciles vectors on the next start', async () => {
    const child = startIngest();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until some jobs are done, then kill without warning.
    const deadline = Date.now() + 90_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      let done = 0;
      try {
        done = query<{ n: number }>("SELECT COUNT(*) AS n FROM ingestion_jobs WHERE status = 'done'").n;
      } catch {
        // the database may not exist yet
      }
      if (done >= 3) break;
      if (Date.now() > deadline) throw new Error(`ingest made no progress: ${stderr}`);
    }
    child.kill('SIGKILL');
    await exited;

    const afterKill = query<{ episodes: number; jobs: number; done: number }>(
      "SELECT (SELECT COUNT(*) FROM episodes) AS episodes, (SELECT COUNT(*) FROM ingestion_jobs) AS jobs, (SELECT COUNT(*) FROM ingestion_jobs WHERE status = 'done') AS done",
    );
    expect(afterKill.episodes).toBe(MESSAGES);
    expect(afterKill.jobs).toBe(MESSAGES);
    expect(afterKill.done).toBeLessThan(MESSAGES);
    // A job's result and its completion land together: no claim cites a message whose job is not done.
    const orphanClaims = query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM claims c, json_each(c.episode_ids) j JOIN ingestion_jobs k ON k.episode_id = j.value WHERE k.status <> 'done'",
    ).n;
    expect(orphanClaims).toBe(0);
    const claimsBefore = query<{ list: string }>(
      "SELECT json_group_object(episode_id, n) AS list FROM (SELECT k.episode_id, (SELECT COUNT(*) FROM fact_episodes fe WHERE fe.episode_id = k.episode_id) AS n FROM ingestion_jobs k WHERE k.status = 'done')",
    ).list;

    // Facts written while no process holds the vector index (the `tempora observe` of a session
    // without the embedding model): the next start embeds them too.
    const observed = [
      { subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
      { subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-09-02T10:00:00+09:00', cardinality: 'many' },
    ];
    writeFileSync(join(dir, 'observed.jsonl'), observed.map((o) => JSON.stringify(o)).join('\n') + '\n');
    expect(spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'observe', join(dir, 'observed.jsonl'), '--data', data], { cwd: process.cwd(), encoding: 'utf8' }).status).toBe(0);

    const again = startIngest();
    let out = '';
    again.stdout.on('data', (d) => (out += String(d)));
    const code = await new Promise<number | null>((resolve) => again.on('exit', (c) => resolve(c)));
    expect(code, out).toBe(0);

    const final = query<{ episodes: number; jobs: number; done: number; parked: number }>(
      "SELECT (SELECT COUNT(*) FROM episodes) AS episodes, (SELECT COUNT(*) FROM ingestion_jobs) AS jobs, (SELECT COUNT(*) FROM ingestion_jobs WHERE status = 'done') AS done, (SELECT COUNT(*) FROM ingestion_jobs WHERE status = 'parked') AS parked",
    );
    expect(final).toMatchObject({ episodes: MESSAGES + observed.length, jobs: MESSAGES }); // each observation is said by a message of its own
    expect(final.done + final.parked).toBe(MESSAGES);
    // Jobs done before the kill were not run again: the facts citing their messages are the same.
    const before = JSON.parse(claimsBefore) as Record<string, number>;
    const after = JSON.parse(
      query<{ list: string }>(`SELECT json_group_object(value, (SELECT COUNT(*) FROM fact_episodes fe WHERE fe.episode_id = value)) AS list FROM json_each('${JSON.stringify(Object.keys(before))}')`).list,
    ) as Record<string, number>;
    for (const [episode, n] of Object.entries(before)) expect(after[episode], episode).toBeGreaterThanOrEqual(n);
    const rerun = query<{ n: number }>(`SELECT COUNT(*) AS n FROM ingestion_jobs WHERE episode_id IN (SELECT value FROM json_each('${JSON.stringify(Object.keys(before))}')) AND attempts > 1`).n;
    expect(rerun).toBe(0);

    // LanceDB holds exactly the live facts of SQLite.
    const engine = await TemporaEngine.open({ dataDir: data, autoLoadModels: false, startWorker: false });
    try {
      const live = [...liveVectorItems(storeOf(engine.memory))];
      expect(live.map((i) => i.text)).toEqual(expect.arrayContaining(observed.map((o) => o.fact)));
      for (const { table, kinds } of VECTOR_TABLES) {
        const expected = live.filter((i) => kinds.includes(i.kind)).map((i) => i.id);
        const index = await VectorIndex.open(join(data, 'vectors'), 64, { table, kinds });
        try {
          expect([...(await index.ids())].sort(), table).toEqual(expected.sort());
        } finally {
          await index.close();
        }
      }
    } finally {
      await engine.close();
    }
  }, 240_000);
});
