/**
 * The better-sqlite3 addon to load: the one passed (the app's Electron build), else
 * $TEMPORA_SQLITE_BINDING (the packaged `tempora` command names it), else the default (undefined).
 * Every connection of the memory opens with it: the store's, the export's reader, the bulk-load worker's.
 */
export function sqliteBinding(nativeBinding: string | undefined): string | undefined {
  return nativeBinding || process.env['TEMPORA_SQLITE_BINDING'] || undefined;
}
