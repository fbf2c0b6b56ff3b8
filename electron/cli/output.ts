/**
 * What the command prints: JSON for `--json` (machine-readable, stable), otherwise short text and
 * tables for people. Human output shows times in the user's zone, for the locale, as precisely as
 * they were said ("since March 2026"); JSON always carries the full ISO UTC strings.
 */
import { plural as countWords } from '../../shared/count-words';
import type { FactRecord, Precision } from '../../shared/memory-schema';
import { formatInstant, formatInterval, formatWhen, type TimeFormat } from '../../shared/time-format';
import type { Clock } from '../memory/index';
import { escapeControls } from '../../shared/escape-controls';

/** Where a run writes. The real command passes process streams; tests capture strings. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Directory that relative paths (--data, files) are resolved against. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The memory's clock; default the system clock. Tests pin it so "now" is known. */
  clock?: Clock;
  /**
   * Whether standard error is a terminal, where a line of progress is rewritten in place (main.ts:
   * stderr's isTTY, or $TEMPORA_PROGRESS=1). Elsewhere — a log file, a pipe — none is written.
   */
  terminal?: boolean;
}

/**
 * A line of progress on standard error, rewritten in place ("importing: 12,000 records, 40% of
 * 1.2 GB"), and cleared before the command's answer — only where standard error is a terminal: a
 * log file gets no carriage returns or erase codes.
 */
export function progressLine(io: Io): { show(text: string): void; clear(): void; readonly shown: boolean } {
  let shown = false;
  return {
    show(text) {
      if (!io.terminal) return;
      io.stderr(`\r${text}\x1b[K`);
      shown = true;
    },
    clear() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
    },
    get shown() {
      return shown;
    },
  };
}

export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(io: Io, lines: string[]): void {
  if (lines.length) io.stdout(`${lines.join('\n')}\n`);
}

/** The zone and locale of human output: set once per run (run.ts) from --tz / $TEMPORA_TZ and $LANG. */
let display: TimeFormat = { timeZone: 'UTC', locale: 'en-GB' };
/** "Now" for the words that depend on it ("ended" for a past end, "until" for one to come): the run's clock. */
let nowOf: () => string = () => new Date().toISOString();

export function setDisplayFormat(format: TimeFormat, now?: () => string): void {
  display = format;
  if (now) nowOf = now;
}

/** The run's "now" (its clock), for words that depend on it. */
export function displayNow(): string {
  return nowOf();
}

export function displayFormat(): TimeFormat {
  return display;
}

/**
 * The locale of $LC_ALL, $LC_TIME or $LANG ("ja_JP.UTF-8" → "ja-JP"); en-GB (day month year, 24-hour
 * clock) when none is set or it is C/POSIX or unknown.
 */
export function localeOf(env: NodeJS.ProcessEnv): string {
  const raw = env.LC_ALL || env.LC_TIME || env.LANG || '';
  const tag = raw.split('.')[0]!.split('@')[0]!.replace('_', '-');
  if (tag === '' || tag === 'C' || tag === 'POSIX') return 'en-GB';
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag])[0] ?? 'en-GB';
  } catch {
    return 'en-GB';
  }
}

/** An instant in the user's zone, to the minute: "1 Sept 2026, 10:00"; "now" for null. */
export function formatTime(iso: string | null): string {
  return iso === null ? 'now' : formatInstant(iso, display);
}

/** A moment asked about (--as-of, --known-at) as it was said: "1 Jan 2026", "March 2026", "1 Jan 2026, 10:00". */
export function formatAsked(moment: { at: string; precision: Precision }): string {
  return formatWhen(moment.at, moment.precision, display);
}

/** When a fact was true, as precisely as it was said: "since March 2026", "1 Sept – 15 Sept 2026", "since 1 Sept 2026, until 31 Dec 2026". */
export function formatValidity(fact: Pick<FactRecord, 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision'>): string {
  return formatInterval(fact, display, nowOf());
}

/** "1 fact", "1,204 facts": counts as the command line says them (en-US, as its other numbers). */
export const plural = (n: number, one: string, many = `${one}s`): string => countWords(n, one, many, 'en-US');

// East Asian wide and fullwidth characters take two terminal columns; combining marks take none.
const WIDE = /[\u1100-\u115F\u231A-\u231B\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
// Variation selectors are listed on purpose: they combine with the character before them.
// eslint-disable-next-line no-misleading-character-class
const ZERO_WIDTH = /[\u0300-\u036F\u200B-\u200F\uFE00-\uFE0F]/u;

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/** The one escaping of control characters in stored text, shared with the MCP tools' text. */
export { escapeControls };

/** Cuts `text` to at most `max` columns, ending with "…" when cut. Newlines and tabs become spaces; other controls are escaped. */
export function truncate(text: string, max: number): string {
  const flat = escapeControls(text.replace(/[\t\r\n]+/g, ' '));
  if (displayWidth(flat) <= max) return flat;
  let out = '';
  let width = 0;
  for (const ch of flat) {
    const w = displayWidth(ch);
    if (width + w > max - 1) break;
    out += ch;
    width += w;
  }
  return `${out}…`;
}

export interface Column<T> {
  header: string;
  cell(row: T): string;
  /** Longest a cell may be (in columns) before it is cut; the last column is never padded. */
  max?: number;
}

/** A plain-text table: a header row, then one line per row; columns separated by two spaces. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string[] {
  const cells = rows.map((row) => columns.map((c) => truncate(c.cell(row), c.max ?? 200)));
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i] ?? ''))));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v + ' '.repeat((widths[i] ?? 0) - displayWidth(v))))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)];
}

/** The facts table of `facts` and `search`. */
export function factTable(facts: readonly FactRecord[], extra: Column<FactRecord>[] = []): string[] {
  const anyExpired = facts.some((f) => f.expired_at !== null);
  const columns: Column<FactRecord>[] = [
    ...extra,
    { header: 'ID', cell: (f) => f.id },
    { header: 'SUBJECT', cell: (f) => f.subject, max: 24 },
    { header: 'PREDICATE', cell: (f) => f.predicate, max: 24 },
    { header: 'OBJECT', cell: (f) => f.object, max: 32 },
    { header: 'VALID', cell: formatValidity },
    ...(anyExpired ? [{ header: 'RECORD', cell: (f: FactRecord) => (f.expired_at === null ? 'current' : `expired ${formatTime(f.expired_at)}`) }] : []),
    { header: 'FACT', cell: (f) => f.fact, max: 80 },
  ];
  return table(facts, columns);
}

/** Every field of one fact version, one per line, for `edit`, `close` and `show`. */
export function factDetails(fact: FactRecord, indent = ''): string[] {
  const lines: [string, string][] = [
    ['id', fact.id],
    ['fact', fact.fact],
    ['subject', fact.subject],
    ['predicate', `${fact.predicate} (${fact.cardinality})`],
    ['object', fact.object_id === null ? `${fact.object} (literal)` : fact.object],
    ['valid', formatValidity(fact)],
    ['recorded', `${formatTime(fact.created_at)} → ${fact.expired_at === null ? 'now (current version)' : `${formatTime(fact.expired_at)} (expired)`}`],
    ['origin', fact.origin],
  ];
  if (fact.supersedes !== null) lines.push(['supersedes', fact.supersedes]);
  if (fact.invalidated_by !== null) lines.push(['closed by', fact.invalidated_by]);
  if (fact.episode_ids.length) lines.push(['episodes', fact.episode_ids.join(', ')]);
  return lines.map(([k, v]) => `${indent}${`${k}:`.padEnd(12)}${escapeControls(v)}`);
}
