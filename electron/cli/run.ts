/**
 * The `tempora` command, callable in-process: parses argv with node:util parseArgs, dispatches to a
 * command, prints, and maps failures to exit codes — 0 ok, 1 bad input (the memory is unchanged),
 * 2 usage. User errors print one line on stderr, "tempora: ...", never a stack trace.
 */
import { parseArgs } from 'node:util';
import { MemoryInputError, MemoryStorageError, systemClock } from '../memory/index';
import { CommandContext, GLOBAL_OPTIONS, type CommandSpec, type OptionSpec, type OptionValues } from './command';
import { closeCommand, editCommand } from './commands/edit';
import { exportCommand, importCommand } from './commands/export-import';
import { factsCommand, showCommand } from './commands/facts';
import { forgetCommand } from './commands/forget';
import { observeCommand } from './commands/observe';
import { searchCommand } from './commands/search';
import { serveCommand } from './commands/serve';
import { chatCommand } from './commands/chat';
import { ingestCommand } from './commands/ingest';
import { modelsCommand } from './commands/models';
import { reindexCommand } from './commands/reindex';
import { mcpCommand } from './commands/mcp';
import { importChatsCommand } from './commands/import-chats';
import { queueCommand } from './commands/queue';
import { reviewCommand } from './commands/review';
import { redoCommand, undoCommand } from './commands/undo';
import { syncCommand } from './commands/sync';
import { EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InputError, Interrupted, UsageError, ZoneError } from './errors';
import { displayFormat, localeOf, setDisplayFormat, type Io } from './output';
import { formatInstantWithZone } from '../../shared/time-format';
import { isKnownZone, unknownZoneMessage } from '../../shared/time-zone';

const helpCommand: CommandSpec = {
  name: 'help',
  summary: 'show this help, or the help of one command',
  synopsis: 'help [COMMAND]',
  options: {},
  positionals: { min: 0, max: 1, name: 'COMMAND' },
  run(ctx) {
    const name = ctx.positionals[0];
    if (name === undefined) return ctx.io.stdout(generalHelp());
    ctx.io.stdout(commandHelp(findCommand(name)));
  },
};

export const COMMANDS: readonly CommandSpec[] = [
  observeCommand,
  factsCommand,
  searchCommand,
  showCommand,
  editCommand,
  closeCommand,
  forgetCommand,
  exportCommand,
  importCommand,
  ingestCommand,
  importChatsCommand,
  queueCommand,
  reviewCommand,
  undoCommand,
  redoCommand,
  chatCommand,
  modelsCommand,
  reindexCommand,
  serveCommand,
  mcpCommand,
  syncCommand,
  helpCommand,
];

/**
 * Runs one command line (without "node main.ts") and returns its exit status — directly for the
 * synchronous commands, as a promise for the long-running ones (see runAsync for a uniform promise).
 */
export function run(argv: readonly string[], io: Io): number | Promise<number> {
  let command: string | undefined;
  try {
    const located = locateCommand(argv);
    if (!located) {
      if (argv.some((a) => a === '--help' || a === '-h')) {
        io.stdout(generalHelp());
        return EXIT_OK;
      }
      throw new UsageError('no command given');
    }
    const spec = findCommand(located.name);
    command = spec.name;
    const rest = [...argv.slice(0, located.index), ...argv.slice(located.index + 1)];
    const { values, positionals } = parseCommandLine(spec, rest);
    if (values.help === true) {
      io.stdout(spec === helpCommand ? generalHelp() : commandHelp(spec));
      return EXIT_OK;
    }
    const { min, max, name } = spec.positionals;
    if (positionals.length < min) throw new UsageError(`${spec.name} needs ${name}`, spec.name);
    if (positionals.length > max) {
      throw new UsageError(`${spec.name}: unexpected argument ${JSON.stringify(positionals[max])}`, spec.name);
    }
    // `show ""` is a slip (an unset shell variable), not a fact whose id is "": say so by the argument's name.
    const blank = max === Infinity ? -1 : positionals.findIndex((p) => p.trim() === '');
    if (blank >= 0) throw new UsageError(`${spec.name}: ${max === 1 ? name : `argument ${blank + 1}`} is empty or only spaces`, spec.name);
    const ctx = new CommandContext(spec.name, values, positionals, io);
    try {
      applyTimeZone(ctx);
    } catch (error) {
      // A command that must still answer (mcp: its client would show only "Connection closed") serves the error instead.
      const serving = error instanceof ZoneError ? spec.zoneRefused?.(ctx, error) : undefined;
      if (!serving) throw error;
      return serving.then(
        () => EXIT_INPUT,
        (failure: unknown) => report(failure, io, command),
      );
    }
    const result = spec.run(ctx);
    if (result instanceof Promise) {
      return result.then(
        () => EXIT_OK,
        (error: unknown) => report(error, io, command),
      );
    }
    return EXIT_OK;
  } catch (error) {
    return report(error, io, command);
  }
}

export async function runAsync(argv: readonly string[], io: Io): Promise<number> {
  return run(argv, io);
}

/** For synchronous commands only (tests of observe, facts, edit ...): the exit status. */
export function runSync(argv: readonly string[], io: Io): number {
  const status = run(argv, io);
  if (typeof status !== 'number') throw new Error(`${argv.join(' ')} is a long-running command: use runAsync`);
  return status;
}

/**
 * The zone of the times typed and shown in this run: --tz, else $TEMPORA_TZ, else the system's. An
 * unknown one is refused, naming where it came from, whichever of the two it came from.
 */
function applyTimeZone(ctx: CommandContext): void {
  const tz = ctx.string('tz');
  if (tz !== undefined && !isKnownZone(tz.trim())) throw new ZoneError(`--tz: ${unknownZoneMessage(tz)}`, '--tz');
  const environment = ctx.io.env.TEMPORA_TZ;
  if (tz === undefined && environment?.trim() && !isKnownZone(environment.trim())) throw new ZoneError(`$TEMPORA_TZ: ${unknownZoneMessage(environment)}`, '$TEMPORA_TZ');
  setDisplayFormat({ timeZone: ctx.timeZone, locale: localeOf(ctx.io.env) }, () => (ctx.io.clock ?? systemClock()).now());
}

function report(error: unknown, io: Io, command: string | undefined): number {
  if (error instanceof UsageError) {
    const about = error.command ?? command;
    io.stderr(`tempora: ${error.message}\nRun 'tempora help${about && about !== 'help' ? ` ${about}` : ''}' for usage.\n`);
    return EXIT_USAGE;
  }
  if (error instanceof Interrupted) {
    io.stderr(`tempora: ${error.message}\n`);
    return EXIT_INTERRUPTED;
  }
  if (error instanceof MemoryInputError && error.instant) {
    // The memory does not know the zone: the instant it names, said in the user's, as this run shows times.
    io.stderr(`tempora: ${error.instant.words(formatInstantWithZone(error.instant.at, displayFormat()))}\n`);
    return EXIT_INPUT;
  }
  if (error instanceof InputError || error instanceof MemoryInputError || error instanceof MemoryStorageError) {
    io.stderr(`tempora: ${error.message}\n`);
    return EXIT_INPUT;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const details = io.env.TEMPORA_DEBUG ? `\n${e.stack ?? ''}` : ' (set TEMPORA_DEBUG=1 to see where)';
  io.stderr(`tempora: unexpected error: ${e.message}${details}\n`);
  return EXIT_INPUT;
}

function findCommand(name: string): CommandSpec {
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) throw new UsageError(`unknown command ${JSON.stringify(name)} (commands: ${COMMANDS.map((c) => c.name).join(', ')})`);
  return spec;
}

/** Every option any command knows, so that the first pass can tell option values from the command name. */
function allOptions(): Record<string, OptionSpec> {
  return Object.assign({}, GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options)) as Record<string, OptionSpec>;
}

function toParseArgsOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }]),
  ) as Record<string, { type: 'string' | 'boolean'; short?: string }>;
}

/** The first positional argument is the command, wherever it stands ("--data X facts" works too). */
function locateCommand(argv: readonly string[]): { name: string; index: number } | undefined {
  let tokens;
  try {
    ({ tokens } = parseArgs({ args: [...argv], options: toParseArgsOptions(allOptions()), strict: false, allowPositionals: true, tokens: true }));
  } catch {
    return undefined;
  }
  const first = tokens.find((t) => t.kind === 'positional');
  return first && first.kind === 'positional' ? { name: first.value, index: first.index } : undefined;
}

function parseCommandLine(spec: CommandSpec, args: string[]): { values: OptionValues; positionals: string[] } {
  const options = { ...GLOBAL_OPTIONS, ...spec.options };
  try {
    const { values, positionals, tokens } = parseArgs({ args: attachDashValues(args, options), options: toParseArgsOptions(options), strict: true, allowPositionals: true, tokens: true });
    refuseRepeatedValues(tokens);
    return { values: values, positionals };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.message, spec.name);
    throw new UsageError(describeParseError(error, spec), spec.name);
  }
}

/**
 * An option that takes one value, given more than once ("--as-of X --as-of Y"), is refused naming it
 * and the values: parseArgs would keep the last in silence. A flag given twice says what it says once.
 */
function refuseRepeatedValues(tokens: readonly { kind: string; name?: string; value?: string | undefined }[]): void {
  const given = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined || token.value === undefined) continue;
    given.set(token.name, [...(given.get(token.name) ?? []), token.value]);
  }
  for (const [name, values] of given) {
    if (values.length < 2) continue;
    const quoted = values.map((value) => JSON.stringify(value));
    const listed = `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]!}`;
    throw new UsageError(`--${name} is given ${values.length === 2 ? 'twice' : `${values.length} times`} (${listed}): give it once`);
  }
}

/**
 * "--limit -1": parseArgs takes the "-1" for an option and says --limit "needs a value"; a value
 * that starts with a dash but is no option of the command is that option's value ("--limit=-1"),
 * so that the option itself can say what is wrong with it.
 */
function attachDashValues(args: readonly string[], options: Record<string, OptionSpec>): string[] {
  const known = new Set(Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const takesValue = name !== undefined && !name.includes('=') && options[name]?.type === 'string';
    if (takesValue && next !== undefined && next.startsWith('-') && next !== '--' && !known.has(next.split('=')[0]!)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
  }
  return out;
}

function describeParseError(error: unknown, spec: CommandSpec): string {
  const e = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option} for ${spec.name}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return /does not take an argument/.test(e.message ?? '') ? `${option} takes no value` : `${option} needs a value`;
  }
  return e.message ?? String(error);
}

const COMMON_OPTIONS_NOTE = ['[--data DIR]', '[--json]'].join(' ');

function optionLines(options: Record<string, OptionSpec>): string[] {
  const entries = Object.values(options).map((o) => o.help);
  const width = Math.max(...entries.map(([flag]) => flag.length)) + 2;
  return entries.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`);
}

export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: tempora ${spec.synopsis} ${COMMON_OPTIONS_NOTE}`, '', `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`];
  if (spec.description?.length) lines.push('', ...spec.description);
  lines.push('', 'Options:', ...optionLines({ ...spec.options, ...GLOBAL_OPTIONS }));
  return `${lines.join('\n')}\n`;
}

export function generalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return `${[
    "tempora — Tempora's bitemporal memory from the command line",
    '',
    'Usage: tempora <command> [options]',
    '       (from a checkout: npm run --silent tempora -- <command> [options])',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options for every command:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'Times (T) are dates, times or phrases, read in your time zone (--tz, else $TEMPORA_TZ, else the system’s) unless',
    'they name one: 2026-09-10, 2026-09-10T09:00, 2026-09-10T09:00:00+09:00, "yesterday", "先週", or "now".',
    'Exit status: 0 done; 1 bad input or a failure (the memory is left unchanged); 2 usage error.',
    "Run 'tempora help COMMAND' or 'tempora COMMAND --help' for a command's options.",
  ].join('\n')}\n`;
}
