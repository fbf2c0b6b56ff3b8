/**
 * What the MCP tools say in text, for an agent that reads only text: each fact with when it is
 * true in the user's zone, at the precision it was said, by the one formatter (shared/time-format.ts:
 * "1 Sep – 15 Sep 2026", "since March 2026"), never a UTC instant it would repeat as the wrong day;
 * a question about a time framed as the chat's context frames it ("As of 10 Sep 2026:", then "Now:").
 * A sentence's control characters are escaped (a newline in one is `\x0a`, so it cannot start a line
 * of its own). A text that says a time ends naming the zone it is in ("Times in Asia/Tokyo."), as the
 * command line does: the agent may be told the times, not the zone. The structured content beside it
 * stays ISO, and as stored.
 */
import { plural as countWords } from '../../shared/count-words';
import { timeLabel, matchesTime, saidSoonAfter, type QuestionTime } from '../assistant/index';
import type { FactRecord, Precision } from '../../shared/memory-schema';
import { formatInterval, formatWhen, type TimeFormat } from '../../shared/time-format';
import { escapeControls } from '../../shared/escape-controls';

export interface Words {
  format: TimeFormat;
  /** The instant "since", "ended" and "until" are said against. */
  now: string;
}

/** A time an agent passed (as_of, known_at), as it was read. */
export interface ReadAt {
  at: string;
  precision: Precision;
}

/** The last line of a text that says a time: which zone its times are in. */
export const zoneLine = (format: TimeFormat): string => `Times in ${format.timeZone}.`;

/** Counts as agents read them: en-US, as every other number MCP says (shared/count-words.ts). */
const plural = (n: number, one: string) => countWords(n, one, `${one}s`, 'en-US');

/** "- My manager is A. (1 Sep – 15 Sep 2026; id fct_…)"; a version since corrected says so. */
export function factLine(fact: FactRecord, words: Words): string {
  const replaced = fact.expired_at !== null ? '; a version since replaced' : '';
  return `- ${escapeControls(fact.fact)} (${formatInterval(fact, words.format, words.now)}${replaced}; id ${fact.id})`;
}

/** "As of 10 Sep 2026", with ", as known on 5 Sep 2026" when the memory is read as it was. */
function axesTitle(asOf: ReadAt | undefined, knownAt: ReadAt | undefined, format: TimeFormat): string {
  const parts = [asOf ? `As of ${formatWhen(asOf.at, asOf.precision, format)}` : '', knownAt ? `as known on ${formatWhen(knownAt.at, knownAt.precision, format)}` : ''];
  const title = parts.filter(Boolean).join(', ');
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** list_facts: "As of 10 Sep 2026: 1 fact." and a line per fact. */
export function listText(facts: FactRecord[], words: Words, axes: { asOf?: ReadAt; knownAt?: ReadAt } = {}): string {
  const title = axesTitle(axes.asOf, axes.knownAt, words.format);
  const count = `${plural(facts.length, 'fact')}.`;
  const zone = title || facts.length > 0 ? [zoneLine(words.format)] : [];
  return [title ? `${title}: ${count}` : count, ...facts.map((f) => factLine(f, words)), ...zone].join('\n');
}

export interface SearchWords {
  hits: FactRecord[];
  /** The time the question named (retrieval's), if any. */
  time: QuestionTime | null;
  asOf?: ReadAt;
  knownAt?: ReadAt;
  /** For hits over by now, what holds now in their place (the facts that closed them). */
  successors: (hits: FactRecord[]) => FactRecord[];
}

/**
 * search_memory: "N facts found.", then the hits; for a time (named in the question, or as_of) the
 * facts true then under "As of …:", events told soon after it under "Said soon after …:", what is
 * true now under "Now:", the rest under "Other history:".
 */
export function searchText(search: SearchWords, words: Words, zone: string): string {
  const { hits } = search;
  const lines = [`${plural(hits.length, 'fact')} found.`];
  const section = (title: string, facts: FactRecord[]) => {
    if (facts.length === 0) return;
    lines.push(`${title}:`, ...facts.map((f) => factLine(f, words)));
  };
  const current = (f: FactRecord) => f.expired_at === null && f.valid_at <= words.now && (f.invalid_at === null || f.invalid_at > words.now);
  if (search.time) {
    const then = hits.filter((f) => matchesTime(f, search.time!));
    const soon = hits.filter((f) => !then.includes(f) && saidSoonAfter(f, search.time!));
    const rest = hits.filter((f) => !then.includes(f) && !soon.includes(f));
    const now = [...rest.filter(current), ...search.successors(then).filter((f) => current(f) && !hits.some((h) => h.id === f.id))];
    section(timeLabel(search.time, zone, words.now).title, then);
    section('Said soon after (it may be about that time)', soon);
    section('Now', now);
    section('Other history', rest.filter((f) => !current(f)));
  } else if (search.asOf || search.knownAt) {
    section(axesTitle(search.asOf, search.knownAt, words.format), hits);
    section('Now', search.successors(hits).filter((f) => current(f) && !hits.some((h) => h.id === f.id)));
  } else {
    lines.push(...hits.map((f) => factLine(f, words)));
  }
  if (lines.length > 1) lines.push(zoneLine(words.format));
  return lines.join('\n');
}

/** fact_history: "My manager is A.: 2 versions, 1 source message." and a line per version, newest first as given. */
export function historyText(fact: FactRecord, versions: FactRecord[], sources: number, words: Words): string {
  return [`${escapeControls(fact.fact)}: ${plural(versions.length, 'version')}, ${plural(sources, 'source message')}.`, ...versions.map((v) => factLine(v, words)), zoneLine(words.format)].join('\n');
}
