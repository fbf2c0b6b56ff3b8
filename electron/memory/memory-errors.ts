/** A bad input to the memory: says what is wrong and where; nothing was changed. */
export class MemoryInputError extends Error {
  constructor(
    message: string,
    /** The field, option or location that is wrong (e.g. "invalid_at", "facts.3.valid_at", "file.jsonl:4"). */
    readonly where: string,
  ) {
    super(message);
    this.name = 'MemoryInputError';
  }
}
