/**
 * Redo after Undo: the Learning a message applied is kept with it, and Redo applies it again by the
 * same rules in one write (one change event), without the model: the facts are those of the first
 * apply; after a later message changed the same slot they are what the rules make of both; Undo and
 * Redo survive reopening the memory; what cannot be redone is refused in words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { openMemory, steppingClock, type Memory, type MemoryChange } from '../../electron/memory/index';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel, type Script, type ScriptedModel } from '../fixtures/scripted-model';

const lives = (city: string) => ({ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const });
const script: Script = {
  extract: {
    'I live in Tokyo.': [lives('Tokyo')],
    'I moved to Osaka.': [lives('Osaka')],
    'Now I live in Kyoto.': [lives('Kyoto')],
    'I like green tea.': [{ subject: 'me', subject_type: 'user', predicate: 'likes', object: 'green tea', object_type: 'thing', fact: 'I like green tea.' }],
    'Green tea is my favourite.': [{ subject: 'me', subject_type: 'user', predicate: 'likes', object: 'green tea', object_type: 'thing', fact: 'Green tea is my favourite drink.' }],
  },
  judge: (stored, fresh) => (stored.includes('green tea') && fresh.includes('Green tea') ? 'duplicate' : 'unrelated'),
};

const dirs: string[] = [];
let memory: Memory;
let model: ScriptedModel;

function open(dataDir = ':memory:'): Memory {
  return openMemory({ dataDir, clock: steppingClock('2026-11-01T00:00:00.000Z') });
}

/** The message is stored at its own day of September and learned by the worker with the scripted model. */
async function say(content: string, day: number, conversation = 'c1'): Promise<string> {
  const id = memory.messages.append({ role: 'user', content, time: `2026-09-${String(day).padStart(2, '0')}T09:00:00Z`, conversation }).episode.id;
  const worker = new IngestionWorker(memory, { model: () => model });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  return id;
}

/** The valid-time line as the memory holds it now: every live version (current and closed), with its sources. */
const line = (m = memory) =>
  m
    .facts.list({ history: true })
    .filter((f) => f.expired_at === null)
    .map((f) => [f.object, f.valid_at, f.invalid_at, [...f.episode_ids].sort()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('Redo after Undo', () => {
  beforeEach(() => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    memory = open();
    model = scriptedModel(script);
  });
  afterEach(() => {
    memory.close();
    vi.unstubAllEnvs();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the same learning again, giving the facts of the first apply, in one write and without the model', async () => {
    await say('I live in Tokyo.', 1);
    const osaka = await say('I moved to Osaka.', 2);
    const first = line();
    const learnedFirst = memory.messages.learning(osaka)!;
    memory.messages.undoLearning(osaka);
    expect(memory.messages.learning(osaka)).toMatchObject({ state: 'undone', canUndo: false, canRedo: true });
    expect(memory.facts.list().map((f) => f.object)).toEqual(['Tokyo']);

    const calls = model.calls.length;
    const changes: MemoryChange[] = [];
    const stop = memory.onChange((change) => changes.push(change));
    const redone = memory.messages.redoLearning(osaka);
    stop();
    expect(model.calls.length).toBe(calls);
    expect(changes.map((c) => [c.kind, c.reason])).toEqual([['facts', 'learned']]);
    expect(redone).toMatchObject({ state: 'learned', canUndo: true, canRedo: false, undo: null });
    expect(redone.added.map((f) => [f.object, f.valid_at, f.invalid_at])).toEqual(learnedFirst.added.map((f) => [f.object, f.valid_at, f.invalid_at]));
    expect(redone.closed.map((f) => [f.object, f.valid_at, f.invalid_at])).toEqual([['Tokyo', '2026-09-01T09:00:00.000Z', '2026-09-02T09:00:00.000Z']]);
    expect(line()).toEqual(first);
    expect(memory.facts.list().map((f) => f.object)).toEqual(['Osaka']);

    // And back again: Undo takes the redone learning back as it took the first.
    expect(memory.messages.undoLearning(osaka).forgotten.map((f) => f.object)).toEqual(['Osaka']);
    expect(memory.facts.list().map((f) => f.object)).toEqual(['Tokyo']);
  });

  it('after a later message changed the same slot, resolves by the rules as if both had been learned in order', async () => {
    await say('I live in Tokyo.', 1);
    const osaka = await say('I moved to Osaka.', 2);
    memory.messages.undoLearning(osaka);
    const kyoto = await say('Now I live in Kyoto.', 3);
    const calls = model.calls.length;
    memory.messages.redoLearning(osaka);
    expect(model.calls.length).toBe(calls);
    const redone = line();

    // The same three messages learned in order, never undone, in another memory.
    const other = open();
    const saved = memory;
    memory = other;
    try {
      const tokyo2 = await say('I live in Tokyo.', 1);
      const osaka2 = await say('I moved to Osaka.', 2);
      const kyoto2 = await say('Now I live in Kyoto.', 3);
      const ids = new Map([[tokyo2, 'tokyo'], [osaka2, 'osaka'], [kyoto2, 'kyoto']]);
      const inOrder = line().map(([o, from, to, eps]) => [o, from, to, (eps as string[]).map((e) => ids.get(e))]);
      const tokyo = saved.facts.list({ history: true }).find((f) => f.object === 'Tokyo')!.episode_ids[0]!;
      const names = new Map([[tokyo, 'tokyo'], [osaka, 'osaka'], [kyoto, 'kyoto']]);
      expect(redone.map(([o, from, to, eps]) => [o, from, to, (eps as string[]).map((e) => names.get(e))])).toEqual(inOrder);
      expect(inOrder).toEqual([
        ['Kyoto', '2026-09-03T09:00:00.000Z', null, ['kyoto']],
        ['Osaka', '2026-09-02T09:00:00.000Z', '2026-09-03T09:00:00.000Z', ['osaka']],
        ['Tokyo', '2026-09-01T09:00:00.000Z', '2026-09-02T09:00:00.000Z', ['tokyo']],
      ]);
    } finally {
      other.close();
      memory = saved;
    }
  });

  it('redoes a confirmation: the fact cites the message again', async () => {
    const first = await say('I like green tea.', 1);
    const second = await say('Green tea is my favourite.', 2);
    const before = line();
    memory.messages.undoLearning(second);
    expect(memory.facts.list().map((f) => f.episode_ids)).toEqual([[first]]);
    expect(memory.messages.redoLearning(second).confirmed.map((f) => f.object)).toEqual(['green tea']);
    expect(line()).toEqual(before);
  });

  it('redoes what the user approved in review, with their correction, not what the model first said', async () => {
    memory.review.setBeforeRemembering(true);
    const osaka = await say('I moved to Osaka.', 2);
    memory.review.approve(osaka, [{ index: 0, object: 'Kobe', fact: 'I live in Kobe.' }]);
    const approved = line();
    expect(approved.map((f) => f[0])).toEqual(['Kobe']);
    memory.messages.undoLearning(osaka);
    expect(memory.facts.list()).toEqual([]);
    memory.messages.redoLearning(osaka);
    expect(line()).toEqual(approved);
  });

  it('keeps Undo and Redo across reopening the memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-redo-'));
    dirs.push(dir);
    memory.close();
    memory = open(dir);
    await say('I live in Tokyo.', 1);
    const osaka = await say('I moved to Osaka.', 2);
    const first = line();
    memory.messages.undoLearning(osaka);
    memory.close();
    memory = open(dir);
    expect(memory.messages.learning(osaka)).toMatchObject({ state: 'undone', canRedo: true });
    memory.messages.redoLearning(osaka);
    memory.close();
    memory = open(dir);
    expect(memory.messages.learning(osaka)).toMatchObject({ state: 'learned', canUndo: true, canRedo: false });
    expect(line()).toEqual(first);
  });

  it('refuses what cannot be redone, in words, changing nothing', async () => {
    const tokyo = await say('I live in Tokyo.', 1);
    expect(() => memory.messages.redoLearning(tokyo)).toThrow(`message ${tokyo} is not undone: there is nothing to redo`);
    expect(() => memory.messages.redoLearning('epi_nope')).toThrow('no message with id epi_nope');
    memory.messages.undoLearning(tokyo);
    memory.conversations.setLearning('c1', false);
    expect(memory.messages.learning(tokyo)).toMatchObject({ state: 'undone', canRedo: false });
    expect(() => memory.messages.redoLearning(tokyo)).toThrow(`message ${tokyo} is in a conversation that is not remembered: turn its learning on again first`);
    memory.conversations.setLearning('c1', true);
    expect(memory.messages.learning(tokyo)!.canRedo).toBe(true);
    expect(memory.facts.list()).toEqual([]);
  });

  it('says a message learned before its learning was kept (migration 0021) cannot be redone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-redo-old-'));
    dirs.push(dir);
    memory.close();
    memory = open(dir);
    const tokyo = await say('I live in Tokyo.', 1);
    memory.messages.undoLearning(tokyo);
    memory.close();
    // As a row written before 0021 reads: no learning kept.
    const db = new Database(join(dir, 'memory.sqlite'));
    db.prepare('UPDATE message_learning SET learning = NULL WHERE episode_id = ?').run(tokyo);
    db.close();
    memory = open(dir);
    expect(memory.messages.learning(tokyo)).toMatchObject({ state: 'undone', canRedo: false });
    expect(() => memory.messages.redoLearning(tokyo)).toThrow(`message ${tokyo} was learned before Tempora kept what each message taught: it cannot be redone`);
  });
});
