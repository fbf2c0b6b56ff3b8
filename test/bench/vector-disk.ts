/**
 * Where a vector directory's bytes go (issue 29: database + vectors ≤ 3 GB together at 1M): per
 * LanceDB table, its row data (`data/`), deletion files, indexes (`_indices/`), version manifests
 * and transaction files, beside what the rows need at least (rows × dimensions × bytes per value),
 * and the total with the database beside the goal. For test/bench/startup.ts.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mb } from './stats';

/** Disk in decimal gigabytes, as the issue's budget (3 GB) and disk makers count them. */
export const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;

/** Database + vectors on disk at a million facts, at most. */
export const GOAL_DISK_BYTES_AT_1M = 3e9;

export interface TableDisk {
  table: string;
  data: number;
  deletions: number;
  indices: number;
  versions: number;
  transactions: number;
  manifests: number;
}

function sizeOf(path: string): number {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

/** The bytes of each `<table>.lance` in `dir`, by part. */
export function vectorDisk(dir: string): TableDisk[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.endsWith('.lance'))
    .map((e) => {
      const at = (part: string) => sizeOf(join(dir, e, part));
      let manifests = 0;
      try {
        manifests = readdirSync(join(dir, e, '_versions')).filter((f) => f.endsWith('.manifest')).length;
      } catch {
        // no versions folder
      }
      return { table: e.slice(0, -'.lance'.length), data: at('data'), deletions: at('_deletions'), indices: at('_indices'), versions: at('_versions'), transactions: at('_transactions'), manifests };
    });
}

/** Lines for the bench: each table's parts, then database + vectors against the goal (scaled to 1M observations). */
export function formatDisk(databaseBytes: number, vectorBytes: number, tables: readonly TableDisk[], facts: number, vectorRows: number | null, dimensions: number): string[] {
  const lines = tables.map(
    (t) =>
      `    ${t.table}: data ${mb(t.data)}, indexes ${mb(t.indices)}, deletions ${mb(t.deletions)}, ${t.manifests} version(s) ${mb(t.versions)}, transactions ${mb(t.transactions)}`,
  );
  if (vectorRows !== null) lines.push(`    ${vectorRows.toLocaleString('en-US')} vectors × ${dimensions} dimensions × 2 bytes (float16) = ${mb(vectorRows * dimensions * 2)} at least`);
  const total = databaseBytes + vectorBytes;
  const at1m = facts > 0 ? (total * 1e6) / facts : total;
  const verdict = at1m <= GOAL_DISK_BYTES_AT_1M ? 'PASS' : 'MISS';
  lines.push(
    `  disk: database ${gb(databaseBytes)} + vectors ${gb(vectorBytes)} = ${gb(total)} at ${facts.toLocaleString('en-US')} observations` +
      `${facts === 1e6 ? '' : ` (≈ ${gb(at1m)} at 1M, scaled linearly)`}; goal ≤ ${gb(GOAL_DISK_BYTES_AT_1M)} at 1M: ${verdict}`,
  );
  return lines;
}
