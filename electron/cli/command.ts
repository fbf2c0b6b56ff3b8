/**
 * What every command is made of: its options (for node:util parseArgs), its help text, and the
 * function that runs it with a context giving the parsed values, the output and the memory.
 */
import { accessSync, constants as fsConstants } from 'node:fs';
import { resolve } from 'node:path';
import type { Precision } from '../../shared/memory-schema';
import type { IsoTime } from '../../shared/time';
// Straight from the files, not assistant/index.ts: a `tempora facts` loads no chat or model code.
import { readEndInput, readMomentInput, readTimeInput } from '../assistant/time-input';
import { resolveUserTimeZone } from '../assistant/user-time-zone';
import { defaultDataDir, MemoryInputError, openMemory, systemClock, type Memory } from '../memory/index';
import { InputError, UsageError, type ZoneError } from './errors';
import { checkDataOption, checkForRead, describeOpenError, leaveAsFound, prepareForWrite, type DataDir, type MadeForWrite } from './memory-dir';
import type { Io } from './output';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** "--as-of T" and its description, for help. */
  help: [string, string];
}

export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Synopsis after "tempora ", e.g. "facts [--as-of T] ...". */
  synopsis: string;
  /** More lines of help (what it prints, notes). */
  description?: string[];
  options: Record<string, OptionSpec>;
  positionals: { min: number; max: number; name: string };
  /** Sync commands return nothing; long-running ones (ingest, chat, serve) return a promise. */
  run(ctx: CommandContext): void | Promise<void>;
  /**
   * When --tz or $TEMPORA_TZ names no known zone: a command that must still answer serves the error
   * its own way until it is done (`tempora mcp`: to the client that started it); undefined to be
   * refused as every other command is.
   */
  zoneRefused?(ctx: CommandContext, error: ZoneError): Promise<void> | undefined;
}

export type OptionValues = Record<string, string | boolean | undefined>;

/** Options every command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  data: { type: 'string', help: ['--data DIR', "memory directory (default: the app's data directory, or $TEMPORA_DATA_DIR)"] },
  json: { type: 'boolean', help: ['--json', 'machine-readable JSON output'] },
  tz: { type: 'string', help: ['--tz ZONE', "time zone of the times you type and the times shown, e.g. Asia/Tokyo (default: $TEMPORA_TZ, else the system's)"] },
  help: { type: 'boolean', short: 'h', help: ['-h, --help', 'show help for the command'] },
};

export class CommandContext {
  constructor(
    readonly command: string,
    readonly values: OptionValues,
    readonly positionals: string[],
    readonly io: Io,
  ) {}

  get json(): boolean {
    return this.values.json === true;
  }

  get dataDir(): string {
    return this.memoryDir.path;
  }

  /** The memory directory and how errors name it; `--data ''` is refused. */
  get memoryDir(): DataDir {
    const data = this.string('data');
    if (data === undefined) return { path: resolve(this.io.cwd, defaultDataDir(this.io.env)), label: 'the memory directory' };
    checkDataOption(data);
    return { path: resolve(this.io.cwd, data), label: '--data' };
  }

  /** The user's zone for this run: --tz (checked before the command runs), else $TEMPORA_TZ, else the system's. */
  get timeZone(): string {
    const tz = this.string('tz');
    return tz !== undefined ? tz.trim() : resolveUserTimeZone(null, this.io.env).timeZone;
  }

  /** A path given on the command line, resolved against the working directory. */
  resolvePath(path: string): string {
    return resolve(this.io.cwd, path);
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  /**
   * A moment asked about (--as-of, --known-at) in canonical ISO UTC: "now", phrases and dates; a day,
   * month or year means its end, or now while it lasts (readMomentInput). Bad dates are input errors
   * naming the option.
   */
  moment(name: string): { at: IsoTime; precision: Precision } | undefined {
    const value = this.string(name);
    return value === undefined ? undefined : parseTimeOption(name, value, () => (this.io.clock ?? systemClock()).now(), this.timeZone, readMomentInput);
  }

  /** A time option with how precisely it was given ("2026-09" is a month, "yesterday" a day). */
  timeWithPrecision(name: string): { at: IsoTime; precision: Precision } | undefined {
    const value = this.string(name);
    return value === undefined ? undefined : this.parseTime(name, value);
  }

  /** Converts a time given for option `name` (without dashes). */
  parseTime(name: string, value: string): { at: IsoTime; precision: Precision } {
    return parseTimeOption(name, value, () => (this.io.clock ?? systemClock()).now(), this.timeZone);
  }

  /** An end given for option `name`, read as still to come where said of the past it is not after `start` (readEndInput). */
  endTime(name: string, value: string, start: IsoTime): { at: IsoTime; precision: Precision } {
    return parseTimeOption(name, value, () => (this.io.clock ?? systemClock()).now(), this.timeZone, (v, field, now, zone) => readEndInput(v, field, now, zone, start));
  }

  /** A positive whole number option. */
  count(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
      throw new InputError(`--${name}: must be a positive whole number, got ${JSON.stringify(value)}`);
    }
    return Number(value);
  }

  /** The option that must be present, or a usage error. */
  required(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw new UsageError(`${this.command} needs --${name}`, this.command);
    return value;
  }

  /** Opens the memory for writing (created when missing), runs `fn` (sync, or async: then closed when it settles), and closes it whatever happens. */
  withMemory<T>(fn: (memory: Memory) => T): T {
    return this.openAndRun(fn, false);
  }

  /**
   * As withMemory, for commands that only read (facts, search, show, export): the store is opened
   * read-only — a missing one is an error and nothing is created, migrated or changed.
   */
  readMemory<T>(fn: (memory: Memory) => T): T {
    return this.openAndRun(fn, true);
  }

  private openAndRun<T>(fn: (memory: Memory) => T, readonly: boolean): T {
    const dir = this.memoryDir;
    let made: MadeForWrite | undefined;
    if (readonly) checkForRead(dir);
    else made = prepareForWrite(dir);
    // Refused before it stored anything (the store would not open, or the command threw, its one
    // write rolled back): a directory or store this run made is taken back.
    const refused = (error: unknown): never => {
      if (made) leaveAsFound(dir, made);
      throw error;
    };
    let memory: Memory;
    // Slots an upgrade merged are resolved on opening: a long one says how far it is.
    const onQueuedSlots = (done: number, total: number) => this.io.stderr(`Resolving what the upgrade merged: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} slots\n`);
    try {
      memory = openMemory({ dataDir: dir.path, clock: this.io.clock, onQueuedSlots, ...(readonly ? { readonly } : {}) });
    } catch (error) {
      // A store from an older Tempora where it can be written: upgrade it, as the app would, so a
      // `tempora facts` after an update just works. On read-only media it stays refused in words.
      if (!(readonly && /written by an older Tempora/.test((error as Error).message) && writable(dir.path))) {
        return refused(new InputError(`cannot open the memory in ${dir.path}: ${describeOpenError(error, readonly, dir.path)}`));
      }
      try {
        memory = openMemory({ dataDir: dir.path, clock: this.io.clock, onQueuedSlots });
      } catch (again) {
        throw new InputError(`cannot open the memory in ${dir.path}: ${describeOpenError(again, false, dir.path)}`);
      }
    }
    let result: T;
    try {
      result = fn(memory);
    } catch (error) {
      memory.close();
      return refused(error);
    }
    // A long-running one (sync, import-chats) may have stored part of its work when it fails: what it made stays.
    if (result instanceof Promise) return result.finally(() => memory.close()) as T;
    memory.close();
    return result;
  }
}

/**
 * A time typed on the command line, read by the one reader MCP and the app use (readTimeInput):
 * "now", an ISO-8601 instant with its zone, a date or wall time (read in the user's zone: --tz,
 * $TEMPORA_TZ, else the system's), or a phrase ("yesterday", "先週"); an error names the option.
 */
export function parseTimeOption(name: string, value: string, now: () => string, zone: string, read = readTimeInput): { at: IsoTime; precision: Precision } {
  try {
    return read(value, `--${name}`, now(), zone);
  } catch (error) {
    if (error instanceof MemoryInputError) throw new InputError(error.message);
    throw error;
  }
}

/** Can this process write in the memory's directory (and so upgrade its schema)? */
function writable(dir: string): boolean {
  try {
    accessSync(dir, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}
