/**
 * Forget means forgotten: forgetting a fact with its sources deletes the messages it came from that
 * support nothing else, and afterwards no export, full-text search, vector index or chat turn's
 * context holds their text; a message that is also the source of other facts stays, and says why.
 * Real SQLite, LanceDB, the ingestion worker with the scripted model, and a real chat turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runChatTurn } from '../../electron/assistant/chat/chat-turn';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import type { ChatMessage, ChatModel } from '../../electron/llm/ports';
import { indexItems, openMemory, removeItems, steppingClock, VectorIndex, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { scriptedModel } from '../fixtures/scripted-model';
import { runTempora } from './cli-helpers';

const A = 'My manager is A.';
const TEA = 'My manager is A and I like tea.';
const script = {
  extract: {
    [A]: [{ subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' as const }],
    [TEA]: [
      { subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' as const },
      { subject: 'me', subject_type: 'user' as const, predicate: 'likes', object: 'tea', object_type: 'thing' as const, fact: 'I like tea.' },
    ],
  },
};

async function learn(memory: Memory): Promise<void> {
  const model = scriptedModel(script);
  const worker = new IngestionWorker(memory, { model: () => model });
  const conversation = memory.conversations.create('Work').id;
  memory.messages.append({ role: 'user', content: A, time: '2026-09-01T10:00:00Z', conversation });
  memory.messages.append({ role: 'user', content: TEA, time: '2026-09-02T10:00:00Z', conversation });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
}

const managerFact = (memory: Memory) => memory.facts.list().find((f) => f.predicate === 'manager')!;
const episodeFts = (memory: Memory, phrase: string) =>
  databaseOf(memory).prepare<[string], { rowid: number }>('SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ?').all(`"${phrase}"`).length;

function recordingChat(): ChatModel & { seen: ChatMessage[][] } {
  const seen: ChatMessage[][] = [];
  return {
    seen,
    contextSize: 8192,
    countTokens: (text) => Math.ceil(text.length / 4),
    async streamChat(messages, opts) {
      seen.push(messages);
      opts.onToken('I do not know.');
      return { text: 'I do not know.', stopped: false, promptTokens: 1, completionTokens: 1 };
    },
  };
}

/** Every message of every conversation, oldest first. */
const messagesOf = (memory: Memory) => memory.conversations.list().flatMap((c) => memory.episodes.ofConversation(c.id));

let dir: string;
let memory: Memory | undefined;
beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'UTC');
  vi.stubEnv('LANCEDB_LOG', 'error');
  dir = mkdtempSync(join(tmpdir(), 'tempora-forget-sources-'));
});
afterEach(() => {
  memory?.close();
  memory = undefined;
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe('forget a fact with its sources', () => {
  it('lists each source with what else it supports, before anything is deleted', async () => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    await learn(memory);
    const sources = memory.facts.sources(managerFact(memory).id);
    expect(sources.map((s) => [s.excerpt, s.otherFacts])).toEqual([
      [A, 0],
      [TEA, 1],
    ]);
    expect(() => memory!.facts.sources('fct_missing')).toThrow(/no fact with id fct_missing/);
  });

  it('deletes the messages that support nothing else: not in the export, search, vectors or a chat turn', async () => {
    memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-11-01T00:00:00.000Z') });
    await learn(memory);
    const embedder = {
      dimensions: 4,
      async embed(texts: readonly string[]) {
        return texts.map((t) => Float32Array.from([t.length % 7, 1, t.includes('manager') ? 1 : 0, 0.5]));
      },
    };
    // Only facts are embedded (messages are found by their text): the forgotten fact's vector goes.
    const index = await VectorIndex.open(join(dir, 'vectors'), 4, { kinds: ['fact'] });
    await indexItems(index, embedder, [...memory.vectorItems().source().liveItems()]);
    const [onlyA, withTea] = messagesOf(memory);
    const manager = managerFact(memory).id;
    expect(await index.ids('fact')).toContain(manager);
    expect(episodeFts(memory, A)).toBe(1);

    const forgotten = memory.facts.forget(manager, { withSources: true });
    await removeItems(index, forgotten.factIds); // what the engine does on the change event

    expect(forgotten.sources.deleted.map((s) => s.id)).toEqual([onlyA!.id]);
    expect(forgotten.sources.kept).toEqual([expect.objectContaining({ id: withTea!.id, otherFacts: 1, reason: 'also the source of 1 other fact' })]);
    expect(forgotten.episodeIds).toEqual([onlyA!.id]);
    const exported = JSON.stringify(memory.transfer.export());
    expect(exported).not.toContain(`"${A}"`);
    expect(exported).toContain('I like tea.');
    expect(episodeFts(memory, A)).toBe(0);
    expect(memory.facts.search('manager').filter((h) => h.fact.predicate === 'manager')).toEqual([]);
    expect(forgotten.factIds).toContain(manager);
    expect(await index.ids('fact')).not.toContain(manager);
    expect(await index.ids('fact')).toEqual(new Set(memory.facts.list().map((f) => f.id)));
    await index.close();

    const chat = recordingChat();
    const conversation = memory.conversations.list()[0]!.id;
    await runChatTurn(memory, chat, null, { conversationId: conversation, content: 'Who is my manager?', onToken: () => {} });
    const context = chat.seen[0]!.map((m) => m.content).join('\n');
    expect(context).not.toContain(A);
    expect(context).not.toContain('My manager is A.');
  });

  it('without withSources keeps every message and says so', async () => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    await learn(memory);
    const forgotten = memory.facts.forget(managerFact(memory).id);
    expect(forgotten.episodeIds).toEqual([]);
    expect(forgotten.sources.deleted).toEqual([]);
    expect(forgotten.sources.kept.map((s) => s.reason)).toEqual(['kept as you asked (the message stays in its conversation)', 'also the source of 1 other fact']);
    expect(messagesOf(memory)).toHaveLength(2);
  });
});

describe('tempora forget --with-sources', () => {
  it('deletes the only-source message and names the one kept with why', async () => {
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    memory = openMemory({ dataDir: join(dir, 'data'), clock });
    await learn(memory);
    const id = managerFact(memory).id;
    memory.close();
    memory = undefined;

    const run = runTempora(dir, clock, ['forget', id, '--with-sources']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`deleted: "${A}"`);
    expect(run.out).toContain(`kept: "${TEA}"`);
    expect(run.out).toContain('also the source of 1 other fact');
    // "A" was named by the forgotten fact alone: the entity goes too, and the summary names it.
    expect(run.out).toMatch(/1 fact version, 1 entity, 1 message removed/);
    expect(run.out).toMatch(/entity {3}ent_\S+ \(A\)/);
    const exported = runTempora(dir, clock, ['export']);
    expect(exported.code).toBe(0);
    expect(exported.out).not.toContain(`"${A}"`);
    const entities = (JSON.parse(exported.out) as { entities: { name: string }[] }).entities.map((e) => e.name).sort();
    expect(entities).toEqual(['me', 'tea']);

    const misuse = runTempora(dir, clock, ['forget', '--episode', 'epi_x', '--with-sources']);
    expect(misuse.code).not.toBe(0);
    expect(misuse.err).toContain('--with-sources goes with FACT_ID');
  });
});
