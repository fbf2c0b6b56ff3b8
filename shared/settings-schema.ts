/**
 * Every setting of Tempora, one schema: the models loaded at start, the user's time zone, MCP over
 * HTTP in the app, review before remembering, where this device syncs to. They are kept in the memory's own store
 * (memory_settings, one row per setting, its value as JSON: electron/memory/store/settings.ts), so
 * every door — the app, the `tempora` command, MCP — reads and writes the same ones.
 */
import { z } from 'zod';
import { storedSyncTargetSchema } from './sync-target-config';

export const settingsSchema = z.object({
  /** The chat model loaded at start (the one used last), or null. */
  chatModelPath: z.string().nullable().default(null),
  /** The embedding model loaded at start (the one used last), or null. */
  embeddingModelPath: z.string().nullable().default(null),
  /** The zone chosen in the app (null: $TEMPORA_TZ, else the system's). */
  timeZone: z.string().nullable().default(null),
  /** Whether the desktop app serves MCP over Streamable HTTP on 127.0.0.1 (off unless turned on). */
  mcpEnabled: z.boolean().default(false),
  /** The port it served on last, asked for again at the next start so the URL given to agents keeps working (null: none yet). */
  mcpPort: z.number().int().min(1).max(65535).nullable().default(null),
  /** Whether what the model learns from a message waits for the user's review before it is remembered. */
  reviewBeforeRemembering: z.boolean().default(false),
  /** Where this device syncs to, without its secrets (shared/sync-target-config.ts); null: sync not set up. */
  syncTarget: storedSyncTargetSchema.nullable().default(null),
  /**
   * This device's name as other devices see it (null: the computer's name): the one name Settings →
   * Sync and `tempora sync --name` both read and write, each through the memory's sync room
   * (memory/sync/sync-store.ts known, setDeviceName: it refuses a name another device has and sends a
   * new one at the next sync), never as a plain setting.
   */
  syncDeviceName: z.string().trim().min(1).max(100).nullable().default(null),
  /** Whether sync is paused on this device (Settings → Sync, Pause). */
  syncPaused: z.boolean().default(false),
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingName = keyof Settings;

export const SETTING_NAMES = Object.keys(settingsSchema.shape) as SettingName[];
