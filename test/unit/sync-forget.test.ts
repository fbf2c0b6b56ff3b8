/**
 * Forget means forgotten everywhere (issue 31 item 4): a forget travels as a tombstone of ids and
 * hashes; after a sync round the forgotten sentence and message are in no device's tables, full-text
 * index or export, and in none of the target's segments — the device that wrote them rewrote its own
 * segments without them, whichever device forgot.
 */
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { syncOnce } from '../../electron/sync/sync-runner';
import { markingCipher, memoryTarget, syncOf, type MemoryTarget } from '../fixtures/sync-devices';
import { isoFromMs } from '../../shared/time';

const SECRET = 'Plumtree';
let open: Memory[] = [];

afterEach(() => {
  for (const m of open) m.close();
  open = [];
});

function devices(n: number): Memory[] {
  open = Array.from({ length: n }, (_, i) => openMemory({ dataDir: ':memory:', clock: steppingClock(isoFromMs(Date.UTC(2027, 0, i + 1))) }));
  return open;
}

async function round(memories: Memory[], target: MemoryTarget): Promise<void> {
  for (let pass = 0; pass < 2; pass++) for (const m of memories) await syncOnce(syncOf(m), target, markingCipher);
}

/** Every row of every table (full-text shadow tables included), as text. */
function storeText(m: Memory): string {
  const db = databaseOf(m);
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'").all();
  return tables
    .map(({ name }) =>
      db
        .prepare(`SELECT * FROM "${name}"`)
        .all()
        .map((row) => Object.values(row as Record<string, unknown>).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v))).join('|'))
        .join('\n'),
    )
    .join('\n');
}

/** Every segment on the target, opened and unpacked. */
function targetText(target: MemoryTarget): string {
  return [...target.files.entries()].map(([name, bytes]) => gunzipSync(markingCipher.open(name, bytes) as Uint8Array).toString('utf8')).join('\n');
}

function expectGoneEverywhere(memories: Memory[], target: MemoryTarget): void {
  for (const m of memories) {
    expect(storeText(m)).not.toContain(SECRET);
    expect(JSON.stringify(m.transfer.export())).not.toContain(SECRET);
    expect(m.facts.search(SECRET).length).toBe(0);
  }
  expect(targetText(target)).not.toContain(SECRET);
}

function tell(m: Memory) {
  const told = m.facts.observe([
    { subject: 'Sato', predicate: 'lives_in', object: SECRET, fact: `Sato lives in ${SECRET}`, reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'one' },
    { subject: 'Sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea', reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'many' },
  ]);
  const message = m.messages.append({ role: 'user', content: `I moved to ${SECRET} last week`, time: '2026-09-02T05:00:00.000Z', conversation: 'c1' }).episode;
  return { told, message };
}

describe('sync: forget means forgotten everywhere', () => {
  it('a fact and a message forgotten by the device that wrote them leave every device and the target', async () => {
    const [a, b, c] = devices(3) as [Memory, Memory, Memory];
    const target = memoryTarget();
    const { message } = tell(a);
    await round([a, b, c], target);
    expect(targetText(target)).toContain(SECRET);
    for (const m of [b, c]) expect(storeText(m)).toContain(SECRET);

    const fact = a.facts.list({}).find((f) => f.fact.includes(SECRET))!;
    a.facts.forget(fact.id, { withSources: true });
    a.messages.forget(message.id);
    await round([a, b, c], target);

    expectGoneEverywhere([a, b, c], target);
    // What was not forgotten is still everywhere.
    for (const m of [a, b, c]) expect(m.facts.list({}).map((f) => f.fact)).toEqual(['Sato likes tea']);
  });

  it('forgotten on another device: the writer rewrites its own segments when the tombstone reaches it', async () => {
    const [a, b] = devices(2) as [Memory, Memory];
    const target = memoryTarget();
    const { message } = tell(a);
    await round([a, b], target);

    const fact = b.facts.list({}).find((f) => f.fact.includes(SECRET))!;
    b.facts.forget(fact.id, { withSources: true });
    b.messages.forget(message.id);
    await round([a, b], target);

    expectGoneEverywhere([a, b], target);
    for (const m of [a, b]) expect(m.facts.list({}).map((f) => f.fact)).toEqual(['Sato likes tea']);
  });

  it('a fact forgotten before it was ever sent never reaches the target', async () => {
    const [a, b] = devices(2) as [Memory, Memory];
    const target = memoryTarget();
    const { message } = tell(a);
    a.facts.forget(a.facts.list({}).find((f) => f.fact.includes(SECRET))!.id, { withSources: true });
    a.messages.forget(message.id);
    await round([a, b], target);
    expectGoneEverywhere([a, b], target);
    expect(b.facts.list({}).map((f) => f.fact)).toEqual(['Sato likes tea']);
  });
});
