/**
 * A preview (`import --dry-run`, `import-chats --dry-run`) reads the memory and writes nothing: it
 * runs on the memory opened read-only, or, where none has been stored yet, on an empty one held in
 * memory — a preview creates no directory and no store.
 */
import { existsSync } from 'node:fs';
import { databasePath, openMemory, type Memory } from '../memory/index';
import type { CommandContext } from './command';

export async function previewIn<T>(ctx: CommandContext, fn: (memory: Memory) => Promise<T>): Promise<T> {
  if (existsSync(databasePath(ctx.dataDir))) return ctx.readMemory(fn);
  const memory = openMemory({ dataDir: ':memory:' });
  try {
    return await fn(memory);
  } finally {
    memory.close();
  }
}
