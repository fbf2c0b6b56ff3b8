/**
 * Conversations that are not remembered (kept, never learned; switching later can take back what was
 * learned), titles from the first message (a rename by the user wins), and the parked messages:
 * listed with their conversation and error, retried one at a time.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerTextFunctions } from '../../electron/memory/text-search/fts-index';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { scriptedModel, type ScriptedModel } from '../fixtures/scripted-model';

const likes = (thing: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'likes', object: thing, object_type: 'thing' as const, fact: `I like ${thing}.` }];

let memory: Memory;
let model: ScriptedModel;

async function learnAll(): Promise<void> {
  const worker = new IngestionWorker(memory, { model: () => model });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
}

const say = (content: string, conversation: string, time = '2026-09-01T09:00:00Z') => memory.messages.append({ role: 'user', content, time, conversation }).episode;

describe('conversations that are not remembered', () => {
  beforeEach(() => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    model = scriptedModel({ extract: { 'I like tea.': likes('tea'), 'I like jazz.': likes('jazz'), 'I like chess.': likes('chess') }, failOn: 'broken' });
  });
  afterEach(() => {
    memory.close();
    vi.unstubAllEnvs();
  });

  it('keeps its messages and learns none of them: no job, nothing learned, the state says off', async () => {
    const c = memory.conversations.create('Private');
    memory.conversations.setLearning(c.id, false);
    const message = say('I like tea.', c.id);
    expect(memory.jobs.byEpisode(message.id)).toBeUndefined();
    await learnAll();
    expect(model.calls).toEqual([]);
    expect(memory.facts.list()).toEqual([]);
    expect(memory.conversations.messages(c.id).map((m) => [m.content, m.learning?.state])).toEqual([['I like tea.', 'off']]);
    expect(memory.conversations.list().find((x) => x.id === c.id)!.learn).toBe(false);
  });

  it('turned off later: takes pending jobs off the queue, and with forget undoes what was learned, keeping the messages', async () => {
    const c = memory.conversations.create('Chat');
    const other = memory.conversations.create('Other');
    say('I like tea.', c.id);
    say('I like chess.', other.id);
    await learnAll();
    const waiting = say('I like jazz.', c.id, '2026-09-02T09:00:00Z');
    expect(memory.facts.list().map((f) => f.object).sort()).toEqual(['chess', 'tea']);

    const result = memory.conversations.setLearning(c.id, false, { forget: true });
    expect(result).toMatchObject({ learn: false, undoneMessages: 1, forgottenFacts: 1 });
    expect(result.forgottenVersions).toHaveLength(1);
    expect(memory.jobs.byEpisode(waiting.id)).toBeUndefined();
    await learnAll();
    // The other conversation's fact stays; this one's messages stay, never learned again.
    expect(memory.facts.list().map((f) => f.object)).toEqual(['chess']);
    expect(memory.conversations.messages(c.id).map((m) => [m.content, m.learning?.state])).toEqual([
      ['I like tea.', 'undone'],
      ['I like jazz.', 'off'],
    ]);
    // On again: new messages are learned; what was said while off stays unlearned.
    memory.conversations.setLearning(c.id, true);
    say('I like jazz.', c.id, '2026-09-03T09:00:00Z');
    await learnAll();
    expect(memory.facts.list().map((f) => f.object).sort()).toEqual(['chess', 'jazz']);
  });

  it('refuses an unknown conversation in words', () => {
    expect(() => memory.conversations.setLearning('cnv_nope', false)).toThrow('no conversation with id cnv_nope');
  });

  it('a message learned after its conversation was turned off mid-way is not applied', async () => {
    const c = memory.conversations.create('Chat');
    const message = say('I like tea.', c.id);
    const job = memory.jobs.claimNext()!;
    memory.conversations.setLearning(c.id, false);
    const changes = memory.messages.applyIngestion(job.id, { episodeId: message.id, referenceTime: message.reference_time, confirmedEpisodeId: null, facts: [] }, { modelCalls: 1, promptTokens: 1, completionTokens: 1 });
    expect(changes.inserted).toEqual([]);
    expect(memory.jobs.byEpisode(message.id)).toBeUndefined();
    expect(memory.messages.learning(message.id)!.state).toBe('off');
  });
});

describe('conversation titles', () => {
  beforeEach(() => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
  });
  afterEach(() => memory.close());

  it('an untitled conversation takes its first message, first line, at most 60 characters; later ones leave it', () => {
    const c = memory.conversations.create();
    expect(memory.episodes.conversation(c.id)!.title).toBe('New conversation');
    say(`  My   sister Hana moves to Sapporo next spring, and I will visit her there in May.\nSecond line`, c.id);
    say('Another thing.', c.id, '2026-09-02T09:00:00Z');
    const title = memory.episodes.conversation(c.id)!.title;
    expect(title).toBe('My sister Hana moves to Sapporo next spring, and I will vis…');
    expect([...title]).toHaveLength(60);
  });

  it('migration 0012 names older "New conversation"s after their first user message, and keeps their learning as learned', () => {
    memory.close();
    const dir = mkdtempSync(join(tmpdir(), 'tempora-0012-'));
    try {
      const db = new Database(join(dir, 'memory.sqlite'));
      registerTextFunctions(db);
      migrate(db, migrations.slice(0, 11));
      const t = '2026-09-01T00:00:00.000Z';
      db.exec(`INSERT INTO conversations (id, title, created_at) VALUES ('c1', 'New conversation', '${t}'), ('c2', 'New conversation', '${t}'), ('c3', 'Named', '${t}');
        INSERT INTO episodes (id, conversation_id, role, content, reference_time, created_at) VALUES
          ('e0', 'c1', 'assistant', 'Hello!', '${t}', '${t}'), ('e1', 'c1', 'user', 'Plans for Kyoto
in spring', '2026-09-01T00:01:00.000Z', '${t}'), ('e3', 'c3', 'user', 'Hi', '${t}', '${t}');
        INSERT INTO ingestion_jobs (id, episode_id, status, created_at, updated_at) VALUES ('j1', 'e1', 'done', '${t}', '${t}');`);
      db.close();
      memory = openMemory({ dataDir: dir });
      expect(memory.conversations.list().map((c) => [c.id, c.title, c.learn]).sort()).toEqual([
        ['c1', 'Plans for Kyoto', true],
        ['c2', 'New conversation', true],
        ['c3', 'Named', true],
      ]);
      expect(memory.messages.learning('e1')).toMatchObject({ state: 'learned', recorded: false, canUndo: false });
      // c2 had no message yet: its first one names it.
      say('First words here', 'c2');
      expect(memory.episodes.conversation('c2')!.title).toBe('First words here');
    } finally {
      memory.close();
      rmSync(dir, { recursive: true, force: true });
      memory = openMemory({ dataDir: ':memory:' });
    }
  });

  it('a title given, or a rename by the user, wins over the first message', () => {
    const given = memory.conversations.create('Trip plans');
    say('Hello there', given.id);
    expect(memory.episodes.conversation(given.id)!.title).toBe('Trip plans');
    const renamed = memory.conversations.create();
    memory.conversations.rename(renamed.id, '日本語のタイトル');
    say('Hello again', renamed.id);
    expect(memory.episodes.conversation(renamed.id)!.title).toBe('日本語のタイトル');
  });
});

describe('parked messages', () => {
  beforeEach(() => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    model = scriptedModel({ extract: { 'I like tea.': likes('tea') }, failOn: 'broken' });
  });
  afterEach(() => {
    memory.close();
    vi.unstubAllEnvs();
  });

  it('lists each parked message with its text, conversation and error, and retries one', async () => {
    const c = memory.conversations.create('Evening chat');
    const broken = say('this one is broken', c.id);
    say('I like tea.', c.id, '2026-09-02T09:00:00Z');
    await learnAll();
    const parked = memory.messages.parked();
    expect(parked).toEqual([
      expect.objectContaining({ episodeId: broken.id, conversationId: c.id, conversationTitle: 'Evening chat', content: 'this one is broken', error: 'scripted failure for "this one is broken"', attempts: 3 }),
    ]);
    expect(memory.messages.learning(broken.id)).toMatchObject({ state: 'parked', error: 'scripted failure for "this one is broken"' });

    memory.messages.retryParked(broken.id);
    expect(memory.messages.learning(broken.id)!.state).toBe('pending');
    expect(memory.messages.parked()).toEqual([]);
    expect(() => memory.messages.retryParked(broken.id)).toThrow(`message ${broken.id} is not parked: it is waiting already`);
    expect(() => memory.messages.retryParked('epi_nope')).toThrow('no message with id epi_nope');
  });
});
