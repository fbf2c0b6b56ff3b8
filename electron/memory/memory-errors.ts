/** What kind of bad input: the API reports it as this code (see shared/api-error.ts). */
export type MemoryInputErrorCode = 'invalid_input' | 'not_found';

/** A bad input to the memory: says what is wrong and where; nothing was changed. */
export class MemoryInputError extends Error {
  constructor(
    message: string,
    /** The field, option or location that is wrong (e.g. "invalid_at", "facts.3.valid_at", "file.jsonl:4"). */
    readonly where: string,
    /** 'not_found' when the input names something that does not exist (a fact id, say). */
    readonly code: MemoryInputErrorCode = 'invalid_input',
  ) {
    super(message);
    this.name = 'MemoryInputError';
  }
}
