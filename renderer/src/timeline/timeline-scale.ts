/** The time axis of the timeline: a [from, to] domain in ms mapped onto a pixel width; zoom, pan, ticks. */
import { DAY_MS } from '../common/time-input';
import { offsetMs, roundToDay, roundToHour, wallToUtc } from '../common/zoned-time';
import type { TimeFormat } from '../../../shared/time-format';

export interface Domain {
  from: number;
  to: number;
}

const HOUR_MS = 3_600_000;
const MIN_SPAN = 6 * HOUR_MS;
const MAX_SPAN = 200 * 365 * DAY_MS;

export const xOf = (ms: number, d: Domain, width: number): number => ((ms - d.from) / (d.to - d.from)) * width;
export const msOf = (x: number, d: Domain, width: number): number => d.from + (x / Math.max(1, width)) * (d.to - d.from);

/** Zooms by factor (<1 zooms in) keeping the instant `pivot` where it is on screen. */
export function zoom(d: Domain, factor: number, pivot = (d.from + d.to) / 2): Domain {
  const span = Math.min(MAX_SPAN, Math.max(MIN_SPAN, (d.to - d.from) * factor));
  const ratio = (pivot - d.from) / (d.to - d.from);
  const from = pivot - ratio * span;
  return { from, to: from + span };
}

export function pan(d: Domain, deltaMs: number): Domain {
  return { from: d.from + deltaMs, to: d.to + deltaMs };
}

/**
 * Where the view may go: the memory's [first, last] (now included) with a margin of a tenth of it,
 * at least 30 days, each side: past that, the view would show only empty years.
 */
export function reach(min: number, max: number, now: number): Domain {
  const from = Math.min(min, now);
  const to = Math.max(max, now);
  const margin = Math.max((to - from) * 0.1, 30 * DAY_MS);
  return { from: from - margin, to: to + margin };
}

/**
 * The view kept within `range` (reach()), its span unchanged; a view wider than the range is the
 * range (zooming out stops once the whole memory and now are in view, not at empty centuries).
 */
export function clamp(d: Domain, range: Domain): Domain {
  const span = d.to - d.from;
  if (span >= range.to - range.from) return d.from === range.from && d.to === range.to ? d : range;
  const from = Math.min(range.to - span, Math.max(range.from, d.from));
  return from === d.from ? d : { from, to: from + span };
}

/** The whole [min, max] with a margin on both sides. */
export function fit(min: number, max: number): Domain {
  const span = Math.max(max - min, 2 * DAY_MS);
  const pad = span * 0.04;
  return { from: min - pad, to: max + pad };
}

/** Snaps while dragging: whole days of `zone` when a day is wide enough to aim at, else whole hours. */
export function snap(ms: number, d: Domain, width: number, zone = 'UTC'): number {
  const dayPx = (DAY_MS / (d.to - d.from)) * width;
  return dayPx >= 1.5 || d.to - d.from > 3 * DAY_MS ? roundToDay(ms, zone) : roundToHour(ms, zone);
}

export interface Tick {
  ms: number;
  label: string;
  major: boolean;
}

type Step = { kind: 'hours'; n: number } | { kind: 'days'; n: number } | { kind: 'months'; n: number } | { kind: 'years'; n: number };
const STEPS: { step: Step; approx: number }[] = [
  { step: { kind: 'hours', n: 1 }, approx: HOUR_MS },
  { step: { kind: 'hours', n: 6 }, approx: 6 * HOUR_MS },
  { step: { kind: 'days', n: 1 }, approx: DAY_MS },
  { step: { kind: 'days', n: 7 }, approx: 7 * DAY_MS },
  { step: { kind: 'months', n: 1 }, approx: 30 * DAY_MS },
  { step: { kind: 'months', n: 3 }, approx: 91 * DAY_MS },
  { step: { kind: 'months', n: 6 }, approx: 182 * DAY_MS },
  { step: { kind: 'years', n: 1 }, approx: 365 * DAY_MS },
  { step: { kind: 'years', n: 5 }, approx: 5 * 365 * DAY_MS },
  { step: { kind: 'years', n: 10 }, approx: 10 * 365 * DAY_MS },
  { step: { kind: 'years', n: 50 }, approx: 50 * 365 * DAY_MS },
];

function first(ms: number, step: Step): Date {
  const d = new Date(ms);
  switch (step.kind) {
    case 'hours':
      return new Date(Math.ceil(ms / (step.n * HOUR_MS)) * step.n * HOUR_MS);
    case 'days': {
      // weekly ticks fall on Mondays (1970-01-05 was one)
      const origin = step.n === 7 ? 4 * DAY_MS : 0;
      return new Date(Math.ceil((ms - origin) / (step.n * DAY_MS)) * step.n * DAY_MS + origin);
    }
    case 'months': {
      let month = d.getUTCFullYear() * 12 + d.getUTCMonth();
      if (Date.UTC(Math.floor(month / 12), month % 12, 1) < ms) month += 1;
      month = Math.ceil(month / step.n) * step.n;
      return new Date(Date.UTC(Math.floor(month / 12), month % 12, 1));
    }
    case 'years': {
      let year = d.getUTCFullYear();
      if (Date.UTC(year, 0, 1) < ms) year += 1;
      return new Date(Date.UTC(Math.ceil(year / step.n) * step.n, 0, 1));
    }
  }
}

function next(date: Date, step: Step): Date {
  switch (step.kind) {
    case 'hours':
      return new Date(date.getTime() + step.n * HOUR_MS);
    case 'days':
      return new Date(date.getTime() + step.n * DAY_MS);
    case 'months':
      return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + step.n, 1));
    case 'years':
      return new Date(Date.UTC(date.getUTCFullYear() + step.n, 0, 1));
  }
}

const labelFormats = new Map<string, Intl.DateTimeFormat>();
/** Formats a wall time (held as the UTC fields of `date`) for the locale. */
function wallText(date: Date, locale: string, options: Intl.DateTimeFormatOptions): string {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = labelFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    labelFormats.set(key, f);
  }
  return f.format(date);
}

/**
 * A tick's label for the locale: "10:00", "Sep 15", "Sep 2026", "2026" (Japanese: "9月15日", "2026年9月").
 * A day that `named` says must name its year (the first day in view, the first of a new year) does:
 * "Jan 1, 2027", "2027年1月1日".
 */
function label(date: Date, step: Step, locale: string, named = false): { text: string; major: boolean } {
  const y = date.getUTCFullYear();
  const dayText = () => wallText(date, locale, named ? { year: 'numeric', month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric' });
  switch (step.kind) {
    case 'hours':
      return { text: date.getUTCHours() === 0 ? dayText() : wallText(date, locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }), major: date.getUTCHours() === 0 };
    case 'days':
      return { text: dayText(), major: date.getUTCDate() === 1 };
    case 'months':
      return { text: wallText(date, locale, { month: 'short', year: 'numeric' }), major: date.getUTCMonth() === 0 };
    case 'years':
      return { text: wallText(date, locale, { year: 'numeric' }), major: y % (step.n * 5) === 0 };
  }
}

/**
 * Ticks about every `spacing` pixels, on the calendar boundaries of the format's zone, labelled for
 * its locale. The steps are worked out on the zone's wall clock (held as UTC fields), each tick then
 * placed at the instant that wall time names there.
 */
export function ticks(d: Domain, width: number, format: TimeFormat = { timeZone: 'UTC', locale: 'en-US' }, spacing = 90): Tick[] {
  const wanted = ((d.to - d.from) / Math.max(1, width)) * spacing;
  let index = STEPS.findIndex((s) => s.approx >= wanted * 0.8);
  if (index < 0) index = STEPS.length - 1;
  // A short axis (a narrow window, the as-of drawer open) still gets three ticks or so: a smaller
  // step, down to ticks 40% of `spacing` apart (the axis leaves out dates that would touch).
  while (index > 0 && (d.to - d.from) / STEPS[index]!.approx < 3 && STEPS[index - 1]!.approx >= wanted * 0.4) index--;
  const step = STEPS[index]!.step;
  const zone = format.timeZone;
  const wallFrom = d.from + offsetMs(d.from, zone);
  const wallTo = d.to + offsetMs(d.to, zone);
  const out: Tick[] = [];
  // Days and hours say no year: the first day labelled, and the first of each new year, name it.
  let year: number | null = null;
  for (let date = first(wallFrom, step); date.getTime() <= wallTo && out.length < 500; date = next(date, step)) {
    const isDay = step.kind === 'days' || date.getUTCHours() === 0;
    const named = (step.kind === 'days' || step.kind === 'hours') && isDay && year !== date.getUTCFullYear();
    if (isDay) year = date.getUTCFullYear();
    const { text, major } = label(date, step, format.locale, named);
    const ms = wallToUtc({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: date.getUTCHours(), minute: date.getUTCMinutes() }, zone);
    // The repeated hour of an autumn change names one instant twice: one tick.
    if (out.length > 0 && out[out.length - 1]!.ms >= ms) continue;
    out.push({ ms, label: text, major });
  }
  return out;
}
