/**
 * The app's time-zone setting and the forms' times (issue 12): editFact and closeFact take what a
 * person types ("yesterday", "2026-03"), read in the user's zone; the zone is a stored setting.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiHandlers, TemporaEngine } from '../../electron/engine/index';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-engine-tz-'));
  vi.stubEnv('TEMPORA_TZ', 'UTC');
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });

describe('time settings and typed times', () => {
  it('says when $TEMPORA_TZ is not a zone and is ignored (not silently)', async () => {
    vi.stubEnv('TEMPORA_TZ', 'Bogus/Zone');
    const engine = await open();
    try {
      const handlers = createApiHandlers(engine);
      const settings = await handlers.timeSettings({});
      expect(settings).toMatchObject({ source: 'system', ignoredEnvironment: 'Bogus/Zone' });
      expect(settings.timeZone).toBe(settings.systemTimeZone);
      // A chosen zone wins; the bad variable is still named, and a good one names nothing.
      expect(await handlers.setTimeZone({ timeZone: 'Asia/Tokyo' })).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting', ignoredEnvironment: 'Bogus/Zone' });
      vi.stubEnv('TEMPORA_TZ', 'Europe/Berlin');
      expect(await handlers.timeSettings({})).toMatchObject({ ignoredEnvironment: null });
    } finally {
      await engine.close();
    }
  });

  it('stores the zone, applies it at the next start, and refuses an unknown one changing nothing', async () => {
    const engine = await open();
    try {
      const handlers = createApiHandlers(engine);
      expect(await handlers.timeSettings({})).toMatchObject({ timeZone: 'UTC', source: 'environment' });
      expect(await handlers.setTimeZone({ timeZone: 'Asia/Tokyo' })).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting' });
      await expect(handlers.setTimeZone({ timeZone: 'Mars/Olympus' })).rejects.toThrow('timeZone: unknown time zone "Mars/Olympus"');
      expect(engine.memory.settings.read()).toMatchObject({ timeZone: 'Asia/Tokyo' });
    } finally {
      await engine.close();
    }
    const again = await open();
    try {
      expect(await createApiHandlers(again).timeSettings({})).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting' });
      expect(await createApiHandlers(again).setTimeZone({ timeZone: null })).toMatchObject({ timeZone: 'UTC', source: 'environment' });
    } finally {
      await again.close();
    }
  });

  it("keeps each engine's zone its own: setting one engine's zone changes nothing in another", async () => {
    const other = mkdtempSync(join(tmpdir(), 'tempora-engine-tz-other-'));
    const tokyo = await open();
    const berlin = await TemporaEngine.open({ dataDir: other, autoLoadModels: false, startWorker: false, timeZone: 'Europe/Berlin' });
    try {
      await createApiHandlers(tokyo).setTimeZone({ timeZone: 'Asia/Tokyo' });
      expect(await createApiHandlers(berlin).timeSettings({})).toMatchObject({ timeZone: 'Europe/Berlin', source: 'setting' });
      // "2026-09-01" is that day in each engine's zone (asked about: its end).
      expect(await createApiHandlers(tokyo).readTime({ text: '2026-09-01' })).toEqual({ at: '2026-09-01T14:59:59.998Z', precision: 'day', now: false });
      expect(await createApiHandlers(berlin).readTime({ text: '2026-09-01' })).toEqual({ at: '2026-09-01T21:59:59.998Z', precision: 'day', now: false });
    } finally {
      await tokyo.close();
      await berlin.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("carries an old settings.json into the memory's settings once, and keeps them at the next start", async () => {
    const old = { chatModelPath: '/models/chat.gguf', embeddingModelPath: null, timeZone: 'Asia/Tokyo', mcpEnabled: true };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(old, null, 2));
    const engine = await open();
    try {
      expect(await createApiHandlers(engine).timeSettings({})).toMatchObject({ timeZone: 'Asia/Tokyo', source: 'setting' });
      expect(engine.memory.settings.read()).toEqual({ ...old, mcpPort: null, reviewBeforeRemembering: false, syncTarget: null, syncDeviceName: null, syncPaused: false });
      expect(existsSync(join(dir, 'settings.json'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'settings.json.carried-over'), 'utf8'))).toEqual(old);
      await createApiHandlers(engine).setTimeZone({ timeZone: 'Europe/Berlin' });
    } finally {
      await engine.close();
    }
    const again = await open();
    try {
      // Read from the memory, not from the file carried over.
      expect(await createApiHandlers(again).timeSettings({})).toMatchObject({ timeZone: 'Europe/Berlin', source: 'setting' });
      expect(again.memory.settings.read()).toMatchObject({ chatModelPath: '/models/chat.gguf', mcpEnabled: true });
    } finally {
      await again.close();
    }
  });

  it('edits and closes with phrases read in the user zone, keeping their precision', async () => {
    const engine = await open();
    try {
      const handlers = createApiHandlers(engine);
      await handlers.setTimeZone({ timeZone: 'Asia/Tokyo' });
      engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-01-10T00:00:00Z', cardinality: 'one' }]);
      const [fact] = engine.memory.facts.list();
      const edited = await handlers.editFact({ id: fact!.id, valid_at: '2026-01' });
      expect(edited).toMatchObject({ valid_at: '2025-12-31T15:00:00.000Z', valid_at_precision: 'month' });
      const closed = await handlers.closeFact({ id: edited.id, at: '2026-02-01' });
      expect(closed).toMatchObject({ invalid_at: '2026-01-31T15:00:00.000Z', invalid_at_precision: 'day' });
      await expect(handlers.closeFact({ id: closed.id, at: 'the other day' })).rejects.toThrow('at: not a time: "the other day"');
      expect(engine.memory.facts.get(closed.id)!.expired_at).toBeNull();
    } finally {
      await engine.close();
    }
  });
});
