/**
 * The timeline chart: the overview strip, a sticky axis with the as-of cursor, then only the rows
 * in view (row-offsets.ts: the layout knows each fetched row's height, the rest are placeholders
 * of one height): group headers and rows, a grid, a cursor line across all rows, and the
 * popover of the bar pointed at or focused. Narrow, the names column is narrower.
 * Keyboard (when the chart has focus): + / − zoom, ← / → pan, 0 fit, ↑ / ↓ scroll.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { useTimeFormat } from '../app/time-format';
import { plural } from '../common/format';
import { useElementSize } from '../common/use-element-size';
import { useRowWindow } from './use-row-window';
import { BarPopover } from './BarPopover';
import { AXIS_HEIGHT, TimeAxis } from './TimeAxis';
import type { Density } from './timeline-fit';
import { pendingRow, type TimelineLayout } from './timeline-model';
import { TimelineGroupRow } from './TimelineGroupRow';
import { OVERVIEW_HEIGHT, TimelineOverview } from './TimelineOverview';
import { TimelineRowView } from './TimelineRowView';
import { pan, ticks, xOf, zoom, type Domain } from './timeline-scale';
import { useChartGestures } from './use-chart-gestures';
import type { TimelineBack } from './timeline-view';

export const LABEL_WIDTH = 210;
/** The names column below NARROW px of chart. */
const NARROW = 700;
const NARROW_LABEL_WIDTH = 140;
/** Below a bar nearer the chart's bottom than this, the popover goes over the bar. */
const POPOVER_ROOM = 110;
/** A row not fetched yet is drawn as an empty row of one lane (pendingRow). */
const PENDING_ROW_HEIGHT = pendingRow(0).height;

interface Props {
  layout: TimelineLayout;
  domain: Domain;
  asOf: number;
  /** How the cursor's moment reads, when not as the moment itself ("now", "March 2025"). */
  asOfText?: string;
  now: number;
  setDomain(domain: Domain): void;
  setAsOf(ms: number): void;
  onFit(): void;
  /** A bar opened, with where the rows were scrolled. */
  onOpen(fact: FactRecord, scrollTop: number): void;
  /** Back from a fact opened here: its bar, scrolled to and focused once drawn. */
  back?: TimelineBack | null;
  /** Told the first and last row index in view (with overscan) when they change: the rows to fetch. */
  onRowsInView?(first: number, last: number): void;
  /** The whole range, for the overview strip. */
  whole: Domain;
  density: Density | null | undefined;
  onToggleGroup(subjectId: string, open: boolean): void;
  onToggleRow(key: string): void;
}

export function TimelineChart({ layout, domain, asOf, asOfText, now, setDomain, setAsOf, onFit, onOpen, back, onRowsInView, whole, density, onToggleGroup, onToggleRow }: Props) {
  const format = useTimeFormat();
  const chart = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const { width: bodyWidth, height } = useElementSize(body);
  const labelWidth = bodyWidth > 0 && bodyWidth < NARROW ? NARROW_LABEL_WIDTH : LABEL_WIDTH;
  const width = Math.max(100, bodyWidth - labelWidth);
  const [hovered, setHovered] = useState<string | null>(null);
  const popover = usePopover(chart, setHovered);
  const gestures = useChartGestures({ body, domain, width, labelWidth, setDomain });
  const { rows } = layout;
  const rowWindow = useRowWindow(body, rows, PENDING_ROW_HEIGHT, height);
  const inView = rowWindow.items;
  const firstInView = inView[0]?.index ?? 0;
  const lastInView = inView[inView.length - 1]?.index ?? 0;
  useEffect(() => onRowsInView?.(firstInView, lastInView), [firstInView, lastInView, onRowsInView]);
  useReturnTo(back, body, chart);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget && !(event.target instanceof SVGElement)) return;
    const span = domain.to - domain.from;
    const pivot = asOf >= domain.from && asOf <= domain.to ? asOf : (domain.from + domain.to) / 2;
    const actions: Record<string, () => void> = {
      '+': () => setDomain(zoom(domain, 0.8, pivot)),
      '=': () => setDomain(zoom(domain, 0.8, pivot)),
      '-': () => setDomain(zoom(domain, 1.25, pivot)),
      '0': onFit,
      ArrowLeft: () => setDomain(pan(domain, -span * 0.15)),
      ArrowRight: () => setDomain(pan(domain, span * 0.15)),
      ArrowUp: () => rowWindow.scrollBy(-60),
      ArrowDown: () => rowWindow.scrollBy(60),
      PageUp: () => rowWindow.scrollBy(-height * 0.9),
      PageDown: () => rowWindow.scrollBy(height * 0.9),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const cursorX = xOf(asOf, domain, width);
  const popped = hovered ? layout.byId.get(hovered) : undefined;
  const closer = popped?.bar.fact.invalidated_by ? layout.byId.get(popped.bar.fact.invalidated_by)?.bar.fact : undefined;
  return (
    <div
      ref={chart}
      className="tl-chart"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Timeline chart. Plus and minus zoom, arrow keys pan, 0 fits where the facts are."
      role="group"
      style={{ ['--tl-label-width' as string]: `${labelWidth}px` }}
    >
      <svg className="tl-defs" aria-hidden="true" width="0" height="0">
        <defs>
          <marker id="tl-arrow" viewBox="0 0 8 8" refX="6" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" />
          </marker>
        </defs>
      </svg>
      <TimelineOverview whole={whole} domain={domain} density={density} width={width} labelWidth={labelWidth} setDomain={setDomain} />
      <div className="tl-axis-row">
        <div className="tl-corner" style={{ width: labelWidth }}>
          {plural(layout.totalSlots ?? rows.length, 'row')}
        </div>
        <TimeAxis domain={domain} width={width} asOf={asOf} asOfText={asOfText} now={now} onAsOf={setAsOf} />
      </div>
      <div
        ref={body}
        className="tl-body"
        onPointerDown={gestures.onPointerDown}
        onPointerMove={gestures.onPointerMove}
        onPointerUp={gestures.onPointerUp}
        onPointerCancel={gestures.onPointerCancel}
      >
        <svg className="tl-grid" width={width} height={Math.max(height, rowWindow.totalSize)} style={{ left: labelWidth }} aria-hidden="true">
          {ticks(domain, width, format).map((tick) => {
            const x = xOf(tick.ms, domain, width);
            return <line key={tick.ms} className={tick.major ? 'major' : ''} x1={x} x2={x} y1={0} y2="100%" />;
          })}
        </svg>
        <div className="tl-spacer" style={{ height: rowWindow.totalSize }}>
          {inView.map((item) => {
            const row = rows[item.index] ?? pendingRow(item.index);
            if (row.group) return <TimelineGroupRow key={row.key} row={row} top={item.start} domain={domain} width={width} now={now} onToggle={onToggleGroup} />;
            return (
              <TimelineRowView
                key={row.key}
                row={row}
                top={item.start}
                layout={layout}
                domain={domain}
                width={width}
                asOf={asOf}
                now={now}
                hovered={hovered}
                onHover={popover.onHover}
                onOpen={(fact) => {
                  if (!gestures.suppressClick.current) onOpen(fact, body.current?.scrollTop ?? 0);
                }}
                onToggleRow={onToggleRow}
              />
            );
          })}
        </div>
        {rows.length === 0 && <p className="muted tl-empty">No facts to show.</p>}
      </div>
      {cursorX >= 0 && cursorX <= width && <div className="tl-cursor-line" style={{ left: labelWidth + cursorX, top: OVERVIEW_HEIGHT + 1 + AXIS_HEIGHT }} aria-hidden="true" />}
      {popped && popover.anchor && (
        <BarPopover
          fact={popped.bar.fact}
          closer={closer}
          left={popover.anchor.left}
          top={popover.anchor.top}
          above={popover.anchor.above}
          within={chart.current?.clientWidth ?? 0}
          onKeep={popover.keep}
        />
      )}
    </div>
  );
}

/**
 * Back from a fact opened from the chart, a keyboard user goes on from its bar, not from the top of
 * a long list: the rows scrolled to where they were (once they are that tall), then the focus on the
 * bar once it is drawn — unless the user has put the focus somewhere else first.
 */
function useReturnTo(back: TimelineBack | null | undefined, body: RefObject<HTMLDivElement | null>, chart: RefObject<HTMLDivElement | null>) {
  const pending = useRef(back ?? null);
  const scrolled = useRef(back?.scrollTop === null);
  useLayoutEffect(() => {
    const to = pending.current;
    const element = body.current;
    if (!to || !element || !chart.current) return;
    if (document.activeElement && document.activeElement !== document.body) {
      pending.current = null;
      return;
    }
    if (!scrolled.current && to.scrollTop !== null && element.scrollHeight - element.clientHeight >= to.scrollTop) {
      element.scrollTop = to.scrollTop;
      scrolled.current = true;
    }
    const bar = chart.current.querySelector<SVGGElement>(`g.tl-bar[data-fact-id="${CSS.escape(to.factId)}"]`);
    if (scrolled.current && bar) {
      bar.focus({ preventScroll: true });
      pending.current = null;
    }
  });
}

/**
 * The popover's anchor: under the bar pointed at or focused. Leaving a bar hides it a moment later,
 * unless the pointer reached the popover's link.
 */
function usePopover(chart: RefObject<HTMLDivElement | null>, setHovered: (id: string | null) => void) {
  const [anchor, setAnchor] = useState<{ left: number; top: number; above: boolean } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const kept = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onHover = useCallback(
    (id: string | null, element?: Element) => {
      clearTimeout(timer.current);
      if (id !== null && element && chart.current) {
        const box = element.getBoundingClientRect();
        const frame = chart.current.getBoundingClientRect();
        const left = Math.max(box.left, frame.left) - frame.left;
        // Under the bar, or over it near the chart's bottom edge.
        const above = frame.bottom - box.bottom < POPOVER_ROOM;
        setAnchor({ left, top: above ? box.top - frame.top - 6 : box.bottom - frame.top + 6, above });
        setHovered(id);
        return;
      }
      timer.current = setTimeout(() => {
        if (kept.current) return;
        setHovered(null);
        setAnchor(null);
      }, 200);
    },
    [chart, setHovered],
  );
  const keep = useCallback(
    (on: boolean) => {
      kept.current = on;
      if (!on) onHover(null);
      else clearTimeout(timer.current);
    },
    [onHover],
  );
  return { anchor, onHover, keep };
}
