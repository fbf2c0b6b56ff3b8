/**
 * The two kinds of failure the `tempora` command reports without a stack trace:
 * - UsageError (exit 2): the command line itself is wrong (unknown command or option, missing argument);
 * - InputError (exit 1): the command line is well formed but what it names is bad (a date that does
 *   not exist, a file that cannot be read or is not JSON). The engine's MemoryInputError is also exit 1.
 */

export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage applies, for the hint printed after the message. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * Bad input a long-running command finds once its engine is open but before it has stored anything
 * (exit 1): a conversation that is not there, a port in use. Thrown inside withEngine, it takes back
 * a memory directory or store this run made, as a refusal before the engine opened does.
 */
export class RefusedBeforeStoring extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedBeforeStoring';
  }
}

/** A time zone from --tz or $TEMPORA_TZ that is not known (exit 1); `source` names where it came from. */
export class ZoneError extends InputError {
  constructor(
    message: string,
    readonly source: '--tz' | '$TEMPORA_TZ',
  ) {
    super(message);
    this.name = 'ZoneError';
  }
}

/** Stopped by Ctrl-C (exit 130, as a shell reports SIGINT): the message says what was done and how to finish. */
export class Interrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Interrupted';
  }
}

export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
