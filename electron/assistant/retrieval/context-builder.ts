/**
 * Turns retrieved facts into the block of memory the chat model reads: current facts first, then
 * the planned ones (true from a time still to come: never "current", never history), then history,
 * each interval written out by the one formatter the screens use (shared/time-format.ts) in days of
 * the user's zone — "since 15 Sep 2026", "1 Sep – 15 Sep 2026", "from 1 Jan 2027 (planned)" — cut
 * to a token budget. When the question names a time, the facts true then come first under it ("As of
 * 10 Sep 2026:"), then what is true now ("Now:").
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { formatAt } from '../../../shared/time-format';
import { zonedAt } from '../../../shared/time-zone';
import { describeInterval, formatDay, isPlanned, modelFormat } from '../prompts/model-time';
import { matchesTime, type QuestionTime } from './question-time';
import { saidSoonAfter } from './time-ranking';
import { shiftMs, yearIn } from './zoned-time';

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

export function isCurrent(fact: FactRecord, now: string): boolean {
  return fact.expired_at === null && fact.valid_at <= now && (fact.invalid_at === null || fact.invalid_at > now);
}

/** Facts in retrieval order: current ones first, then planned ones, then history, each group in its order. */
export function buildContext(facts: FactRecord[], options: ContextOptions): ContextBlock {
  if (options.time) return timeContext(facts, options.time, options);
  const live = facts.filter((f) => f.expired_at === null);
  const current = live.filter((f) => isCurrent(f, options.now));
  const planned = live.filter((f) => isPlanned(f, options.now));
  const history = live.filter((f) => !current.includes(f) && !planned.includes(f));
  const zone = options.zone ?? 'UTC';
  const describe = (f: FactRecord) => describeInterval(f, options.now, zone);
  const writer = new BlockWriter(`What you remember about the user (today is ${formatDay(options.now, zone)}):`, options);
  writer.section('Current facts:', current, describe);
  writer.section('Planned (not true yet):', planned, describe);
  writer.section('History (no longer true):', history, describe);
  return writer.block();
}

/**
 * A question that names a time: the facts true then (or in the period) first, under what the time
 * was understood to be ("As of 10 Sep 2026:"), then events told soon after it (dated by the message
 * that told them: "yesterday", "last week"), then what is true now where it differs, then the rest.
 * Dates are days in the user's zone.
 */
function timeContext(facts: FactRecord[], time: QuestionTime, options: ContextOptions): ContextBlock {
  const zone = options.zone ?? time.zone;
  const live = facts.filter((f) => f.expired_at === null);
  const then = live.filter((f) => matchesTime(f, time));
  const soon = live.filter((f) => !then.includes(f) && saidSoonAfter(f, time));
  const placed = (f: FactRecord) => then.includes(f) || soon.includes(f);
  const now = live.filter((f) => !placed(f) && isCurrent(f, options.now));
  const planned = live.filter((f) => !placed(f) && isPlanned(f, options.now));
  const rest = live.filter((f) => !placed(f) && !now.includes(f) && !planned.includes(f));
  const label = timeLabel(time, zone, options.now);
  const writer = new BlockWriter(`What you remember about the user (today is ${formatDay(options.now, zone)}):`, options);
  writer.line(`The question asks about ${label.about} ("${time.phrase}"): answer for that time, and say what is true now where it differs.`);
  const describe = (f: FactRecord) => describeInterval(f, options.now, zone);
  writer.section(`${label.title}:`, then, (f) => (isCurrent(f, options.now) ? `${describe(f)}, still true` : describe(f)));
  writer.section('Said soon after (it may be about that time):', soon, describe);
  writer.section('Now:', now, describe);
  writer.section('Planned (not true yet):', planned, describe);
  writer.section('Other history:', rest, describe);
  return writer.block();
}

const SEASONS: Record<number, string> = { 3: 'spring', 6: 'summer', 9: 'autumn', 12: 'winter' };

/** What the time was understood to be: the section's title and the words for the intro line. */
export function timeLabel(time: QuestionTime, zone: string, now: string): { title: string; about: string } {
  if (time.kind === 'point') {
    const at = time.asOf ?? time.at;
    const when = formatAt(at, time.unit === 'instant' && time.precision === 'instant' ? 'instant' : 'day', modelFormat(zone));
    return { title: `As of ${when}`, about: when };
  }
  const until = time.until ?? time.at;
  const last = formatDay(shiftMs(until, -1), zone);
  const first = formatDay(time.at, zone);
  let about: string;
  if (time.unit === 'year') about = String(yearIn(time.at, zone));
  else if (time.unit === 'month') about = formatAt(time.at, 'month', modelFormat(zone));
  else if (time.unit === 'season') about = `${SEASONS[zonedAt(time.at, zone).month] ?? 'the season'} ${yearIn(time.at, zone)} (${first} – ${last})`;
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
