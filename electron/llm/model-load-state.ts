/**
 * A tiny JSON file remembering the last load attempt of each model file, so the app never auto-loads
 * a model that failed last time. An attempt is recorded as 'loading' *before* the native load starts:
 * if the process dies inside llama.cpp (out of memory, a crash), the record stays 'loading' and
 * counts as a failure on the next start. Replacing the file (different size or mtime) clears the verdict.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type LoadRole = 'chat' | 'embedding';
export type LoadStatus = 'loading' | 'ok' | 'failed';

export interface LoadAttempt {
  role: LoadRole;
  status: LoadStatus;
  at: string;
  /** Size and mtime of the file when it was attempted. */
  sizeBytes: number | null;
  mtimeMs: number | null;
  error?: { code: string; message: string };
}

interface StateFile {
  version: 1;
  attempts: Record<string, LoadAttempt>;
}

function fileIdentity(path: string): { sizeBytes: number | null; mtimeMs: number | null } {
  try {
    const stats = statSync(path);
    return { sizeBytes: stats.size, mtimeMs: Math.floor(stats.mtimeMs) };
  } catch {
    return { sizeBytes: null, mtimeMs: null };
  }
}

export class ModelLoadState {
  constructor(readonly statePath: string) {}

  private read(): StateFile {
    try {
      const parsed = JSON.parse(readFileSync(this.statePath, 'utf8')) as Partial<StateFile>;
      if (parsed && parsed.version === 1 && parsed.attempts && typeof parsed.attempts === 'object') return parsed as StateFile;
    } catch {
      // missing or unreadable: start empty
    }
    return { version: 1, attempts: {} };
  }

  private write(state: StateFile): void {
    mkdirSync(dirname(this.statePath), { recursive: true });
    const temp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(temp, this.statePath);
  }

  private record(path: string, attempt: Omit<LoadAttempt, 'at' | 'sizeBytes' | 'mtimeMs'>): void {
    const file = resolve(path);
    const state = this.read();
    state.attempts[file] = { ...attempt, at: new Date().toISOString(), ...fileIdentity(file) };
    this.write(state);
  }

  recordLoading(path: string, role: LoadRole): void {
    this.record(path, { role, status: 'loading' });
  }

  recordLoaded(path: string, role: LoadRole): void {
    this.record(path, { role, status: 'ok' });
  }

  recordFailed(path: string, role: LoadRole, error: { code: string; message: string }): void {
    this.record(path, { role, status: 'failed', error: { code: error.code, message: error.message } });
  }

  lastAttempt(path: string): LoadAttempt | null {
    return this.read().attempts[resolve(path)] ?? null;
  }

  /**
   * False when the last attempt on this very file failed or never finished; true when it succeeded,
   * was never tried, or the file has been replaced since.
   */
  shouldAutoLoad(path: string): boolean {
    const last = this.lastAttempt(path);
    if (!last || last.status === 'ok') return true;
    const now = fileIdentity(resolve(path));
    const replaced = now.sizeBytes !== last.sizeBytes || now.mtimeMs !== last.mtimeMs;
    return replaced && now.sizeBytes !== null;
  }
}
