/** Typed errors of the model layer: callers branch on `code`, users read `message`. */

export type ModelLoadErrorCode = 'missing' | 'not_gguf' | 'truncated' | 'too_large' | 'load_failed';

/** A model file could not be (or should not be) loaded. The message names the file and the reason. */
export class ModelLoadError extends Error {
  override readonly name = 'ModelLoadError';
  constructor(
    readonly code: ModelLoadErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type ModelCallErrorCode = 'not_loaded' | 'prompt_too_long' | 'timeout' | 'aborted' | 'invalid_output' | 'failed';

/** A call on a loaded (or missing) model failed. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  constructor(
    readonly code: ModelCallErrorCode,
    message: string,
    options?: { cause?: unknown; output?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.output = options?.output;
  }
  /** The raw model output, when the failure is about it (`invalid_output`). */
  readonly output: string | undefined;
}

