/**
 * A chat turn on the real model path (node-llama-cpp, tiny random-weights GGUF): the answer streams
 * token by token, stop works mid-stream, the user's message is learned afterwards, and the facts
 * that were in the answer's context are recorded with the answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/index';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;
let engine: TemporaEngine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-chat-'));
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, threads: 1, gpu: false });
  await engine.loadModel('chat', join(dir, 'tiny.gguf'));
  engine.memory.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
  ]);
}, 60_000);
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chat with the tiny real model', () => {
  it('streams an answer, records the facts it used, and learns from the message afterwards', async () => {
    const conversation = engine.memory.conversations.create('Test');
    const tokens: string[] = [];
    const contexts: string[][] = [];
    const off = engine.onEvent((event) => {
      if (event.name === 'chatToken' && event.payload.turnId === 'turn-0001') tokens.push(event.payload.text);
      if (event.name === 'chatContext') contexts.push(event.payload.factIds);
    });
    const result = await engine.chat('turn-0001', { conversationId: conversation.id, content: 'Who is my manager?', maxTokens: 24 });
    off();
    expect(tokens.length).toBeGreaterThan(1);
    expect(result.text).toBe(tokens.join(''));
    expect(result.stopped).toBe(false);
    // B is current and A is its predecessor: both were in the context, and the answer records them.
    const used = engine.memory.facts.list({ history: true }).filter((f) => result.factIds.includes(f.id)).map((f) => f.object).sort();
    expect(used).toEqual(['A', 'B']);
    expect(contexts[0]).toEqual(result.factIds);
    const messages = engine.memory.conversations.messages(conversation.id);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.fact_ids).toEqual(result.factIds);
    // the answer did not wait for learning; the user's message is learned afterwards
    await engine.worker.whenIdle();
    const job = engine.memory.jobs.byEpisode(result.userMessage.id)!;
    expect(['done', 'parked']).toContain(job.status);
    expect(engine.memory.jobs.byEpisode(result.assistantMessage!.id)).toBeUndefined();

    // A reply to the answer is learned with the answer shown to the extraction (the longer prompt
    // still fits the model's context and the job finishes).
    const reply = await engine.chat('turn-0002', { conversationId: conversation.id, content: "Yes, that's right.", maxTokens: 24 });
    await engine.worker.whenIdle();
    const replyJob = engine.memory.jobs.byEpisode(reply.userMessage.id)!;
    expect(replyJob).toMatchObject({ status: 'done', last_error: null });
    expect(replyJob.model_calls).toBeGreaterThanOrEqual(1);
  });

  it('stops mid-stream, keeping the partial answer, and regenerates', async () => {
    const conversation = engine.memory.conversations.create('Stop');
    let seen = 0;
    const off = engine.onEvent((event) => {
      if (event.name === 'chatToken' && event.payload.turnId === 'turn-stop1' && ++seen === 3) engine.stopTurn('turn-stop1');
    });
    const result = await engine.chat('turn-stop1', { conversationId: conversation.id, content: 'Tell me a long story.', maxTokens: 400 });
    off();
    expect(result.stopped).toBe(true);
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(seen).toBeLessThan(400);
    const again = await engine.chat('turn-regen1', { conversationId: conversation.id, regenerate: true, maxTokens: 8 });
    expect(again.userMessage.id).toBe(result.userMessage.id);
    const roles = engine.memory.conversations.messages(conversation.id).map((m) => m.role);
    expect(roles.filter((r) => r === 'user')).toHaveLength(1);
    expect(roles.filter((r) => r === 'assistant').length).toBeLessThanOrEqual(1);
  });

  it('lists, and deletes a conversation keeping or forgetting what was learned', async () => {
    const listed = engine.memory.conversations.list();
    expect(listed.length).toBeGreaterThanOrEqual(2);
    const target = listed.find((c) => c.title === 'Stop')!;
    const result = engine.memory.conversations.delete(target.id, { forget: true });
    expect(result.keptMessages).toBe(0);
    expect(engine.memory.conversations.list().some((c) => c.id === target.id)).toBe(false);
    await expect(engine.chat('turn-gone01', { conversationId: target.id, content: 'hello' })).rejects.toThrow(/no conversation/);
  });
});
