/**
 * The app's time-zone setting and the forms' times (issue 12): editFact and closeFact take what a
 * person types ("yesterday", "2026-03"), read in the user's zone; the zone is a stored setting.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiHandlers, TemporaEngine } from '../../electron/engine/index';
import { configureTimeZone } from '../../electron/assistant/index';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-engine-tz-'));
  vi.stubEnv('TEMPORA_TZ', 'UTC');
});
afterEach(() => {
  configureTimeZone(null);
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });

describe('time settings and typed times', () => {
  it('stores the zone, applies it at the next start, and refuses an unknown one changing nothing', async () => {
    const engine = await open();
    try {
      const handlers = createApiHandlers(engine);
      expect(await handlers.timeSettings({})).toMatchObject({ timeZone: 'UTC', source: 'environment' });
      expect(await handlers.setTimeZone({ timeZone: 'Asia/Tokyo' })).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting' });
      await expect(handlers.setTimeZone({ timeZone: 'Mars/Olympus' })).rejects.toThrow('timeZone: unknown time zone "Mars/Olympus"');
      expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ timeZone: 'Asia/Tokyo' });
    } finally {
      await engine.close();
    }
    configureTimeZone(null);
    const again = await open();
    try {
      expect(await createApiHandlers(again).timeSettings({})).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting' });
      expect(await createApiHandlers(again).setTimeZone({ timeZone: null })).toMatchObject({ timeZone: 'UTC', source: 'environment' });
    } finally {
      await again.close();
    }
  });

  it('edits and closes with phrases read in the user zone, keeping their precision', async () => {
    const engine = await open();
    try {
      const handlers = createApiHandlers(engine);
      await handlers.setTimeZone({ timeZone: 'Asia/Tokyo' });
      engine.memory.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-01-10T00:00:00Z', cardinality: 'one' }]);
      const [fact] = engine.memory.listFacts();
      const edited = await handlers.editFact({ id: fact!.id, valid_at: '2026-01' });
      expect(edited).toMatchObject({ valid_at: '2025-12-31T15:00:00.000Z', valid_at_precision: 'month' });
      const closed = await handlers.closeFact({ id: edited.id, at: '2026-02-01' });
      expect(closed).toMatchObject({ invalid_at: '2026-01-31T15:00:00.000Z', invalid_at_precision: 'day' });
      await expect(handlers.closeFact({ id: closed.id, at: 'the other day' })).rejects.toThrow('at: not a time: "the other day"');
      expect(engine.memory.getFact(closed.id)!.expired_at).toBeNull();
    } finally {
      await engine.close();
    }
  });
});
