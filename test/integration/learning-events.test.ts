/**
 * What a message taught, over the API: the engine tells `messageLearned` (conversation, message,
 * what it changed) whoever learned it, the calls read it, undo it, keep a conversation unremembered
 * and list and retry parked messages; `tempora chat`'s note says it in one line once learned.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiEventEnvelope, type ApiEvent } from '../../shared/api-contract';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { learnedNotes } from '../../electron/cli/chat-learned-notes';
import { setDisplayFormat } from '../../electron/cli/output';
import { createApiHandlers, dispatchCall, TemporaEngine } from '../../electron/engine/index';
import { scriptedModel } from '../fixtures/scripted-model';

const lives = (city: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const }];
const model = scriptedModel({ extract: { 'I live in Tokyo.': lives('Tokyo'), 'I moved to Osaka.': lives('Osaka') }, failOn: 'broken' });

describe('message learning over the API', () => {
  let dir: string;
  let engine: TemporaEngine;
  const learned: ApiEvent<'messageLearned'>[] = [];
  const call = (name: string, payload: unknown) => dispatchCall(createApiHandlers(engine), name, payload);

  async function learn(): Promise<void> {
    const worker = new IngestionWorker(engine.memory, { model: () => model });
    worker.start();
    await worker.whenIdle();
    await worker.stop();
  }

  beforeAll(async () => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    dir = mkdtempSync(join(tmpdir(), 'tempora-learning-'));
    engine = await TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });
    engine.onEvent((event) => {
      if (event.name === 'messageLearned') learned.push(event.payload);
    });
  });

  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it('tells messageLearned with what the message changed, and the chat note says it in one line', async () => {
    setDisplayFormat({ timeZone: 'UTC', locale: 'en-GB' });
    const conversation = (await call('createConversation', {})) as { id: string; title: string; learn: boolean };
    expect(conversation).toMatchObject({ title: 'New conversation', learn: true });
    const memory = engine.memory;
    memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-09-01T09:00:00Z', conversation: conversation.id });
    await learn();
    const osaka = memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-15T09:00:00Z', conversation: conversation.id }).episode;
    const lines: string[] = [];
    const notes = learnedNotes(engine, (line) => lines.push(line));
    notes.watch(osaka.id);
    expect(notes.waiting()).toBe(1);
    await learn();
    notes.dispose();

    const event = learned.find((e) => e.episodeId === osaka.id)!;
    expect(event.conversationId).toBe(conversation.id);
    // As the bridge checks every event before it sends it.
    expect(apiEventEnvelope.safeParse({ name: 'messageLearned', payload: event }).success).toBe(true);
    expect(event.learning.added.map((f) => f.object)).toEqual(['Osaka']);
    expect(event.learning.closed.map((f) => f.invalid_at)).toEqual(['2026-09-15T09:00:00.000Z']);
    expect(lines).toEqual(['  Learned: I live in Osaka. · Closed: I live in Tokyo. (1 Sept – 15 Sept 2026)\n']);
    // The conversation took its first message as its title; each message carries its learning.
    const list = (await call('listConversations', {})) as { id: string; title: string }[];
    expect(list.find((c) => c.id === conversation.id)!.title).toBe('I live in Tokyo.');
    const messages = (await call('conversationMessages', { id: conversation.id })) as { learning: { state: string } | null }[];
    expect(messages.map((m) => m.learning?.state)).toEqual(['learned', 'learned']);
  });

  it('undoes a message over the API, tells it, and refuses a second Undo naming the message', async () => {
    const osaka = engine.memory.facts.list().find((f) => f.object === 'Osaka')!.episode_ids[0]!;
    const report = (await call('undoLearning', { episodeId: osaka })) as { reopened: { object: string }[] };
    expect(report.reopened.map((f) => f.object)).toEqual(['Tokyo']);
    expect(learned.at(-1)).toMatchObject({ episodeId: osaka, learning: { state: 'undone', canUndo: false } });
    await expect(call('undoLearning', { episodeId: osaka })).rejects.toThrow(`message ${osaka} was already undone`);
    expect(((await call('messageLearning', { episodeId: osaka })) as { state: string }).state).toBe('undone');
    await expect(call('messageLearning', { episodeId: '' })).rejects.toThrow(/messageLearning: invalid request: .*episodeId/);
  });

  it('keeps a conversation unremembered, and lists and retries a parked message', async () => {
    const memory = engine.memory;
    const quiet = (await call('createConversation', { title: 'Off the record' })) as { id: string };
    expect(await call('setConversationLearning', { id: quiet.id, learn: false })).toEqual({ learn: false, undoneMessages: 0, forgottenFacts: 0 });
    const kept = memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-10-01T09:00:00Z', conversation: quiet.id }).episode;
    expect(memory.jobs.byEpisode(kept.id)).toBeUndefined();
    await expect(call('setConversationLearning', { id: 'cnv_missing', learn: false })).rejects.toThrow('no conversation with id cnv_missing');

    const broken = memory.messages.append({ role: 'user', content: 'this is broken', time: '2026-10-02T09:00:00Z', conversation: 'c-parked', conversationTitle: 'Parked chat' }).episode;
    await learn();
    const parked = (await call('listParkedMessages', {})) as { episodeId: string; conversationTitle: string; error: string }[];
    expect(parked).toEqual([expect.objectContaining({ episodeId: broken.id, conversationTitle: 'Parked chat', error: 'scripted failure for "this is broken"' })]);
    expect(await call('retryParkedMessage', { episodeId: broken.id })).toEqual({ ok: true });
    expect(memory.jobs.byEpisode(broken.id)!.status).toBe('pending');
    await expect(call('retryParkedMessage', { episodeId: broken.id })).rejects.toThrow(`message ${broken.id} is not parked: it is waiting already`);
  });
});
