/**
 * The time axis with the "as of" cursor: click or drag anywhere on the axis to move the cursor; the
 * handle is a slider (←/→ a day, Shift or PageUp/PageDown a month, Home/End the window's ends).
 * Days, ticks and the cursor's label are those of the user's zone.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';
import { DAY_MS } from '../common/time-input';
import { roundToDay } from '../common/zoned-time';
import { textWidth } from './bar-label';
import { msOf, snap, ticks, xOf, type Domain, type Tick } from './timeline-scale';

/** The axis's height: a lane for the as-of label on top, then the dates, then the ticks. */
export const AXIS_HEIGHT = 48;
/** Where the tick lines begin (the dates stand just above). */
const TICK_TOP = 38;

interface Props {
  domain: Domain;
  width: number;
  asOf: number;
  /** How the cursor's moment reads when it was typed or follows the clock ("March 2025", "now"); else the moment. */
  asOfText?: string;
  now: number;
  onAsOf(ms: number): void;
}

/**
 * Each tick with where its date is written (null: no room): 3 px right of the tick, over the period
 * it names. A date that would run past the axis's end is left out, never pulled back over the period
 * before (the trial's "Apr 2027" over March); so is one that would touch the date before it.
 */
export function tickLabels(all: readonly Tick[], domain: Domain, width: number): { tick: Tick; x: number; labelX: number | null }[] {
  let taken = -Infinity;
  return all.map((tick) => {
    const x = xOf(tick.ms, domain, width);
    const room = textWidth(tick.label);
    const from = x + 3;
    if (from < taken + 6 || from < 0 || from + room > width - 2) return { tick, x, labelX: null };
    taken = from + room;
    return { tick, x, labelX: from };
  });
}

export function TimeAxis({ domain, width, asOf, asOfText, now, onAsOf }: Props) {
  const format = useTimeFormat();
  const zone = format.timeZone;
  const dragging = useRef(false);
  const el = useRef<HTMLDivElement>(null);
  const at = (event: PointerEvent) => {
    const rect = el.current?.getBoundingClientRect();
    if (!rect) return asOf;
    return snap(msOf(event.clientX - rect.left, domain, width), domain, width, zone);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    onAsOf(at(event));
    event.currentTarget.querySelector<HTMLElement>('[role="slider"]')?.focus();
    event.preventDefault();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const month = 30 * DAY_MS;
    const moves: Record<string, number> = {
      ArrowLeft: event.shiftKey ? -month : -DAY_MS,
      ArrowRight: event.shiftKey ? month : DAY_MS,
      ArrowDown: -DAY_MS,
      ArrowUp: DAY_MS,
      PageDown: -month,
      PageUp: month,
    };
    const delta = moves[event.key];
    if (delta !== undefined) onAsOf(roundToDay(asOf + delta, zone));
    else if (event.key === 'Home') onAsOf(snap(domain.from, domain, width, zone));
    else if (event.key === 'End') onAsOf(snap(domain.to, domain, width, zone));
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const cursorX = xOf(asOf, domain, width);
  // Off screen, the handle (and its label) stands at the nearer edge.
  const handleX = Math.max(0, Math.min(width, cursorX));
  const nowX = xOf(now, domain, width);
  // At the cursor, "now" would crowd its label, which says "as of now" (or the day) already: the mark's line stays.
  const nowSaid = Math.abs(nowX - cursorX) > 6;
  const said = asOfText ?? formatMoment(asOf, format);
  // The label's width (its text, 6 px padding each side), measured as the bars' labels are: flipped
  // left of the handle near the right edge. It has a lane of its own above the dates, so it never
  // hides one: wherever the cursor is, every date the ticks have room for is named.
  const labelWidth = textWidth(`as of ${said}`) + 14;
  const flip = handleX > width - labelWidth - 20;
  const labels = tickLabels(ticks(domain, width, format), domain, width);
  return (
    <div
      ref={el}
      className="tl-axis"
      style={{ width }}
      data-from={domain.from}
      data-to={domain.to}
      onPointerDown={onPointerDown}
      onPointerMove={(event) => dragging.current && onAsOf(at(event))}
      onPointerUp={() => (dragging.current = false)}
      onPointerCancel={() => (dragging.current = false)}
    >
      <svg width={width} height={AXIS_HEIGHT} aria-hidden="true">
        {labels.map(({ tick, x, labelX }) => (
          <g key={tick.ms} className={tick.major ? 'tick major' : 'tick'}>
            <line x1={x} x2={x} y1={TICK_TOP} y2={AXIS_HEIGHT} />
            {labelX !== null && (
              <text x={labelX} y={TICK_TOP - 4}>
                {tick.label}
              </text>
            )}
          </g>
        ))}
        {nowX >= 0 && nowX <= width && (
          <g className="tl-now-mark" data-at={now}>
            <line x1={nowX} x2={nowX} y1={TICK_TOP + 2} y2={AXIS_HEIGHT} />
            {nowSaid && (
              <text x={nowX - 3} y={AXIS_HEIGHT - 2} textAnchor="end">
                now
              </text>
            )}
          </g>
        )}
      </svg>
      <div
        className={`tl-cursor-handle${cursorX < 0 || cursorX > width ? ' offscreen' : ''}${flip ? ' flip' : ''}`}
        style={{ left: handleX }}
        role="slider"
        tabIndex={0}
        aria-label="As of (drag, or use the arrow keys)"
        aria-valuemin={Math.round(domain.from)}
        aria-valuemax={Math.round(domain.to)}
        aria-valuenow={Math.round(asOf)}
        aria-valuetext={`as of ${said} (${format.zoneName})`}
        onKeyDown={onKeyDown}
        data-testid="asof-handle"
      >
        <span className="tl-cursor-label">as of {said}</span>
      </div>
    </div>
  );
}
