/**
 * Names in natural order ("Person 2" before "Person 10"): a sort key where each run of digits is
 * written with its length first (leading zeros dropped), so that comparing keys as bytes compares
 * numbers by value, and letters without case. The timeline keeps it per subject and orders by it
 * (timeline_subjects.sort_key, migration 0022); the SQL function `tempora_natural_key` computes it,
 * registered on every connection as the text functions are (open-database.ts).
 */
import type { Database } from 'better-sqlite3';

/** Digit runs longer than this compare by their first MAX_RUN digits' length only (never in a name). */
const MAX_RUN = 40;

/** The key: lower case, each digit run as one character for its length ('0' + length) then its digits. */
export function naturalKey(text: string): string {
  return text.toLowerCase().replace(/[0-9]+/g, (run) => {
    const digits = run.replace(/^0+(?=[0-9])/, '');
    return String.fromCharCode(0x30 + Math.min(MAX_RUN, digits.length)) + digits;
  });
}

export function registerNaturalOrder(db: Database): void {
  db.function('tempora_natural_key', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? naturalKey(text) : ''));
}
