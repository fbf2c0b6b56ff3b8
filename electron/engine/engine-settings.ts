/** The app's own settings file (which models to load at start, the time zone, MCP over HTTP), next to the memory. */
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

const settingsSchema = z.object({
  chatModelPath: z.string().nullable().default(null),
  embeddingModelPath: z.string().nullable().default(null),
  /** The zone chosen in the app (null: $TEMPORA_TZ, else the system's). */
  timeZone: z.string().nullable().default(null),
  /** Whether the desktop app serves MCP over Streamable HTTP on 127.0.0.1 (off unless turned on). */
  mcpEnabled: z.boolean().default(false),
});
export type EngineSettings = z.infer<typeof settingsSchema>;

export function settingsPath(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/** Reads settings; a missing or unreadable file gives the defaults (and never blocks start-up). */
export function readSettings(dataDir: string): EngineSettings {
  try {
    return settingsSchema.parse(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8')));
  } catch {
    return settingsSchema.parse({});
  }
}

export function writeSettings(dataDir: string, settings: EngineSettings): void {
  const path = settingsPath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(settings, null, 2));
  renameSync(temp, path);
}
