/** What kind of bad input: the API reports it as this code (see shared/api-error.ts). */
export type MemoryInputErrorCode = 'invalid_input' | 'not_found';

/**
 * An instant a refusal names, which the memory cannot say in the user's zone (it does not know it):
 * `words` builds the message around the instant as said; a face that knows the zone calls it with
 * the instant in words (the CLI does), the message itself holds it as its UTC ISO time.
 */
export interface RefusalInstant {
  at: string;
  words: (when: string) => string;
}

/** A bad input to the memory: says what is wrong and where; nothing was changed. */
export class MemoryInputError extends Error {
  constructor(
    message: string,
    /** The field, option or location that is wrong (e.g. "invalid_at", "facts.3.valid_at", "file.jsonl:4"). */
    readonly where: string,
    /** 'not_found' when the input names something that does not exist (a fact id, say). */
    readonly code: MemoryInputErrorCode = 'invalid_input',
    /** The instant the message names, for a face to say in the user's zone. */
    readonly instant?: RefusalInstant,
  ) {
    super(message);
    this.name = 'MemoryInputError';
  }

  /** A refusal naming an instant (see RefusalInstant). */
  static at(at: string, words: (when: string) => string, where: string): MemoryInputError {
    return new MemoryInputError(words(at), where, 'invalid_input', { at, words });
  }
}

/** Why the storage refused a write: its disk is full, or it cannot be written where it is. */
export type MemoryStorageErrorCode = 'disk_full' | 'read_only';

/**
 * The storage refused a write (SQLite's SQLITE_FULL, SQLITE_READONLY): said in words, and true —
 * the write's transaction was rolled back, so nothing of it was stored.
 */
export class MemoryStorageError extends Error {
  constructor(
    readonly code: MemoryStorageErrorCode,
    options: { cause?: unknown } = {},
  ) {
    super(
      code === 'disk_full'
        ? 'the disk is full; nothing was stored (free some space and try again)'
        : 'this memory cannot be written where it is (read-only media, or no permission); nothing was stored — reading it (facts, search, export) still works',
      options,
    );
    this.name = 'MemoryStorageError';
  }
}

/** `error` as a MemoryStorageError when the storage refused a write, else `error` itself. */
export function storageErrorOf(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL') return new MemoryStorageError('disk_full', { cause: error });
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) return new MemoryStorageError('read_only', { cause: error });
  return error;
}

/** Another process held the memory's write lock past the busy timeout (SQLITE_BUSY and its kinds): worth trying again later. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
