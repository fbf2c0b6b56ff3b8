import { describe, expect, it } from 'vitest';
import { openMemory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { isoFromMs, toIsoUtc } from '../../shared/time';

const usage = { modelCalls: 1, promptTokens: 10, completionTokens: 1 };

describe('the backfill of imported messages', () => {
  it('measures the rate over the last ten minutes and the time left; live jobs go first and are not counted', () => {
    let t = Date.parse('2026-11-01T00:00:00Z');
    const memory = openMemory({ dataDir: ':memory:', clock: { now: () => isoFromMs(t) } });
    const messages = [1, 2, 3, 4, 5].map((i) => ({ sourceId: `m${i}`, role: 'user' as const, content: `message ${i}`, time: toIsoUtc(`2024-01-0${i}T10:00:00Z`), learn: true }));
    memory.history.importConversations([{ source: 'claude', sourceId: 'c1', title: 'T', messages }]);
    memory.messages.append({ role: 'user', content: 'live one', time: '2026-11-01T00:00:00Z', conversation: 'live' });
    const jobs = storeOf(memory).jobs;
    const claimed: string[] = [];
    const work = () => {
      const job = jobs.claimNext()!;
      claimed.push(memory.episodes.byId(job.episode_id)!.content);
      jobs.complete(job.id, usage, { added: 0, closed: 0 });
    };
    work(); // the live message, first though stored last
    t -= 20 * 60_000; // an imported message learned long ago: outside the window
    work();
    t += 20 * 60_000;
    expect(memory.history.backfillStatus()).toMatchObject({ total: 5, done: 1, pending: 4, perMinute: null, secondsLeft: null });
    for (const step of [0, 30_000, 30_000]) {
      t += step;
      work();
    }
    expect(claimed).toEqual(['live one', 'message 1', 'message 2', 'message 3', 'message 4']);
    // 3 learned in the window, over 60 s: 2 a minute; 1 left: 30 s.
    expect(memory.history.backfillStatus()).toEqual({ paused: false, total: 5, done: 4, pending: 1, running: 0, parked: 0, cancelled: 0, perMinute: 2, secondsLeft: 30 });
    memory.history.setBackfillPaused(true);
    expect(jobs.claimNext()).toBeUndefined();
    expect(jobs.claimable()).toBe(0);
    memory.messages.append({ role: 'user', content: 'live two', time: '2026-11-01T00:05:00Z', conversation: 'live' });
    expect(jobs.claimable()).toBe(1);
    expect(memory.episodes.byId(jobs.claimNext()!.episode_id)!.content).toBe('live two');
    memory.close();
  });
});
