/**
 * A time as a person types it — into the edit and close forms, a CLI option, a search's as-of —
 * read the way ingestion reads a message: "yesterday", "先週", "March 2026", "2026-09-01" (that day
 * in the user's zone), "2026-09-01T10:00" (that wall time there), or an instant with its zone.
 */
import { MemoryInputError, resolveTimeExpression, type Resolved } from '../memory/index';

/** Resolves `text` at `now` in `zone` (the user's); a MemoryInputError naming `field` when it is not a time. */
export function readTimeInput(text: string, field: string, now: string, zone: string): Resolved {
  const resolved = resolveTimeExpression(text, { instant: now, zone });
  if (resolved === null) {
    throw new MemoryInputError(`${field}: not a time: ${JSON.stringify(text)} (write a date like 2026-09-01, a time like 2026-09-01T10:00, or a phrase like "yesterday" or "先週")`, field);
  }
  return resolved;
}
