import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TAIL_BYTES = 10;
/** Random bytes drawn 4 KiB at a time: a call into the system's generator per id cost ~6 µs (a sync writes 40k ids). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** The last id's millisecond part and random digits: ids drawn within one millisecond count up from it. */
let lastHead = '';
const lastTail: number[] = new Array<number>(TAIL_BYTES).fill(0);

/**
 * Short, time-ordered, collision-resistant ids with a readable prefix: "fct_0m4x2k9q7c3a1d5e".
 * The first 9 characters encode milliseconds so ids created later sort later; within one
 * millisecond the random part counts up from the id before (the versions one write makes are
 * listed and exported in the order they were made, not by chance).
 */
export function newId(prefix: 'fct' | 'ent' | 'epi' | 'cnv' | 'job'): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 9; i++) {
    head = ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  if (head !== lastHead || !countUp(lastTail)) {
    const at = drawn(TAIL_BYTES);
    for (let i = 0; i < TAIL_BYTES; i++) lastTail[i] = pool[at + i]! % 32;
    lastHead = head;
  }
  let tail = '';
  for (const digit of lastTail) tail += ALPHABET[digit];
  return `${prefix}_${head}${tail}`;
}

/** Adds one to base-32 digits, the last the lowest; false when they were all 31 (nothing is left to count). */
function countUp(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i]! += 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

/**
 * A claim's id on every device (sync): 32 hex digits, as the claims' insert trigger would draw them
 * (migration 0029) — drawn here, the trigger finds it set and does not write the row a second time.
 */
export function newSyncId(): string {
  const at = drawn(16);
  return pool.toString('hex', at, at + 16);
}

/** Where `count` fresh random bytes start in the pool. */
function drawn(count: number): number {
  if (poolAt + count > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += count;
  return poolAt - count;
}
