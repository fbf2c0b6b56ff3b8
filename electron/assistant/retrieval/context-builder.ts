/**
 * Turns retrieved facts into the block of memory the chat model reads: current facts first, then
 * (when asked for) history with each interval written out — "from 2026-09-01 until 2026-09-15",
 * "since 2026-09-15, current" — in the facts' own language, cut to a token budget. When the question
 * names a time, the facts true then come first under it ("As of 10 Sep 2026:"), then what is true now
 * ("Now:"), with days written in the user's zone ("from 1 Sep until 15 Sep").
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { isoDate } from '../../../shared/time';
import { matchesTime, type QuestionTime } from './question-time';
import { formatDay, formatDayTime, formatMonth, shiftMs, yearIn, zoned } from './zoned-time';

export interface ContextBlock {
  text: string;
  /** The facts that made it into the block, in order. */
  factIds: string[];
  /** Facts left out for lack of budget. */
  dropped: number;
  tokens: number;
}

export interface ContextOptions {
  /** Tokens the block may take. */
  budget: number;
  countTokens: (text: string) => number;
  now: string;
  /** The time the question names (Retrieval.time): its facts come first, under "As of 10 Sep 2026:". */
  time?: QuestionTime | null;
  /** The user's zone, for the dates written; default the zone a named time was read in, else UTC. */
  zone?: string;
}

/** The calendar day of an instant in the zone, ISO-style ("2026-09-01"): what the model reads. */
function dayIn(at: string, zone: string): string {
  return zone === 'UTC' ? isoDate(at) : zoned(at, zone).toPlainDate().toString();
}

/** "since 2026-09-15, current", "from 2026-09-01 until 2026-09-15": days in the user's zone. */
export function describeInterval(fact: Pick<FactRecord, 'valid_at' | 'invalid_at'>, now: string, zone = 'UTC'): string {
  if (fact.invalid_at === null) return `since ${dayIn(fact.valid_at, zone)}, current`;
  if (fact.invalid_at <= now) return `from ${dayIn(fact.valid_at, zone)} until ${dayIn(fact.invalid_at, zone)}`;
  return `from ${dayIn(fact.valid_at, zone)}, until ${dayIn(fact.invalid_at, zone)} (planned)`;
}

export function isCurrent(fact: FactRecord, now: string): boolean {
  return fact.expired_at === null && fact.valid_at <= now && (fact.invalid_at === null || fact.invalid_at > now);
}

/** Facts in retrieval order; current ones are listed first, history after, each group in its order. */
export function buildContext(facts: FactRecord[], options: ContextOptions): ContextBlock {
  if (options.time) return timeContext(facts, options.time, options);
  const current = facts.filter((f) => isCurrent(f, options.now));
  const history = facts.filter((f) => !isCurrent(f, options.now) && f.expired_at === null);
  const zone = options.zone ?? 'UTC';
  const writer = new BlockWriter(`What you remember about the user (today is ${dayIn(options.now, zone)}):`, options);
  writer.section('Current facts:', current, (f) => describeInterval(f, options.now, zone));
  writer.section('History (no longer true, or not yet):', history, (f) => describeInterval(f, options.now, zone));
  return writer.block();
}

/**
 * A question that names a time: the facts true then (or in the period) first, under what the time
 * was understood to be ("As of 10 Sep 2026:"), then what is true now where it differs, then the rest.
 * Dates are days in the user's zone.
 */
function timeContext(facts: FactRecord[], time: QuestionTime, options: ContextOptions): ContextBlock {
  const zone = options.zone ?? time.zone;
  const live = facts.filter((f) => f.expired_at === null);
  const then = live.filter((f) => matchesTime(f, time));
  const now = live.filter((f) => !then.includes(f) && isCurrent(f, options.now));
  const rest = live.filter((f) => !then.includes(f) && !now.includes(f));
  const label = timeLabel(time, zone, options.now);
  const writer = new BlockWriter(`What you remember about the user (today is ${formatDay(options.now, zone)}):`, options);
  writer.line(`The question asks about ${label.about} ("${time.phrase}"): answer for that time, and say what is true now where it differs.`);
  const describe = (f: FactRecord) => describeIntervalIn(f, options.now, zone);
  writer.section(`${label.title}:`, then, (f) => (isCurrent(f, options.now) ? `${describe(f)}, still true` : describe(f)));
  writer.section('Now:', now, describe);
  writer.section('Other history:', rest, describe);
  return writer.block();
}

/** "since 15 Sep", "from 1 Sep until 15 Sep", "from 1 Sep, until 15 Oct (planned)" — days in the zone, the year when not this year's. */
export function describeIntervalIn(fact: Pick<FactRecord, 'valid_at' | 'invalid_at'>, now: string, zone: string): string {
  const thisYear = yearIn(now, zone);
  const day = (at: string) => formatDay(at, zone, yearIn(at, zone) !== thisYear);
  if (fact.valid_at > now) return fact.invalid_at === null ? `from ${day(fact.valid_at)} (planned)` : `from ${day(fact.valid_at)} until ${day(fact.invalid_at)} (planned)`;
  if (fact.invalid_at === null) return `since ${day(fact.valid_at)}`;
  if (fact.invalid_at <= now) return `from ${day(fact.valid_at)} until ${day(fact.invalid_at)}`;
  return `from ${day(fact.valid_at)}, until ${day(fact.invalid_at)} (planned)`;
}

const SEASONS: Record<number, string> = { 3: 'spring', 6: 'summer', 9: 'autumn', 12: 'winter' };

/** What the time was understood to be: the section's title and the words for the intro line. */
export function timeLabel(time: QuestionTime, zone: string, now: string): { title: string; about: string } {
  if (time.kind === 'point') {
    const at = time.asOf ?? time.at;
    const when = time.unit === 'instant' && time.precision === 'instant' ? formatDayTime(at, zone) : formatDay(at, zone);
    return { title: `As of ${when}`, about: when };
  }
  const until = time.until ?? time.at;
  const last = formatDay(shiftMs(until, -1), zone);
  const first = formatDay(time.at, zone);
  let about: string;
  if (time.unit === 'year') about = String(yearIn(time.at, zone));
  else if (time.unit === 'month') about = formatMonth(time.at, zone);
  else if (time.unit === 'season') about = `${SEASONS[zoned(time.at, zone).month] ?? 'the season'} ${yearIn(time.at, zone)} (${first} – ${last})`;
  else if (time.unit === 'day') about = first;
  else if (time.unit === 'range' && Math.abs(Date.parse(until) - Date.parse(now)) < 60_000) return { title: `Since ${first}`, about: `the time since ${first}` };
  else about = `${first} – ${last}`;
  return { title: time.unit === 'day' ? `On ${about}` : `In ${about}`, about };
}

/** Lines under a token budget: a section's title is written with its first line that fits. */
class BlockWriter {
  private readonly lines: string[];
  private readonly factIds: string[] = [];
  private tokens: number;
  private dropped = 0;

  constructor(header: string, private readonly options: ContextOptions) {
    this.lines = [header];
    this.tokens = options.countTokens(header);
  }

  line(text: string): void {
    this.lines.push(text);
    this.tokens += this.options.countTokens(text) + 1;
  }

  section(title: string, group: FactRecord[], describe: (fact: FactRecord) => string): void {
    let titled = false;
    for (const f of group) {
      const line = `- ${f.fact} (${describe(f)})`;
      const cost = this.options.countTokens(line) + 1 + (titled ? 0 : this.options.countTokens(title) + 1);
      if (this.tokens + cost > this.options.budget) {
        this.dropped++;
        continue;
      }
      if (!titled) this.lines.push(title);
      titled = true;
      this.lines.push(line);
      this.factIds.push(f.id);
      this.tokens += cost;
    }
  }

  block(): ContextBlock {
    if (this.factIds.length === 0) return { text: '', factIds: [], dropped: this.dropped, tokens: 0 };
    return { text: this.lines.join('\n'), factIds: this.factIds, dropped: this.dropped, tokens: this.tokens };
  }
}
