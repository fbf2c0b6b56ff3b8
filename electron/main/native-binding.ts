/**
 * better-sqlite3 is a native addon, and Electron's Node has a different ABI than the system Node
 * that runs the tests and the CLI. node_modules/better-sqlite3/build stays built for Node;
 * scripts/ensure-electron.mjs builds a second copy for Electron's ABI into
 *   <repo>/build/native/electron-<version>/better_sqlite3.node            (development)
 * and packaging copies that folder to
 *   <resources>/native/electron-<version>/better_sqlite3.node            (packaged app)
 * Main hands that file to better-sqlite3 as its `nativeBinding` option. No electron import here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NATIVE_BINDING_FILE = 'better_sqlite3.node';

export interface NativeBindingContext {
  isPackaged: boolean;
  /** app.getAppPath(): the repository root in development. */
  appPath: string;
  /** process.resourcesPath: where packaged resources live. */
  resourcesPath: string;
  /** process.versions.electron */
  electronVersion: string;
}

/** Where the Electron-ABI build of better-sqlite3 is expected. Keep in sync with scripts/ensure-electron.mjs. */
export function electronNativeBindingPath(context: NativeBindingContext): string {
  const base = context.isPackaged ? join(context.resourcesPath, 'native') : join(context.appPath, 'build', 'native');
  return join(base, `electron-${context.electronVersion}`, NATIVE_BINDING_FILE);
}

/** The binding's path when the file exists; undefined otherwise (better-sqlite3 then uses its default). */
export function findNativeBinding(context: NativeBindingContext): string | undefined {
  const path = electronNativeBindingPath(context);
  return existsSync(path) ? path : undefined;
}
