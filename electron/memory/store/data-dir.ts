import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The app's data directory, computed the way Electron computes `app.getPath('userData')` for the
 * product name "Tempora", so the `tempora` command and the desktop app share one memory.
 * TEMPORA_DATA_DIR overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TEMPORA_DATA_DIR) return env.TEMPORA_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Tempora');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Tempora');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Tempora');
}

export function databasePath(dataDir: string): string {
  return join(dataDir, 'memory.sqlite');
}
