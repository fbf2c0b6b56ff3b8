/**
 * The UI tests serve the built renderer (out/renderer). It is built here when it is missing or
 * older than its sources; test files run in parallel, so a lock directory makes one build for all.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const STALE_LOCK_MS = 180_000;

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isFresh(root: string): boolean {
  const index = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(index)) return false;
  const sources = Math.max(newestMtime(join(root, 'renderer')), newestMtime(join(root, 'shared')), statSync(join(root, 'electron.vite.config.ts')).mtimeMs);
  return statSync(index).mtimeMs >= sources;
}

/** Returns the renderer directory, building it first when needed. */
export async function ensureRendererBuilt(root = process.cwd()): Promise<string> {
  const out = join(root, 'out', 'renderer');
  const lock = join(root, 'out', '.renderer-build.lock');
  mkdirSync(join(root, 'out'), { recursive: true });
  const deadline = Date.now() + 240_000;
  while (!isFresh(root)) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the renderer build');
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; take over a lock left by a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 300));
      continue;
    }
    try {
      if (!isFresh(root)) await run('npx', ['electron-vite', 'build'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return out;
}
