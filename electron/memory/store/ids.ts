import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Short, time-ordered, collision-resistant ids with a readable prefix: "fct_0m4x2k9q7c3a1d5e".
 * The first 9 characters encode milliseconds so ids created later sort later.
 */
export function newId(prefix: 'fct' | 'ent' | 'epi' | 'cnv' | 'job'): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 9; i++) {
    head = ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const bytes = randomBytes(10);
  let tail = '';
  for (const byte of bytes) tail += ALPHABET[byte % 32];
  return `${prefix}_${head}${tail}`;
}
