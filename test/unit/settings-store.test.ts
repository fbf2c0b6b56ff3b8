/**
 * Every setting in one store with one schema (shared/settings-schema.ts, memory_settings): defaults
 * on a fresh memory, written and read back through the Memory, a value the schema refuses changes
 * nothing, and a stored value that does not read as its setting counts as the default alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, type Memory } from '../../electron/memory/index';

let dir: string;
let memory: Memory;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-settings-'));
  memory = openMemory({ dataDir: dir });
});
afterEach(() => {
  memory.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the settings store', () => {
  it('starts with the defaults, and keeps what is written across a reopen', () => {
    expect(memory.settings.read()).toEqual({ chatModelPath: null, embeddingModelPath: null, timeZone: null, mcpEnabled: false, mcpPort: null, reviewBeforeRemembering: false, syncTarget: null, syncDeviceName: null, syncPaused: false });
    expect(memory.settings.update({ timeZone: 'Asia/Tokyo', mcpEnabled: true })).toMatchObject({ timeZone: 'Asia/Tokyo', mcpEnabled: true, chatModelPath: null });
    memory.review.setBeforeRemembering(true);
    memory.close();
    memory = openMemory({ dataDir: dir });
    expect(memory.settings.read()).toMatchObject({ timeZone: 'Asia/Tokyo', mcpEnabled: true, reviewBeforeRemembering: true });
    expect(memory.review.status().reviewBeforeRemembering).toBe(true);
  });

  it('refuses a value of the wrong kind, changing nothing', () => {
    memory.settings.update({ timeZone: 'Asia/Tokyo' });
    expect(() => memory.settings.update({ timeZone: 42 as unknown as string, mcpEnabled: true })).toThrow();
    expect(memory.settings.read()).toMatchObject({ timeZone: 'Asia/Tokyo', mcpEnabled: false });
  });

  it('reads a stored value that is not its setting as the default, the others as they are', () => {
    memory.settings.update({ timeZone: 'Europe/Berlin' });
    memory.close();
    const db = new Database(join(dir, 'memory.sqlite'));
    db.prepare("INSERT OR REPLACE INTO memory_settings (key, value) VALUES ('mcpEnabled', 'not json'), ('chatModelPath', '7')").run();
    db.close();
    memory = openMemory({ dataDir: dir });
    expect(memory.settings.read()).toMatchObject({ timeZone: 'Europe/Berlin', mcpEnabled: false, chatModelPath: null });
  });
});
