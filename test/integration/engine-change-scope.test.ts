/**
 * memoryChanged says what changed: the facts whose page may show something new (the versions a
 * write touched, the rest of their chains, what they closed), their entities, the message learned
 * from. A write that changed no fact says so with empty lists; an import names nothing (anything
 * may have changed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiEventEnvelope } from '../../shared/api-contract';
import { TemporaEngine } from '../../electron/engine/index';

const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };

describe('memoryChanged carries what changed', () => {
  let dir: string;
  let engine: TemporaEngine;
  const told: ApiEvent<'memoryChanged'>[] = [];
  const last = () => told[told.length - 1]!;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempora-scope-'));
    engine = await TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });
    engine.onEvent((event: ApiEventEnvelope) => {
      if (event.name === 'memoryChanged') told.push(event.payload);
    });
  });

  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the facts, entities and messages of observe, edit and close', () => {
    const memory = engine.memory;
    const observed = memory.facts.observe([
      { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' },
      { subject: 'Sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea.', reference_time: '2026-09-01T00:00:00Z' },
    ]);
    const a = memory.facts.list({ predicate: 'manager' })[0]!;
    const tea = memory.facts.list({ predicate: 'likes' })[0]!;
    expect(last()).toMatchObject({ reason: 'observed', episodeIds: observed.episodeIds });
    expect([...last().factIds!].sort()).toEqual([a.id, tea.id].sort());
    expect([...last().entityIds!].sort()).toEqual([a.subject_id, a.object_id, tea.subject_id, tea.object_id].sort());

    memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T00:00:00Z', cardinality: 'one' }]);
    const b = memory.facts.list({ predicate: 'manager' })[0]!;
    const closedA = memory.facts.list({ predicate: 'manager', history: true }).find((f) => f.object === 'A' && f.expired_at === null)!;
    // A's first version (its page may be open), A closed, B: not Sato's fact.
    expect([...last().factIds!].sort()).toEqual([a.id, closedA.id, b.id].sort());
    expect(last().factIds).not.toContain(tea.id);
    expect(last().entityIds).not.toContain(tea.subject_id);

    const edited = memory.facts.edit(b.id, { fact: 'My manager is B-san.' });
    // B's chain, and A, whose page shows what closed it.
    expect(last().reason).toBe('edit');
    expect(last().factIds).toEqual(expect.arrayContaining([b.id, edited.id, closedA.id]));
    expect(last().factIds).not.toContain(tea.id);

    memory.facts.close(tea.id, '2026-10-01T00:00:00.000Z');
    expect(last().reason).toBe('close');
    expect(last().factIds).toContain(tea.id);
    expect(last().factIds).not.toContain(b.id);
  });

  it('a learned message that changed nothing names its message and no fact', () => {
    const memory = engine.memory;
    const { episode } = memory.messages.append({ role: 'user', content: 'Nice weather today.', time: '2026-09-20T00:00:00Z' });
    expect(last()).toMatchObject({ reason: 'message', factIds: [], episodeIds: [episode.id] });
    const job = memory.jobs.claimNext()!;
    memory.messages.applyIngestion(job.id, { episodeId: episode.id, referenceTime: episode.reference_time, confirmedEpisodeId: null, facts: [] }, usage);
    expect(last()).toEqual({ reason: 'learned', factIds: [], entityIds: [], episodeIds: [episode.id], conversationIds: [] });
  });

  it('names conversations, and nothing for an import', () => {
    const memory = engine.memory;
    const conversation = memory.conversations.create('Chat');
    expect(last()).toMatchObject({ reason: 'conversation', conversationIds: [conversation.id], factIds: [] });
    memory.transfer.import(memory.transfer.export(), { replace: true });
    expect(last()).toEqual({ reason: 'import' });
  });
});
