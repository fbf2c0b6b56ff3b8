/**
 * Segments fetched and opened before any of them is applied (a first sync in one write:
 * sync-runner.ts), kept in a scratch folder as their opened, still gzipped content — a first sync of
 * a million facts never holds its records in memory at once, only the segment being applied.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SegmentName } from './segments';

export class SegmentSpool {
  private dir: string | null = null;
  private readonly kept: { segment: SegmentName; file: string }[] = [];

  /** Keeps one opened segment's content, after those kept before it. */
  add(segment: SegmentName, plain: Uint8Array): void {
    this.dir ??= mkdtempSync(join(tmpdir(), 'tempora-first-sync-'));
    const file = join(this.dir, `${this.kept.length}`);
    writeFileSync(file, plain);
    this.kept.push({ segment, file });
  }

  /** The kept segments in order, each read from its file only when asked for. */
  *segments(): Generator<{ segment: SegmentName; read: () => Uint8Array }> {
    for (const { segment, file } of this.kept) yield { segment, read: () => readFileSync(file) };
  }

  /** Removes the scratch folder (always: the spool is never reused). */
  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}
