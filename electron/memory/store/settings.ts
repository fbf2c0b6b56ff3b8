/**
 * Tempora's settings in the memory's own store (shared/settings-schema.ts: one schema, one row per
 * setting, its value as JSON). A value that does not read as its setting (written by a later
 * version, or by hand) counts as the default, and the others stay as they are.
 */
import { SETTING_NAMES, settingsSchema, type SettingName, type Settings } from '../../../shared/settings-schema';
import type { StoreContext } from './store-context';
import { cachedStatement } from './database/statement-cache';

type Db = Pick<StoreContext, 'db'>;

function readValue<K extends SettingName>(name: K, text: string | undefined): Settings[K] {
  const field = settingsSchema.shape[name];
  if (text !== undefined) {
    try {
      const read = field.safeParse(JSON.parse(text));
      if (read.success) return read.data as Settings[K];
    } catch {
      // not JSON: the default
    }
  }
  return field.parse(undefined) as Settings[K];
}

/** One setting. */
export function readSetting<K extends SettingName>(ctx: Db, name: K): Settings[K] {
  return readValue(name, cachedStatement<[string], string>(ctx.db, 'SELECT value FROM memory_settings WHERE key = ?').pluck().get(name));
}

/** Every setting. */
export function readSettings(ctx: Db): Settings {
  const rows = new Map(ctx.db.prepare<[], { key: string; value: string }>('SELECT key, value FROM memory_settings').all().map((r) => [r.key, r.value]));
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, readValue(name, rows.get(name))])) as Settings;
}

/** Writes the settings named in `patch` (checked against the schema: a wrong value changes nothing) and returns them all. */
export function writeSettings(ctx: Db, patch: Partial<Settings>): Settings {
  const next = settingsSchema.parse({ ...readSettings(ctx), ...patch });
  const upsert = ctx.db.prepare('INSERT INTO memory_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  for (const name of Object.keys(patch) as SettingName[]) if (SETTING_NAMES.includes(name)) upsert.run(name, JSON.stringify(next[name]));
  return next;
}
