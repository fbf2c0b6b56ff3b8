/**
 * Review before remembering (issue 15): with the memory's setting on, what a message taught waits,
 * unapplied — no fact, nothing searchable — until it is approved (then placed by the rules exactly as
 * if it had been learned at once, in any order of approval) or rejected. Edits before approval are
 * checked (edits.N.field) and a refused one changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prepareIngest } from '../../electron/assistant/ingestion/ingest-message';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { scriptedModel, type ScriptedFact } from '../fixtures/scripted-model';

function fresh(dataDir = ':memory:'): Memory {
  return openMemory({ dataDir, clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
}

const manager = (object: string, since: string): ScriptedFact => ({ subject: 'me', predicate: 'manager', object, object_type: 'person', fact: `My manager is ${object}.`, cardinality: 'one', since, until: '' });

/** Learns one message through the real pipeline with the scripted model. */
async function learn(m: Memory, content: string, time: string, facts: ScriptedFact[]): Promise<string> {
  const { episode, job } = m.messages.append({ role: 'user', content, time, conversation: 'c1' });
  const prepared = await prepareIngest(m, scriptedModel({ extract: { [content]: facts } }), episode);
  m.messages.applyIngestion(job!.id, prepared.learning, prepared.usage);
  return episode.id;
}

const current = (m: Memory) => m.facts.list({ history: false }).map((f) => `${f.subject}|${f.predicate}|${f.object}|${f.valid_at}|${f.invalid_at}`).sort();
const history = (m: Memory) => m.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => `${f.subject}|${f.predicate}|${f.object}|${f.valid_at}|${f.invalid_at}`).sort();

describe('review before remembering', () => {
  // Dates said without a zone are read in the user's: pinned here, never the machine's.
  beforeEach(() => vi.stubEnv('TEMPORA_TZ', 'UTC'));
  afterEach(() => vi.unstubAllEnvs());

  it('is off by default; on, a learned message waits: no fact, nothing found, the job done', async () => {
    const m = fresh();
    expect(m.review.status()).toEqual({ reviewBeforeRemembering: false, waiting: 0 });
    m.review.setBeforeRemembering(true);
    const changes: string[] = [];
    m.onChange((change) => changes.push(change.kind));
    const id = await learn(m, 'My manager is Sato.', '2026-09-01T09:00:00+09:00', [manager('Sato', '2026-09-01')]);
    expect(m.facts.list({ history: true })).toEqual([]);
    expect(m.facts.search('Sato').length).toBe(0);
    expect(m.jobs.counts()).toMatchObject({ pending: 0, done: 1 });
    expect(changes).toContain('review');
    const [waiting] = m.review.pending();
    expect(waiting).toMatchObject({ episodeId: id, conversationId: 'c1', content: 'My manager is Sato.' });
    expect(waiting!.facts.map((f) => [f.subject, f.predicate, f.object, f.literal])).toEqual([['me', 'manager', 'Sato', false]]);
    expect(m.review.status()).toEqual({ reviewBeforeRemembering: true, waiting: 1 });
    m.close();
  });

  it('approved in any order, the facts are those learned at once in order', async () => {
    const plain = fresh();
    await learn(plain, 'My manager is A.', '2026-09-01T09:00:00Z', [manager('A', '2026-09-01')]);
    await learn(plain, 'My manager is B now.', '2026-09-15T09:00:00Z', [manager('B', '2026-09-15')]);

    const m = fresh();
    m.review.setBeforeRemembering(true);
    const a = await learn(m, 'My manager is A.', '2026-09-01T09:00:00Z', [manager('A', '2026-09-01')]);
    const b = await learn(m, 'My manager is B now.', '2026-09-15T09:00:00Z', [manager('B', '2026-09-15')]);
    m.review.approve(b);
    expect(current(m)).toEqual(['me|manager|B|2026-09-15T00:00:00.000Z|null']);
    m.review.approve(a);
    expect(history(m)).toEqual(history(plain));
    expect(current(m)).toEqual(current(plain));
    expect(m.review.pending()).toEqual([]);
    // the approval is that message's learning, as the chat shows it
    expect(m.messages.learning(a)?.added.map((f) => f.object)).toEqual(['A']);
    for (const x of [plain, m]) x.close();
  });

  it('approves with a fact left out and another corrected', async () => {
    const m = fresh();
    m.review.setBeforeRemembering(true);
    const likes: ScriptedFact = { subject: 'me', predicate: 'likes', object: 'tea', object_type: 'thing', fact: 'I like tea.', cardinality: 'many', since: '', until: '' };
    const id = await learn(m, 'My manager is Sato and I like tea.', '2026-09-01T09:00:00Z', [manager('Sato', '2026-09-01'), likes]);
    m.review.approve(id, [
      { index: 0, object: 'Suzuki', fact: 'My manager is Suzuki.', validAt: { at: '2026-08-01T00:00:00.000Z', precision: 'month' } },
      { index: 1, keep: false },
    ]);
    const facts = m.facts.list({ history: false });
    expect(facts.map((f) => [f.object, f.fact, f.valid_at, f.valid_at_precision])).toEqual([['Suzuki', 'My manager is Suzuki.', '2026-08-01T00:00:00.000Z', 'month']]);
    m.close();
  });

  it('refuses a bad edit naming it, and nothing changes; rejects leave nothing; twice is an error', async () => {
    const m = fresh();
    m.review.setBeforeRemembering(true);
    const id = await learn(m, 'My manager is Sato.', '2026-09-01T09:00:00Z', [manager('Sato', '2026-09-01')]);
    expect(() => m.review.approve(id, [{ index: 3, keep: false }])).toThrow('edits.0.index: there is no proposed fact 3 (this message proposes 1)');
    expect(() => m.review.approve(id, [{ index: 0, end: { at: '2026-08-01T00:00:00.000Z', precision: 'day' } }])).toThrow(/edits\.0\.end: the end .* must be after the start/);
    expect(() => m.review.approve(id, [{ index: 0 }, { index: 0 }])).toThrow('edits.1.index: fact 0 is edited twice');
    expect(m.facts.list({ history: true })).toEqual([]);
    expect(m.review.pending()).toHaveLength(1);
    m.review.reject(id);
    expect(m.review.pending()).toEqual([]);
    expect(m.facts.list({ history: true })).toEqual([]);
    expect(() => m.review.reject(id)).toThrow(`message ${id} has nothing waiting for review`);
    expect(() => m.review.approve(id)).toThrow(`message ${id} has nothing waiting for review`);
    m.close();
  });

  it('a rejected message says so and cannot be undone; a waiting one cannot be undone either', async () => {
    const m = fresh();
    m.review.setBeforeRemembering(true);
    const id = await learn(m, 'My manager is Sato.', '2026-09-01T09:00:00Z', [manager('Sato', '2026-09-01')]);
    expect(m.messages.learning(id)?.state).toBe('review');
    expect(() => m.messages.undoLearning(id)).toThrow(`message ${id} is waiting for review: nothing of it is remembered yet (reject it instead)`);
    m.review.reject(id);
    expect(m.messages.learning(id)?.state).toBe('rejected');
    expect(() => m.messages.undoLearning(id)).toThrow(new RegExp(`message ${id} was rejected in review \\(at .*\\): nothing of it was remembered`));
    expect(m.review.status().waiting).toBe(0);
    m.close();
  });

  it('a conversation that stops being remembered drops what waits from it; approving is then refused', async () => {
    const m = fresh();
    m.review.setBeforeRemembering(true);
    const id = await learn(m, 'My manager is Sato.', '2026-09-01T09:00:00Z', [manager('Sato', '2026-09-01')]);
    m.conversations.setLearning('c1', false);
    expect(m.review.pending()).toEqual([]);
    expect(() => m.review.approve(id)).toThrow(`message ${id} has nothing waiting for review`);
    expect(m.facts.list({ history: true })).toEqual([]);
    expect(m.messages.learning(id)?.state).toBe('off');
    m.close();
  });

  it('keeps the setting and what waits across a restart; forgetting the message forgets what waited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-review-'));
    try {
      let m = fresh(dir);
      m.review.setBeforeRemembering(true);
      const id = await learn(m, 'My manager is Sato.', '2026-09-01T09:00:00Z', [manager('Sato', '2026-09-01')]);
      m.close();
      m = fresh(dir);
      expect(m.review.status()).toEqual({ reviewBeforeRemembering: true, waiting: 1 });
      m.messages.forget(id);
      expect(m.review.pending()).toEqual([]);
      m.review.setBeforeRemembering(false);
      await learn(m, 'My manager is Tanaka.', '2026-09-02T09:00:00Z', [manager('Tanaka', '2026-09-02')]);
      expect(current(m)).toEqual(['me|manager|Tanaka|2026-09-02T00:00:00.000Z|null']);
      m.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
