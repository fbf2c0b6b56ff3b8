/**
 * Review before remembering over the API (what IPC and the bridge call): the setting, what waits,
 * an approval with times typed as people type them (read in the user's zone), an end before the
 * start refused in words with both times in that zone, and a rejection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prepareIngest } from '../../electron/assistant/ingestion/ingest-message';
import { createApiHandlers, dispatchCall } from '../../electron/engine/api-handlers';
import { TemporaEngine } from '../../electron/engine/engine';
import { scriptedModel } from '../fixtures/scripted-model';

const root = mkdtempSync(join(tmpdir(), 'tempora-review-api-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'Asia/Tokyo');
  vi.stubEnv('LANCEDB_LOG', 'error');
});
afterEach(() => vi.unstubAllEnvs());

describe('review over the API', () => {
  it('turns on, lists, approves with typed times, refuses an end before the start, rejects', async () => {
    const engine = await TemporaEngine.open({ dataDir: join(root, 'd'), autoLoadModels: false, startWorker: false });
    const handlers = createApiHandlers(engine);
    const call = (name: string, req: unknown = {}) => dispatchCall(handlers, name, req);
    try {
      expect(await call('setReviewBeforeRemembering', { enabled: true })).toEqual({ reviewBeforeRemembering: true, waiting: 0 });
      const ids: string[] = [];
      for (const [content, object] of [['My manager is Sato.', 'Sato'], ['My manager is Kato.', 'Kato']] as const) {
        const model = scriptedModel({ extract: { [content]: [{ subject: 'me', predicate: 'manager', object, object_type: 'person', fact: content, cardinality: 'one' }] } });
        const { episode, job } = engine.memory.messages.append({ role: 'user', content, time: '2026-09-01T09:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: 'c1' });
        const prepared = await prepareIngest(engine.memory, model, episode);
        engine.memory.messages.applyIngestion(job!.id, prepared.learning, prepared.usage);
        ids.push(episode.id);
      }
      const pending = (await call('pendingReviews')) as { episodeId: string; facts: { object: string }[] }[];
      // The newest message first.
      expect(pending.map((p) => [p.episodeId, p.facts.map((f) => f.object)])).toEqual([
        [ids[1], ['Kato']],
        [ids[0], ['Sato']],
      ]);
      await expect(call('approveReview', { episodeId: ids[0], edits: [{ index: 0, validAt: '2026-09', end: '2026-08-15' }] })).rejects.toThrow(
        'edits.0: the end (15 Aug 2026) must be after valid_at (September 2026), times in Asia/Tokyo',
      );
      await expect(call('approveReview', { episodeId: ids[0], edits: [{ index: 0, validAt: 'next blue moon' }] })).rejects.toThrow('edits.0.validAt: not a time: "next blue moon"');
      expect(engine.memory.facts.list({ history: true })).toEqual([]);
      const approved = (await call('approveReview', { episodeId: ids[0], edits: [{ index: 0, validAt: '2026-08' }] })) as { factIds: string[]; waiting: number };
      expect(approved.waiting).toBe(1);
      expect(approved.factIds.map((id) => engine.memory.facts.get(id)?.valid_at)).toEqual(['2026-07-31T15:00:00.000Z']);
      expect(await call('rejectReview', { episodeId: ids[1] })).toEqual({ episodeId: ids[1], factIds: [], waiting: 0 });
      await expect(call('rejectReview', { episodeId: ids[1] })).rejects.toThrow(`message ${ids[1]} has nothing waiting for review`);
      expect(engine.memory.facts.list().map((f) => f.object)).toEqual(['Sato']);
    } finally {
      await engine.close();
    }
  });

  it('reads an edited end without a year as still to come where the last one is before the start', async () => {
    // The engine keeps the system's clock: 15 June 2026 in Tokyo for this test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T01:00:00.000Z'));
    const engine = await TemporaEngine.open({ dataDir: join(root, 'ahead'), autoLoadModels: false, startWorker: false });
    const call = (name: string, req: unknown = {}) => dispatchCall(createApiHandlers(engine), name, req);
    try {
      await call('setReviewBeforeRemembering', { enabled: true });
      const ids: string[] = [];
      for (const [content, object] of [['I am in Osaka for work.', 'Osaka'], ['I take piano lessons.', 'piano']] as const) {
        const model = scriptedModel({ extract: { [content]: [{ subject: 'me', predicate: object === 'Osaka' ? 'located_in' : 'takes', object, object_type: 'literal', fact: content }] } });
        const { episode, job } = engine.memory.messages.append({ role: 'user', content, time: '2026-06-15T10:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: 'c1' });
        const prepared = await prepareIngest(engine.memory, model, episode);
        engine.memory.messages.applyIngestion(job!.id, prepared.learning, prepared.usage);
        ids.push(episode.id);
      }
      // Said in June: "11月" would be last November, before the start: this November, held through it.
      const osaka = (await call('approveReview', { episodeId: ids[0], edits: [{ index: 0, end: '11月' }] })) as { factIds: string[] };
      expect(osaka.factIds.map((id) => [engine.memory.facts.get(id)?.invalid_at, engine.memory.facts.get(id)?.invalid_at_precision])).toEqual([['2026-11-30T14:59:59.999Z', 'month']]);
      // With the start moved to 2025, last March is after it: last March.
      const piano = (await call('approveReview', { episodeId: ids[1], edits: [{ index: 0, validAt: '2025-01', end: '3月' }] })) as { factIds: string[] };
      expect(piano.factIds.map((id) => engine.memory.facts.get(id)?.invalid_at)).toEqual(['2026-02-28T15:00:00.000Z']);
    } finally {
      await engine.close();
      vi.useRealTimers();
    }
  });
});
