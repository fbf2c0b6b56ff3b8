/**
 * How a time named in a question orders the hits: it ranks, it never filters. The hits fall in three
 * bands, each in the words' order (the search over every valid time; a fact true then that the words
 * ranked below that depth, found by the search as of the point, after them in its own order):
 * - now: begun inside the named time (a day said in another zone: up to 14 hours before the
 *   reader's), a one-valued slot's value true then (a point: valid at it; a period: overlapping it),
 *   or an event or a thing of many values begun within a day after it (told "yesterday", dated by
 *   its message);
 * - soon: a thing of many values true then but begun before ("what did Elif do on 30 Nov?": what
 *   began then comes first, not a liking told a year before); begun later within the soon-after
 *   window (a week after a day or a week, a month after a month, season or year: told "last week",
 *   "last month"), or a slot's next value begun within it;
 * - later: anything else (ended before, begun long after).
 * A fact of the soon band rises to one place below its place in the words, one of the later band to
 * LATER places below it, when that is higher than its band would put it: a fact that matches the
 * words but was said later is never pushed below everything said earlier.
 * A slot of one value at a time ("manager") names its answer: the values true then rank above the
 * slot's values before and after them, however the words order them (they are the same words).
 */
import type { FactRecord } from '../../../shared/memory-schema';
import type { SearchHit } from '../../memory/index';
import { matchesTime, type QuestionTime } from './question-time';
import { addInZone } from './zoned-time';

/** Places below its place in the words a fact of the later band may fall to, at most. */
export const LATER = 3;

const DAY_MS = 86_400_000;

type Band = 0 | 1 | 2;

/** The named time's span [from, to] and the end of its soon-after window. */
interface Span {
  from: number;
  to: number;
  soon: number;
}

function spanOf(time: QuestionTime): Span {
  const asOf = Date.parse(time.asOf ?? time.at);
  const from = time.kind === 'point' ? Math.min(Date.parse(time.at), asOf) : Date.parse(time.at);
  const to = time.kind === 'point' ? asOf : Date.parse(time.until ?? time.at) - 1;
  const wide = time.unit === 'month' || time.unit === 'season' || time.unit === 'year';
  const soon = Date.parse(addInZone(new Date(to + 1).toISOString(), time.zone, wide ? { months: 1 } : { days: 7 })) - 1;
  return { from, to, soon };
}

/** How far east a clock runs ahead of UTC (Kiritimati, +14:00): the earliest a day said elsewhere can start. */
const EASTMOST_MS = 14 * 3_600_000;

function bandOf(fact: FactRecord, time: QuestionTime, span: Span): Band {
  const start = Date.parse(fact.valid_at);
  // A day said in another zone starts up to 14 hours before the reader's ("yesterday" told in Tokyo).
  const earliest = span.from - (fact.valid_at_precision === 'day' ? EASTMOST_MS : 0);
  if (start >= earliest && start <= span.to) return 0;
  // True then but begun before: a slot of one value names its answer; a thing of many values (an
  // event told long before, a liking) yields to what began then, as the soon band does.
  if (matchesTime(fact, time)) return fact.cardinality === 'one' ? 0 : 1;
  if (start > span.to && start <= span.soon) return start - span.to <= DAY_MS && fact.cardinality !== 'one' ? 0 : 1;
  return 2;
}

/** An event or a thing of many values begun within the soon-after window of the named time: told then, it may be about that time. */
export function saidSoonAfter(fact: FactRecord, time: QuestionTime): boolean {
  const span = spanOf(time);
  const start = Date.parse(fact.valid_at);
  return fact.cardinality !== 'one' && start > span.to && start <= span.soon && !matchesTime(fact, time);
}

/**
 * The hits of the searches for a question with a time, ordered by the time: `words` is the search
 * over every valid time, `then` (for a point) the search as of it.
 */
export function rankByTime(words: SearchHit[], then: SearchHit[], time: QuestionTime): SearchHit[] {
  const span = spanOf(time);
  const seen = new Set<string>();
  const hits = [...words, ...then].filter((h) => !seen.has(h.fact.id) && seen.add(h.fact.id));
  const entries = hits.map((hit, i) => ({ hit, word: i + 1, band: bandOf(hit.fact, time, span), key: 0 }));
  // Each band in the words' order, one after the other; a later band's fact no lower than its rise allows.
  let place = 0;
  for (const band of [0, 1, 2] as const) {
    for (const e of entries) {
      if (e.band !== band) continue;
      place++;
      e.key = band === 0 ? place : Math.min(place, e.word + (band === 1 ? 1 : LATER));
    }
  }
  // The values true then of each one-valued slot, and the last one's place: the slot's other values follow them.
  const slotThen = new Map<string, number>();
  for (const e of entries) {
    if (e.band === 0 && e.hit.fact.cardinality === 'one' && matchesTime(e.hit.fact, time)) slotThen.set(slotOf(e.hit.fact), Math.max(slotThen.get(slotOf(e.hit.fact)) ?? 0, e.key));
  }
  for (const e of entries) {
    const last = e.band > 0 && e.hit.fact.cardinality === 'one' ? slotThen.get(slotOf(e.hit.fact)) : undefined;
    if (last !== undefined) e.key = Math.max(e.key, last);
  }
  entries.sort((a, b) => a.key - b.key || a.band - b.band || a.word - b.word);
  return entries.map((e) => e.hit);
}

const slotOf = (fact: FactRecord) => `${fact.subject_id}\u0000${fact.predicate}`;
