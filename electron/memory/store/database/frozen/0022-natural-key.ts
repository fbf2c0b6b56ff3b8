/**
 * FROZEN: used only by migration 0022_timeline_natural_order. A copy of naturalKey
 * (store/natural-order.ts) as it was when that step shipped. Never edit it, never import it from
 * anywhere else: the step must fill the sort keys tomorrow exactly as it did then. The step calls it
 * as `tempora_0022_natural_key`; the triggers it creates call the live `tempora_natural_key`, which
 * every connection registers (open-database.ts), so the connection's own function is left as it is.
 */
import type { Database } from 'better-sqlite3';

/** Digit runs longer than this compare by their first MAX_RUN digits' length only. */
const MAX_RUN = 40;

/** Lower case, each digit run as one character for its length ('0' + length) then its digits. */
function naturalKey0022(text: string): string {
  return text.toLowerCase().replace(/[0-9]+/g, (run) => {
    const digits = run.replace(/^0+(?=[0-9])/, '');
    return String.fromCharCode(0x30 + Math.min(MAX_RUN, digits.length)) + digits;
  });
}

/** Registers `tempora_0022_natural_key(text)` on the migrating connection. */
export function registerNaturalKey0022(db: Database): void {
  db.function('tempora_0022_natural_key', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? naturalKey0022(text) : ''));
}
