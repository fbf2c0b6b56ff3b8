/**
 * Segments fetched and opened before any of them is applied (a first sync in one write:
 * sync-runner.ts), kept in a scratch folder as their opened, still gzipped content — a first sync of
 * a million facts never holds its records in memory at once, only the segment being applied.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SegmentName } from './segments';

export class SegmentSpool {
  private dir: string | null = null;
  private readonly kept: { segment: SegmentName; file: string }[] = [];

  /** Keeps one opened segment's content, after those kept before it; the file it is kept in. */
  add(segment: SegmentName, plain: Uint8Array): string {
    this.dir ??= mkdtempSync(join(tmpdir(), 'tempora-first-sync-'));
    const file = join(this.dir, `${this.kept.length}`);
    writeFileSync(file, plain);
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
}
