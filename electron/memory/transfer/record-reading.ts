/**
 * How an export file's read goes through its pieces, and how a read begun over bytes and left to the
 * text reader (json-record-bytes.ts) tells each record once: the records told the first time are
 * counted, and the second read skips that many.
 */
import { ReadCancelled } from './json-file-stream';

type Visit = (record: never, index: number) => void;

interface PieceReader<P> {
  push(piece: P): void;
  end(): void;
}

/** Every piece, then the end. */
export function drain<P>(reader: PieceReader<P>, pieces: Iterable<P>): void {
  for (const piece of pieces) reader.push(piece);
  reader.end();
}

/** The same, letting the event loop run after each piece; `signal` stops it (ReadCancelled). */
export async function drainAsync<P>(reader: PieceReader<P>, pieces: Iterable<P>, signal?: AbortSignal): Promise<void> {
  for (const piece of pieces) {
    if (signal?.aborted) throw new ReadCancelled();
    reader.push(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (signal?.aborted) throw new ReadCancelled();
  reader.end();
}

/** The record visitor's calls (its methods may be its class's). */
const KINDS = ['conversation', 'episode', 'entity', 'fact', 'claim'] as const;

/** The visitor, each of its calls wrapped by `wrap`. */
function wrapped<V extends object>(visitor: V, wrap: (visit: Visit) => Visit): V {
  const out: Record<string, Visit> = {};
  for (const kind of KINDS) {
    const visit = (visitor as Record<string, unknown>)[kind];
    if (typeof visit === 'function') out[kind] = wrap((visit as Visit).bind(visitor));
  }
  return out as V;
}

/** The visitor, and how many records it has been told. */
export function countingTold<V extends object>(visitor: V): { visitor: V; count(): number } {
  let told = 0;
  return { visitor: wrapped(visitor, (visit) => (record, index) => (told++, visit(record, index))), count: () => told };
}

/** The visitor, its first `n` records not told again. */
export function skippingTold<V extends object>(visitor: V, n: number): V {
  let seen = 0;
  return n === 0 ? visitor : wrapped(visitor, (visit) => (record, index) => (seen++ < n ? undefined : visit(record, index)));
}
