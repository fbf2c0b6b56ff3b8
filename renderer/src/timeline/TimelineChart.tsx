/**
 * The timeline chart: a sticky axis with the as-of cursor, then only the rows in view (virtual
 * scrolling over variable row heights with @tanstack/react-virtual; the layout knows each row's
 * height), a grid, and a cursor line across all rows.
 * Keyboard (when the chart has focus): + / − zoom, ← / → pan, 0 fit, ↑ / ↓ scroll.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { useTimeFormat } from '../app/time-format';
import { useElementSize } from '../common/use-element-size';
import { TimeAxis } from './TimeAxis';
import type { TimelineLayout } from './timeline-model';
import { TimelineRowView } from './TimelineRowView';
import { pan, ticks, xOf, zoom, type Domain } from './timeline-scale';
import { useChartGestures } from './use-chart-gestures';

export const LABEL_WIDTH = 210;

interface Props {
  layout: TimelineLayout;
  domain: Domain;
  asOf: number;
  now: number;
  setDomain(domain: Domain): void;
  setAsOf(ms: number): void;
  onFit(): void;
  onOpen(fact: FactRecord): void;
}

export function TimelineChart({ layout, domain, asOf, now, setDomain, setAsOf, onFit, onOpen }: Props) {
  const format = useTimeFormat();
  const body = useRef<HTMLDivElement>(null);
  const { width: bodyWidth, height } = useElementSize(body);
  const width = Math.max(100, bodyWidth - LABEL_WIDTH);
  const [hovered, setHovered] = useState<string | null>(null);
  const gestures = useChartGestures({ body, domain, width, labelWidth: LABEL_WIDTH, setDomain });
  const { rows } = layout;
  // A new layout is a new getItemKey: the virtualiser then takes the new rows' heights.
  const getItemKey = useCallback((index: number) => rows[index]!.key, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => body.current,
    estimateSize: (index) => rows[index]!.height,
    getItemKey,
    overscan: 5,
    useFlushSync: false,
  });

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
      ArrowUp: () => virtualizer.scrollBy(-60),
      ArrowDown: () => virtualizer.scrollBy(60),
      PageUp: () => virtualizer.scrollBy(-height * 0.9),
      PageDown: () => virtualizer.scrollBy(height * 0.9),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const cursorX = xOf(asOf, domain, width);
  return (
    <div className="tl-chart" tabIndex={0} onKeyDown={onKeyDown} aria-label="Timeline chart. Plus and minus zoom, arrow keys pan, 0 fits everything." role="group">
      <svg className="tl-defs" aria-hidden="true" width="0" height="0">
        <defs>
          <marker id="tl-arrow" viewBox="0 0 8 8" refX="6" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" />
          </marker>
        </defs>
      </svg>
      <div className="tl-axis-row">
        <div className="tl-corner" style={{ width: LABEL_WIDTH }}>
          {rows.length} rows
        </div>
        <TimeAxis domain={domain} width={width} asOf={asOf} now={now} onAsOf={setAsOf} />
      </div>
      <div
        ref={body}
        className="tl-body"
        onPointerDown={gestures.onPointerDown}
        onPointerMove={gestures.onPointerMove}
        onPointerUp={gestures.onPointerUp}
        onPointerCancel={gestures.onPointerCancel}
      >
        <svg className="tl-grid" width={width} height={Math.max(height, virtualizer.getTotalSize())} style={{ left: LABEL_WIDTH }} aria-hidden="true">
          {ticks(domain, width, format).map((tick) => {
            const x = xOf(tick.ms, domain, width);
            return <line key={tick.ms} className={tick.major ? 'major' : ''} x1={x} x2={x} y1={0} y2="100%" />;
          })}
        </svg>
        <div className="tl-spacer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
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
                onHover={setHovered}
                onOpen={(fact) => {
                  if (!gestures.suppressClick.current) onOpen(fact);
                }}
              />
            );
          })}
        </div>
        {rows.length === 0 && <p className="muted tl-empty">No facts to show.</p>}
      </div>
      {cursorX >= 0 && cursorX <= width && <div className="tl-cursor-line" style={{ left: LABEL_WIDTH + cursorX }} aria-hidden="true" />}
    </div>
  );
}
