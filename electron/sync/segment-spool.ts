/**
 * Segments fetched and opened before any of them is applied (a first sync in one write:
 * sync-runner.ts), kept in a scratch folder as their opened, still gzipped content — a first sync of
 * a million facts never holds its records in memory at once, only the segment being applied.
 *
 * The folder is beside the memory (`memory.sqlite.sync-spool/<pid>-*`, given by SyncMemory.spoolDir):
 * on the disk that holds the memory, not in the system's temporary folder, which on many Linux
 * systems is kept in RAM (a million facts spool over a gigabyte). A spool a killed process left is
 * removed by the next first sync on that memory.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SegmentName } from './segments';

/** The scratch folder could not be written (a full disk, a read-only or missing folder), in words. */
export class SpoolError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'SpoolError';
  }
}

export class SegmentSpool {
  private dir: string | null = null;
  private readonly kept: { segment: SegmentName; file: string }[] = [];

  /** `parent`: the folder the spools of this memory go in (made when first needed). */
  constructor(private readonly parent: string) {}

  /** Keeps one opened segment's content, after those kept before it; the file it is kept in. */
  add(segment: SegmentName, plain: Uint8Array): string {
    let file: string;
    try {
      this.dir ??= this.create();
      file = join(this.dir, `${this.kept.length}`);
      writeFileSync(file, plain);
    } catch (error) {
      throw spoolErrorOf(error, this.parent);
    }
    this.kept.push({ segment, file });
    return file;
  }

  /** The kept segments in order, each with the file holding its content. */
  segments(): { segment: SegmentName; file: string }[] {
    return [...this.kept];
  }

  /** Removes the scratch folder (always: the spool is never reused). */
  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  private create(): string {
    mkdirSync(this.parent, { recursive: true });
    removeAbandoned(this.parent);
    return mkdtempSync(join(this.parent, `${process.pid}-`));
  }
}

/** Spools whose process is gone (killed mid-sync). Best effort: one that cannot be removed now is left for the next. */
function removeAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // held open elsewhere (Windows): the next first sync tries again
    }
  }
}

/** Whether process `pid` runs on this machine (one of another user's counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function spoolErrorOf(error: unknown, parent: string): SpoolError {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `the folder ${parent}`;
  const nothing = 'nothing was applied';
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new SpoolError(`The disk holding ${where} is full: a first sync sets the segments it downloads aside there before applying them, and ${nothing}. Free some space and sync again.`, { cause: error });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new SpoolError(`Tempora may not write in ${where}, where a first sync sets the segments it downloads aside; ${nothing}.`, { cause: error });
    default:
      return new SpoolError(`A first sync could not set the segments it downloads aside in ${where} (${(error as Error).message}); ${nothing}.`, { cause: error });
  }
}
