/**
 * "Memory changed" has one source: every write of the memory raises it with what changed, and the
 * engine tells the UI — also for writes that bypass the API handlers (the CLI, the worker, a test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEventEnvelope } from '../../shared/api-contract';
import { TemporaEngine } from '../../electron/engine/index';
import type { MemoryChange } from '../../electron/memory/index';

describe('memory changed', () => {
  let dir: string;
  let engine: TemporaEngine;
  const told: string[] = [];
  const changes: MemoryChange[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempora-changed-'));
    engine = await TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });
    engine.onEvent((event: ApiEventEnvelope) => {
      if (event.name === 'memoryChanged') told.push(event.payload.reason);
    });
    engine.memory.onChange((change) => changes.push(change));
  });

  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is raised once by every write, with its reason and what changed', () => {
    const memory = engine.memory;
    const observed = memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' }]);
    const fact = memory.facts.list()[0]!;
    memory.facts.edit(fact.id, { fact: 'My manager is A-san.' });
    const edited = memory.facts.list()[0]!;
    memory.facts.close(edited.id, '2026-09-20T00:00:00.000Z');
    const conversation = memory.conversations.create('Chat');
    memory.conversations.rename(conversation.id, 'Renamed');
    const [appended] = memory.messages.appendAll([{ role: 'user', content: 'hello', time: '2026-09-02T00:00:00Z', conversation: conversation.id }]);
    memory.messages.append({ role: 'user', content: 'hello', time: '2026-09-02T00:00:00Z', conversation: conversation.id });
    memory.facts.forget(edited.id);
    memory.conversations.delete(conversation.id, { forget: true });
    memory.transfer.import(memory.transfer.export(), { replace: true });

    // The repeated message is a duplicate: it changes nothing, so nothing is told.
    expect(told).toEqual(['observed', 'edit', 'close', 'conversation', 'conversation', 'message', 'forget', 'conversation deleted', 'import']);
    expect(changes.map((c) => c.kind)).toEqual(['facts', 'facts', 'facts', 'conversations', 'conversations', 'messages', 'forgotten', 'forgotten', 'imported']);
    expect(observed.factsAdded).toBe(1);
    expect(changes[0]).toMatchObject({ kind: 'facts', changes: { created: [fact.id] } });
    expect(changes[5]).toMatchObject({ kind: 'messages', episodeIds: [appended!.episode.id] });
    expect(changes[7]).toMatchObject({ kind: 'forgotten', forgotten: { episodeIds: [appended!.episode.id] } });
  });

  it('is not raised by a write that is refused', () => {
    const before = told.length;
    expect(() => engine.memory.facts.close('fct_missing', '2026-09-20T00:00:00.000Z')).toThrow(/no fact with id/);
    expect(() => engine.memory.messages.append({ role: 'user', content: ' ', time: '2026-09-02T00:00:00Z' })).toThrow(/content/);
    expect(told.length).toBe(before);
  });
});
