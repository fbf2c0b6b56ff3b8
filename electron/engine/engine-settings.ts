/**
 * The settings file older versions kept next to the memory (settings.json: the models loaded at
 * start, the time zone, MCP over HTTP). Every setting now lives in the memory's own store (one
 * schema: shared/settings-schema.ts); the first engine to open a memory carries the file's settings
 * in and renames it settings.json.carried-over, so it is read once. A file that cannot be read stays
 * where it is and changes nothing (it never blocks start-up).
 */
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_NAMES, settingsSchema, type Settings } from '../../shared/settings-schema';
import type { Memory } from '../memory/index';

export function settingsFilePath(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/** Carries an old settings.json into the memory's settings (each value that reads as its setting), once. */
export function carryOverSettingsFile(dataDir: string, memory: Pick<Memory, 'settings'>): void {
  const path = settingsFilePath(dataDir);
  let stored: unknown;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return; // none, or not JSON
  }
  if (typeof stored !== 'object' || stored === null) return;
  const patch: Partial<Settings> = {};
  for (const name of SETTING_NAMES) {
    const read = settingsSchema.shape[name].safeParse((stored as Record<string, unknown>)[name]);
    if (name in stored && read.success) Object.assign(patch, { [name]: read.data });
  }
  memory.settings.update(patch);
  try {
    renameSync(path, `${path}.carried-over`);
  } catch {
    // another engine on this memory carried it over at the same time
  }
}
