/**
 * Start-up sync of the vector index from what SQLite recorded as changed (memory/vectors/
 * vector-table-sync.ts): a clean start reads nothing whole, writes made while the index was closed
 * (a session without the embedding model, the CLI) are all there after the next start, a failure
 * between the SQLite write and the LanceDB write is redone, and a new model, a bulk load or a
 * vector directory that was not synced with this database reads everything again.
 * Real SQLite and LanceDB in a temporary directory; a deterministic stand-in embedder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VectorService, VECTOR_TABLES } from '../../electron/engine/vector-service';
import type { Embedder } from '../../electron/llm/ports';
import { openMemory, textHash, VectorIndex, VECTOR_KINDS, type Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { DROPPED, VectorChanges } from '../../electron/memory/vectors/vector-changes';
import { MAX_CHANGES_READ } from '../../electron/memory/vectors/vector-table-sync';
import { recordingEmbedder as recordingEmbedderOf } from '../fixtures/recording-embedder';

const DIM = 8;
const T = '2026-09-01T00:00:00Z';

const recordingEmbedder = () => recordingEmbedderOf(DIM, { bias: 1 });

/**
 * A recording embedder that can be held: `stallOn(match)` makes the next embed call whose batch has
 * a matching text wait (after the sync read its items, before it writes) until `release()`;
 * `reached` resolves once it waits.
 */
function stallingEmbedder() {
  const inner = recordingEmbedder();
  let stall: { match: (text: string) => boolean; reached: () => void; released: Promise<void> } | null = null;
  const embedder: Embedder & { texts: string[] } = {
    dimensions: DIM,
    texts: inner.texts,
    async embed(batch, signal) {
      const held = stall;
      if (held && batch.some(held.match)) {
        stall = null;
        held.reached();
        await held.released;
      }
      return inner.embed(batch, signal);
    },
  };
  const stallOn = (match: (text: string) => boolean) => {
    let reached!: () => void;
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => (reached = resolve));
    stall = { match, reached, released: new Promise<void>((resolve) => (release = resolve)) };
    return { reached: waiting, release };
  };
  return { embedder, stallOn };
}

/** How many outbox rows wait, all kinds. */
function outbox(m: Memory): number {
  return new VectorChanges(storeOf(m).db).waiting(VECTOR_KINDS, Number.MAX_SAFE_INTEGER);
}

let dir: string;
let memory: Memory | undefined;
let service: VectorService | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await service?.close();
  service = undefined;
  memory?.close();
  memory = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const vectorsDir = () => join(dir, 'vectors');

function fill(m: Memory, n: number): void {
  m.facts.observe(
    Array.from({ length: n }, (_, i) => ({ subject: `Person ${i % 7}`, predicate: `trait_${i % 5}`, object: `value ${i}`, object_type: 'literal', fact: `Person ${i % 7} has value ${i}.`, reference_time: T, cardinality: 'many' })),
  );
  m.messages.append({ role: 'user', content: 'I moved to Kyoto last spring.', time: T, conversation: 'cnv_a', learn: false });
}

/** A service started the app's way; `sync()` is what attach scheduled, run now. */
async function start(model = 'model.gguf:1', embedder = recordingEmbedder()) {
  service = new VectorService(memory!, embedder, vectorsDir(), () => model);
  await service.attach();
  const result = await service.sync();
  return { result, embedder };
}

/** What the engine does after a change (scheduleSync), run at once: the timer then finds nothing to do. */
function syncNow() {
  service!.scheduleSync(60_000);
  return service!.sync();
}

async function stop(): Promise<void> {
  await service?.close();
  service = undefined;
}

/** Asserts that every LanceDB table holds exactly SQLite's live items, each embedded from its current text. */
async function expectInSync(m: Memory): Promise<void> {
  for (const { table, kinds } of VECTOR_TABLES) {
    const index = await VectorIndex.open(vectorsDir(), DIM, { table, kinds });
    try {
      const want = new Map([...m.vectorItems().source().liveItems()].map((item) => [item.id, textHash(item.kind, item.text)]));
      expect(new Map([...(await index.hashes())].sort())).toEqual(new Map([...want].sort()));
    } finally {
      await index.close();
    }
  }
}

function liveCount(m: Memory): number {
  return [...m.vectorItems().source().liveItems()].length;
}

function begin(): void {
  dir = mkdtempSync(join(tmpdir(), 'tempora-vector-startup-'));
  memory = openMemory({ dataDir: join(dir, 'data') });
  fill(memory, 40);
}

describe('vector start-up sync', () => {
  it('reads everything on the first start, and nothing whole on a clean start after it', async () => {
    begin();
    const first = await start();
    expect(first.result).toMatchObject({ mode: 'full', reason: 'the vector table is new' });
    expect(first.result!.examined.sourceItems).toBe(first.result!.total);
    expect(first.result!.total).toBe(40); // the live facts: only facts are embedded
    await stop();

    memory!.close();
    memory = openMemory({ dataDir: join(dir, 'data') });
    const again = await start();
    expect(again.result).toMatchObject({ mode: 'changes', reason: null, added: 0, updated: 0, removed: 0, total: first.result!.total });
    expect(again.result!.examined).toEqual({ changes: 0, sourceItems: 0, storedHashes: 0 });
    expect(again.embedder.texts).toEqual([]);
    await stop();
    await expectInSync(memory);
  });

  it('reflects, after the next start, every write made while the vector index was closed', async () => {
    begin();
    await start();
    await stop();

    // A session without the embedding model (or the CLI) writes:
    const m = memory!;
    const facts = m.facts.list({ subject: 'Person 1' });
    const [edited, closed, forgotten] = facts;
    m.facts.observe([{ subject: 'Person 9', predicate: 'lives_in', object: 'Osaka', fact: 'Person 9 lives in Osaka.', reference_time: T, cardinality: 'one' }]);
    m.facts.edit(edited!.id, { fact: 'Person 1 has a new value.' });
    m.facts.close(closed!.id, '2026-10-01T00:00:00.000Z');
    m.facts.forget(forgotten!.id);
    const store = storeOf(m);
    const renamed = store.entities.find('Person 2')!;
    store.db.prepare("UPDATE entities SET name = 'Person Two' WHERE id = ?").run(renamed.id);
    store.entities.addAlias(store.entities.find('Person 3')!.id, 'P3');
    const added = m.messages.append({ role: 'user', content: 'My sister lives in Nara.', time: T, conversation: 'cnv_a', learn: false }).episode;
    const gone = m.messages.append({ role: 'user', content: 'Forget this message.', time: T, conversation: 'cnv_a', learn: false }).episode;
    m.messages.forget(gone.id);

    const { result, embedder } = await start();
    expect(result).toMatchObject({ mode: 'changes', reason: null });
    // only the changed items were read, on both sides
    expect(result!.examined.changes).toBeLessThan(20);
    expect(result!.examined.sourceItems).toBeLessThan(20);
    expect(embedder.texts).toContain('Person 1 has a new value.');
    expect(embedder.texts).toContain('Person 9 lives in Osaka.');
    // only facts are embedded: a message, a renamed entity and an alias add nothing to embed
    expect(embedder.texts).not.toContain('My sister lives in Nara.');
    expect(embedder.texts.some((t) => t.startsWith('Person Two') || t.includes('P3'))).toBe(false);
    expect(embedder.texts).not.toContain('Forget this message.');
    expect(result!.removed).toBeGreaterThanOrEqual(3); // the edited fact's old version, the closed one's, the forgotten one
    await stop();
    await expectInSync(m);
    expect([...m.vectorItems().source().liveItems()]).not.toContainEqual(expect.objectContaining({ id: added.id }));
  });

  it('drops the table of entities and messages an older version built, and embeds neither again', async () => {
    begin();
    const old = await VectorIndex.open(vectorsDir(), DIM, { table: 'others', kinds: ['entity', 'episode'], model: 'model.gguf:1' });
    await old.upsert([{ id: 'epi_old', kind: 'episode', hash: 'h', vector: new Float32Array(DIM).fill(0.5) }]);
    await old.close();
    const store = storeOf(memory!);
    // what the outbox held for them before migration 0037: its rows go with the triggers
    expect(store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%vector%' ORDER BY name").pluck().all()).toEqual([
      'facts_vector_delete',
      'facts_vector_insert',
      'facts_vector_update',
    ]);

    const { result, embedder } = await start();
    expect(service!.lastError).toBeNull();
    expect(await VectorIndex.dropTable(vectorsDir(), 'others')).toBe(false); // already gone
    expect(result!.total).toBe(memory!.facts.list().length);
    memory!.messages.append({ role: 'user', content: 'My sister lives in Nara.', time: T, conversation: 'cnv_a', learn: false });
    store.entities.addAlias(store.entities.find('Person 3')!.id, 'P3');
    expect(outbox(memory!)).toBe(0);
    expect(await syncNow()).toMatchObject({ mode: 'changes', added: 0, examined: { changes: 0 } });
    expect(embedder.texts.every((t) => memory!.facts.list().some((f) => f.fact === t))).toBe(true);
    await stop();
    await expectInSync(memory!);
  });

  it('syncs only the changes after a write while it runs', async () => {
    begin();
    await start();
    const before = liveCount(memory!);
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: T, cardinality: 'many' }]);
    const result = await syncNow();
    // the fact, read once (the message it was observed from and the entities it made are not embedded)
    const made = liveCount(memory!) - before;
    expect(made).toBe(1);
    expect(result).toMatchObject({ mode: 'changes', added: made, removed: 0, examined: { changes: made, sourceItems: made, storedHashes: 0 } });
    await stop();
    await expectInSync(memory!);
  });

  it('keeps a change made while a sync embeds for the next sync', async () => {
    begin();
    const embedder = recordingEmbedder();
    await start('model.gguf:1', embedder);
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: T, cardinality: 'many' }]);
    const embed = embedder.embed.bind(embedder);
    let wrote = false;
    embedder.embed = async (texts, signal) => {
      if (!wrote) {
        wrote = true; // another write lands between reading the outbox and draining it
        memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'miso', fact: 'I like miso.', reference_time: T, cardinality: 'many' }]);
      }
      return embed(texts, signal);
    };
    const first = await syncNow();
    expect(wrote).toBe(true);
    // the facts table had read its changes before the write: its miso fact waits in the outbox
    const miso = memory!.facts.list({ text: 'miso' })[0]!;
    expect(first!.examined.changes).toBeGreaterThan(0);
    const next = await syncNow();
    expect(next).toMatchObject({ mode: 'changes' });
    expect(next!.added).toBeGreaterThanOrEqual(1);
    expect(next!.examined.changes).toBe(next!.added);
    expect(miso.fact).toBe('I like miso.');
    await stop();
    await expectInSync(memory!);
  });

  it('tries an item whose vector was not finite again at the next sync', async () => {
    begin();
    const embedder = recordingEmbedder();
    await start('model.gguf:1', embedder);
    const embed = embedder.embed.bind(embedder);
    let poisoned = true;
    embedder.embed = async (texts, signal) => (await embed(texts, signal)).map((v, i) => (poisoned && texts[i] === 'I like natto.' ? v.fill(Number.NaN) : v));
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'natto', fact: 'I like natto.', reference_time: T, cardinality: 'many' }]);
    const { skipped } = (await syncNow())!;
    expect(skipped).toBeGreaterThanOrEqual(1);
    expect(await syncNow()).toMatchObject({ mode: 'changes', skipped, examined: { changes: skipped } });
    poisoned = false;
    expect(await syncNow()).toMatchObject({ mode: 'changes', skipped: 0, added: skipped, examined: { changes: skipped } });
    expect(await syncNow()).toMatchObject({ mode: 'changes', examined: { changes: 0 } });
    await stop();
    await expectInSync(memory!);
  });

  it('redoes the work after a LanceDB write failed between the SQLite write and the vector write', async () => {
    begin();
    await start();
    const before = liveCount(memory!);
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: T, cardinality: 'many' }]);
    const made = liveCount(memory!) - before;
    const insert = vi.spyOn(VectorIndex.prototype, 'insert').mockRejectedValueOnce(new Error('the disk is full'));
    expect(await syncNow()).toBeNull();
    expect(service!.lastError).toBe('the disk is full');
    insert.mockRestore();
    await stop(); // the app quits before another sync

    memory!.close();
    memory = openMemory({ dataDir: join(dir, 'data') });
    const { result, embedder } = await start();
    expect(result).toMatchObject({ mode: 'changes', added: made }); // the fact
    expect(embedder.texts).toContain('I like coffee.');
    await stop();
    await expectInSync(memory);
  });

  it('reads everything after a sync stopped between the vector write and recording it in SQLite', async () => {
    begin();
    await start();
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'green tea', fact: 'I like green tea.', reference_time: T, cardinality: 'many' }]);
    vi.spyOn(VectorChanges.prototype, 'commit').mockImplementationOnce(() => {
      throw new Error('the process was killed');
    });
    expect(await syncNow()).toBeNull();
    expect(service!.lastError).toBe('the process was killed');
    await stop();

    const { result } = await start();
    expect(result).toMatchObject({ mode: 'full', reason: expect.stringMatching(/not last synced together/) });
    await stop();
    await expectInSync(memory!);
  });

  it('reads everything when the embedding model changed', async () => {
    begin();
    await start('model-a.gguf:1');
    await stop();
    const { result, embedder } = await start('model-b.gguf:1');
    expect(result).toMatchObject({ mode: 'full', reason: 'the vector table was reset (model)' });
    expect(embedder.texts.length).toBe(result!.total);
    await stop();
    // and the start after that reads only the changes again
    const again = await start('model-b.gguf:1');
    expect(again.result).toMatchObject({ mode: 'changes', examined: { changes: 0, sourceItems: 0, storedHashes: 0 } });
  });

  it('reads everything when the vector directory was not synced with this database', async () => {
    begin();
    await start();
    await stop();
    writeFileSync(join(vectorsDir(), 'items.sync.json'), JSON.stringify({ generation: 'from-another-copy' }));
    const { result } = await start();
    expect(result).toMatchObject({ mode: 'full', reason: expect.stringMatching(/not last synced together/) });
    expect(result!.examined.storedHashes).toBeGreaterThan(0);
  });

  it('reads everything after a bulk import, which the outbox does not record', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempora-vector-startup-'));
    const source = openMemory({ dataDir: join(dir, 'source') });
    fill(source, 30);
    const doc = source.transfer.export();
    source.close();
    // an empty memory whose (empty) vector index was synced once
    memory = openMemory({ dataDir: join(dir, 'data') });
    expect((await start()).result).toMatchObject({ mode: 'full', total: 0 });
    await stop();
    memory.transfer.import(doc);
    await memory.settled();
    // the entity and alias triggers stay during a bulk load: what they recorded is cleared
    expect(outbox(memory)).toBe(0);
    const { result } = await start();
    expect(result).toMatchObject({ mode: 'full', reason: expect.stringMatching(/schema changed/) });
    await stop();
    await expectInSync(memory);
  });
});

describe('two processes syncing one database and one vector directory', () => {
  /** A second process's memory and vector service (the app and `tempora serve`, say). */
  let other: { memory: Memory; service: VectorService } | undefined;
  afterEach(async () => {
    await other?.service.close();
    other?.memory.close();
    other = undefined;
  });

  async function twoServices() {
    begin();
    const a = stallingEmbedder();
    service = new VectorService(memory!, a.embedder, vectorsDir(), () => 'model.gguf:1');
    await service.attach();
    expect(await service.sync()).toMatchObject({ mode: 'full' });
    const memoryB = openMemory({ dataDir: join(dir, 'data') });
    const serviceB = new VectorService(memoryB, recordingEmbedder(), vectorsDir(), () => 'model.gguf:1');
    other = { memory: memoryB, service: serviceB };
    await serviceB.attach();
    expect(await serviceB.sync()).toMatchObject({ mode: 'changes', examined: { changes: 0 } });
    const syncB = () => {
      serviceB.scheduleSync(60_000);
      return serviceB.sync();
    };
    return { stallOn: a.stallOn, memoryB, syncB };
  }

  it('re-embeds an item the other process rewrote and synced while this one embedded the old text', async () => {
    const { stallOn, memoryB, syncB } = await twoServices();
    const fact = memory!.facts.list({ subject: 'Person 2' })[0]!;
    const rewrite = (m: Memory, text: string) => storeOf(m).db.prepare('UPDATE facts SET fact = ? WHERE id = ?').run(text, fact.id);
    rewrite(memory!, 'Person 2 has value two.');
    // A reads the change and its text, then waits in embed …
    const held = stallOn((text) => text === 'Person 2 has value two.');
    const syncA = syncNow();
    await held.reached;
    // … while B rewrites the fact again, embeds the new text and drains both outbox rows
    rewrite(memoryB, 'Person 2 has value deux.');
    expect(await syncB()).toMatchObject({ mode: 'changes', updated: 1 });
    expect(outbox(memory!)).toBe(0);
    // … and A then writes the old text over it.
    held.release();
    expect(await syncA).toMatchObject({ mode: 'changes', updated: 1 });
    // A's commit saw the text had changed since it read it: the fact waits again
    expect(outbox(memory!)).toBe(1);
    expect(await syncNow()).toMatchObject({ mode: 'changes', updated: 1, examined: { changes: 1 } });
    await expectInSync(memory!);
  });

  it('deletes a fact that the other process forgot while this one embedded it', async () => {
    const { stallOn, memoryB, syncB } = await twoServices();
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: T, cardinality: 'many' }]);
    const tea = memory!.facts.list({ text: 'tea' })[0]!;
    const held = stallOn((text) => text === 'I like tea.');
    const syncA = syncNow();
    await held.reached;
    // B forgets the fact A is embedding; B's sync finds it neither live nor stored, and drains it
    memoryB.facts.forget(tea.id);
    expect(await syncB()).not.toBeNull();
    held.release();
    await syncA;
    // A wrote the forgotten fact's vector; its commit put the fact back in the outbox
    expect(await syncNow()).toMatchObject({ mode: 'changes', removed: 1 });
    await expectInSync(memory!);
  });
});

describe('the outbox while no embedding model is attached', () => {
  /** Outbox rows as many writes would leave them (each names an item that is not live: a full reconcile ignores it). */
  function pileUp(m: Memory, n: number): void {
    storeOf(m)
      .db.prepare("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO vector_changes (item_id, kind) SELECT 'fct_gone_' || i, 'fact' FROM n")
      .run(n);
  }

  it('is dropped, and the next sync reads everything, once more changes wait than a sync would read', async () => {
    begin();
    await start();
    await stop();
    // a session without the embedding model: the engine's service stays detached
    const edited = memory!.facts.list({ subject: 'Person 1' })[0]!;
    memory!.facts.edit(edited.id, { fact: 'Person 1 has a new value.' });
    pileUp(memory!, MAX_CHANGES_READ - outbox(memory!));
    // as many as a sync reads: kept
    service = new VectorService(memory!, recordingEmbedder(), vectorsDir(), () => 'model.gguf:1');
    service.scheduleSync();
    expect(outbox(memory!)).toBe(MAX_CHANGES_READ);
    // one more write, and the scheduleSync after it drops them all
    memory!.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: T, cardinality: 'many' }]);
    service.scheduleSync();
    expect(outbox(memory!)).toBe(0);
    expect(new VectorChanges(storeOf(memory!).db).state('items')?.generation).toBe(DROPPED);
    await stop();

    const { result } = await start();
    expect(result).toMatchObject({ mode: 'full', reason: expect.stringMatching(/dropped unread/) });
    await stop();
    await expectInSync(memory!);
  });

  it('is dropped when the engine opens the memory with more waiting', async () => {
    begin();
    await start();
    await stop();
    pileUp(memory!, MAX_CHANGES_READ + 1);
    service = new VectorService(memory!, recordingEmbedder(), vectorsDir(), () => 'model.gguf:1');
    expect(outbox(memory!)).toBe(0);
    await service.attach();
    expect(await service.sync()).toMatchObject({ mode: 'full', reason: expect.stringMatching(/dropped unread/) });
    await stop();
    await expectInSync(memory!);
  });
});
