/**
 * What each message's learning changed, recorded in the write that applied it, and Undo: what it
 * added is forgotten, what it closed reopens as a new version (the closed one stays in history), a
 * duplicate it confirmed only loses it as a source; Undo twice is refused in words; an undone
 * message is never learned again; a later message that built on a fact is said, not silently undone.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { learningSummary, undoSummary } from '../../shared/learning-contract';
import { formatEnding } from '../../shared/time-format';
import { scriptedModel, type Script, type ScriptedModel } from '../fixtures/scripted-model';

const lives = (city: string) => ({ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const });
const script: Script = {
  extract: {
    'I live in Tokyo.': [lives('Tokyo')],
    'I moved to Osaka.': [lives('Osaka')],
    'Yes, Osaka is home now.': [lives('Osaka')],
    'Now I live in Kyoto.': [lives('Kyoto')],
    'I like green tea.': [{ subject: 'me', subject_type: 'user', predicate: 'likes', object: 'green tea', object_type: 'thing', fact: 'I like green tea.' }],
    'Yes, that is right.': [{ subject: 'me', subject_type: 'user', predicate: 'dentist', object: 'Dr. Kato', fact: 'My dentist is Dr. Kato.', from_assistant: true }],
    'I play the piano.': [{ subject: 'me', subject_type: 'user', predicate: 'plays', object: 'piano', object_type: 'thing', fact: 'I play the piano.' }],
    'I stopped playing the piano today.': [{ subject: 'me', subject_type: 'user', predicate: 'plays', object: 'piano', object_type: 'thing', fact: 'I play the piano.', until: 'today', ended: true }],
    'Green tea is my favourite.': [{ subject: 'me', subject_type: 'user', predicate: 'likes', object: 'green tea', object_type: 'thing', fact: 'Green tea is my favourite drink.' }],
  },
  judge: (stored, fresh) => (stored.includes('green tea') && fresh.includes('Green tea') ? 'duplicate' : 'unrelated'),
};

let memory: Memory;
let model: ScriptedModel;
let minute = 0;

async function say(content: string, conversation = 'c1'): Promise<string> {
  const id = memory.messages.append({ role: 'user', content, time: `2026-09-${String(1 + minute++).padStart(2, '0')}T09:00:00Z`, conversation }).episode.id;
  const worker = new IngestionWorker(memory, { model: () => model });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  return id;
}

const current = () => memory.facts.list().map((f) => f.object).sort();

describe('learned, inline: what a message changed, and Undo', () => {
  beforeEach(() => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    model = scriptedModel(script);
    minute = 0;
  });
  afterEach(() => {
    memory.close();
    vi.unstubAllEnvs();
  });

  it('records what a message added and closed, and Undo forgets the one and reopens the other', async () => {
    await say('I live in Tokyo.');
    const osaka = await say('I moved to Osaka.');
    const learned = memory.messages.learning(osaka)!;
    expect(learned.state).toBe('learned');
    expect(learned.added.map((f) => f.object)).toEqual(['Osaka']);
    expect(learned.closed.map((f) => [f.object, f.invalid_at])).toEqual([['Tokyo', '2026-09-02T09:00:00.000Z']]);
    expect(learned.canUndo).toBe(true);
    // A closed fact's end is written by the one formatter, in the reader's zone: past, so "ended".
    const ending = (f: (typeof learned.closed)[number]) => formatEnding(f, { timeZone: 'Asia/Tokyo', locale: 'en-GB' }, '2026-09-03T00:00:00.000Z');
    expect(learningSummary(learned, ending)).toMatch(/^Learned: I live in Osaka\. · Closed: I live in Tokyo\. \(ended 2 Sept 2026(, 18:00)?\)$/);
    const beforeUndo = memory.clock.now();

    const report = memory.messages.undoLearning(osaka);
    expect(report.forgotten.map((f) => f.object)).toEqual(['Osaka']);
    expect(report.reopened.map((f) => [f.object, f.invalid_at])).toEqual([['Tokyo', null]]);
    expect(report.kept).toEqual([]);
    expect(current()).toEqual(['Tokyo']);
    // Nothing silently rewritten: the closed version stays in history, the reopened one supersedes it.
    const tokyo = memory.facts.list({ history: true }).filter((f) => f.object === 'Tokyo');
    expect(tokyo.map((f) => [f.invalid_at, f.expired_at === null])).toEqual(expect.arrayContaining([['2026-09-02T09:00:00.000Z', false], [null, true]]));
    expect(memory.facts.list({ knownAt: beforeUndo }).map((f) => f.object)).not.toContain('Tokyo');
    // The message stays, marked undone; the reopened fact no longer cites it.
    expect(memory.episodes.byId(osaka)).toBeDefined();
    expect(memory.messages.learning(osaka)).toMatchObject({ state: 'undone', canUndo: false });
    expect(memory.facts.list()[0]!.episode_ids).not.toContain(osaka);
    expect(undoSummary(report)).toBe('forgot 1 fact; reopened I live in Tokyo.');
  });

  it('reopens a fact the message said had ended ("I stopped …")', async () => {
    await say('I play the piano.');
    const stopped = await say('I stopped playing the piano today.');
    expect(memory.messages.learning(stopped)!.closed.map((f) => [f.object, f.invalid_at])).toEqual([['piano', '2026-09-02T00:00:00.000Z']]);
    expect(current()).toEqual([]);
    const report = memory.messages.undoLearning(stopped);
    expect(report.reopened.map((f) => [f.object, f.invalid_at])).toEqual([['piano', null]]);
    expect(current()).toEqual(['piano']);
  });

  it('reopens a fact the user had edited that the message said had ended', async () => {
    // Found in review: the closing claim took the edited fact's origin (user_edit), so Undo kept it
    // and said "you closed it yourself".
    await say('I play the piano.');
    const piano = memory.facts.list()[0]!;
    memory.facts.edit(piano.id, { fact: 'I play the piano (since childhood).' });
    const stopped = await say('I stopped playing the piano today.');
    expect(current()).toEqual([]);
    const report = memory.messages.undoLearning(stopped);
    expect(report.reopened.map((f) => [f.object, f.invalid_at, f.fact])).toEqual([['piano', null, 'I play the piano (since childhood).']]);
    expect(report.stillClosed).toEqual([]);
    expect(current()).toEqual(['piano']);
  });

  it('refuses a second Undo, and an Undo of what was not learned, in words, changing nothing', async () => {
    const tokyo = await say('I live in Tokyo.');
    memory.messages.undoLearning(tokyo);
    expect(() => memory.messages.undoLearning(tokyo)).toThrow(/was already undone \(at .*\): there is nothing left to undo/);
    const waiting = memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-10-01T00:00:00Z', conversation: 'c1' }).episode.id;
    expect(() => memory.messages.undoLearning(waiting)).toThrow(`message ${waiting} has not been learned (it is waiting to be learned): there is nothing to undo`);
    expect(() => memory.messages.undoLearning('epi_nope')).toThrow('no message with id epi_nope');
    expect(memory.messages.learning(waiting)!.state).toBe('pending');
  });

  it('never learns an undone message again', async () => {
    const tokyo = await say('I live in Tokyo.');
    memory.messages.undoLearning(tokyo);
    const calls = model.calls.length;
    memory.jobs.retryParked();
    const worker = new IngestionWorker(memory, { model: () => model });
    worker.start();
    await worker.whenIdle();
    await worker.stop();
    expect(model.calls.length).toBe(calls);
    expect(current()).toEqual([]);
    expect(() => memory.messages.retryParked(tokyo)).toThrow(`message ${tokyo} is not parked: it is already learned`);
  });

  it('a duplicate it confirmed only loses this message as a source', async () => {
    const first = await say('I like green tea.');
    const second = await say('Green tea is my favourite.');
    const learned = memory.messages.learning(second)!;
    expect(learned.added).toEqual([]);
    expect(learned.confirmed.map((f) => f.object)).toEqual(['green tea']);
    expect(memory.facts.list()[0]!.episode_ids.sort()).toEqual([first, second].sort());
    const report = memory.messages.undoLearning(second);
    expect(report.unconfirmed.map((f) => f.object)).toEqual(['green tea']);
    expect(report.forgotten).toEqual([]);
    expect(memory.facts.list().map((f) => [f.object, f.episode_ids])).toEqual([['green tea', [first]]]);
  });

  it('says what it did not undo when a later message built on the fact', async () => {
    await say('I live in Tokyo.');
    const osaka = await say('I moved to Osaka.');
    await say('Now I live in Kyoto.');
    const report = memory.messages.undoLearning(osaka);
    expect(report.forgotten.map((f) => f.object)).toEqual(['Osaka']);
    expect(report.reopened).toEqual([]);
    expect(report.stillClosed.map((s) => [s.fact.object, s.reason])).toEqual([['Tokyo', '“I live in Kyoto.” closes it']]);
    expect(current()).toEqual(['Kyoto']);
    expect(undoSummary(report)).toBe('forgot 1 fact; “I live in Tokyo.” stays closed: “I live in Kyoto.” closes it');
  });

  it('keeps a fact it added that the user edited since: the edit is the user\'s word', async () => {
    await say('I live in Tokyo.');
    const osaka = await say('I moved to Osaka.');
    const fact = memory.facts.list()[0]!;
    memory.facts.edit(fact.id, { fact: 'I live in Osaka, near the station.' });
    const report = memory.messages.undoLearning(osaka);
    expect(report.forgotten).toEqual([]);
    expect(report.kept.map((k) => [k.fact.fact, k.reason])).toEqual([['I live in Osaka, near the station.', 'you edited it, so your edit stays']]);
    expect(memory.facts.list().map((f) => [f.fact, f.episode_ids])).toEqual([['I live in Osaka, near the station.', []]]);
  });

  it('forgets a fact the message confirmed from the assistant: the assistant\'s word alone is not learned', async () => {
    memory.messages.append({ role: 'assistant', content: 'So your dentist is Dr. Kato?', time: '2026-08-31T09:00:00Z', conversation: 'c1', learn: false });
    const yes = await say('Yes, that is right.');
    expect(memory.facts.list().map((f) => f.episode_ids.length)).toEqual([2]);
    const report = memory.messages.undoLearning(yes);
    expect(report.forgotten.map((f) => f.object)).toEqual(['Dr. Kato']);
    expect(report.kept).toEqual([]);
    expect(memory.facts.list()).toEqual([]);
  });

  it('keeps a fact it added that another message also says', async () => {
    await say('I live in Tokyo.');
    const osaka = await say('I moved to Osaka.');
    await say('Yes, Osaka is home now.');
    const report = memory.messages.undoLearning(osaka);
    expect(report.forgotten).toEqual([]);
    expect(report.kept.map((k) => [k.fact.object, k.reason])).toEqual([['Osaka', 'another message also says it']]);
    expect(report.stillClosed.map((s) => s.fact.object)).toEqual(['Tokyo']);
    expect(current()).toEqual(['Osaka']);
  });
});
