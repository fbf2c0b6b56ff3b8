/** The time axis of the timeline: a [from, to] domain in ms mapped onto a pixel width; zoom, pan, ticks. */
import { DAY_MS } from '../common/time-input';

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

/** The whole [min, max] with a margin on both sides. */
export function fit(min: number, max: number): Domain {
  const span = Math.max(max - min, 2 * DAY_MS);
  const pad = span * 0.04;
  return { from: min - pad, to: max + pad };
}

/** Snaps while dragging: whole UTC days when a day is wide enough to aim at, else whole hours. */
export function snap(ms: number, d: Domain, width: number): number {
  const dayPx = (DAY_MS / (d.to - d.from)) * width;
  const unit = dayPx >= 1.5 || d.to - d.from > 3 * DAY_MS ? DAY_MS : HOUR_MS;
  return Math.round(ms / unit) * unit;
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

const pad2 = (n: number) => String(n).padStart(2, '0');

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

function label(date: Date, step: Step): { text: string; major: boolean } {
  const y = date.getUTCFullYear();
  const m = pad2(date.getUTCMonth() + 1);
  const day = pad2(date.getUTCDate());
  switch (step.kind) {
    case 'hours':
      return { text: date.getUTCHours() === 0 ? `${y}-${m}-${day}` : `${pad2(date.getUTCHours())}:00`, major: date.getUTCHours() === 0 };
    case 'days':
      return { text: date.getUTCDate() === 1 || step.n === 7 ? `${y}-${m}-${day}` : `${m}-${day}`, major: date.getUTCDate() === 1 };
    case 'months':
      return { text: `${y}-${m}`, major: date.getUTCMonth() === 0 };
    case 'years':
      return { text: String(y), major: y % (step.n * 5) === 0 };
  }
}

/** Ticks about every `spacing` pixels, on calendar boundaries (UTC). */
export function ticks(d: Domain, width: number, spacing = 90): Tick[] {
  const wanted = ((d.to - d.from) / Math.max(1, width)) * spacing;
  const step = (STEPS.find((s) => s.approx >= wanted * 0.8) ?? STEPS[STEPS.length - 1]!).step;
  const out: Tick[] = [];
  for (let date = first(d.from, step); date.getTime() <= d.to && out.length < 500; date = next(date, step)) {
    const { text, major } = label(date, step);
    out.push({ ms: date.getTime(), label: text, major });
  }
  return out;
}
