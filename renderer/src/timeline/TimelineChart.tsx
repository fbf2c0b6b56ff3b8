/**
 * The timeline chart: a sticky axis with the as-of cursor, then only the rows in view (virtual
 * scrolling over variable row heights), a grid, and a cursor line across all rows.
 * Keyboard (when the chart has focus): + / − zoom, ← / → pan, 0 fit, ↑ / ↓ scroll.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { useElementSize } from '../common/use-element-size';
import { TimeAxis } from './TimeAxis';
import { firstRowAt, type TimelineLayout } from './timeline-model';
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
  const body = useRef<HTMLDivElement>(null);
  const { width: bodyWidth, height } = useElementSize(body);
  const width = Math.max(100, bodyWidth - LABEL_WIDTH);
  const [scrollTop, setScrollTop] = useState(0);
  const [hovered, setHovered] = useState<string | null>(null);
  const gestures = useChartGestures({ body, domain, width, labelWidth: LABEL_WIDTH, setDomain });

  const start = firstRowAt(layout.rows, Math.max(0, scrollTop - 200));
  const visible = [];
  for (let i = start; i < layout.rows.length; i++) {
    const row = layout.rows[i]!;
    if (row.top > scrollTop + height + 200) break;
    visible.push(row);
  }

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
      ArrowUp: () => body.current?.scrollBy({ top: -60 }),
      ArrowDown: () => body.current?.scrollBy({ top: 60 }),
      PageUp: () => body.current?.scrollBy({ top: -height * 0.9 }),
      PageDown: () => body.current?.scrollBy({ top: height * 0.9 }),
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
          {layout.rows.length} rows
        </div>
        <TimeAxis domain={domain} width={width} asOf={asOf} now={now} onAsOf={setAsOf} />
      </div>
      <div
        ref={body}
        className="tl-body"
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onPointerDown={gestures.onPointerDown}
        onPointerMove={gestures.onPointerMove}
        onPointerUp={gestures.onPointerUp}
        onPointerCancel={gestures.onPointerCancel}
      >
        <svg className="tl-grid" width={width} height={Math.max(height, layout.totalHeight)} style={{ left: LABEL_WIDTH }} aria-hidden="true">
          {ticks(domain, width).map((tick) => {
            const x = xOf(tick.ms, domain, width);
            return <line key={tick.ms} className={tick.major ? 'major' : ''} x1={x} x2={x} y1={0} y2="100%" />;
          })}
        </svg>
        <div className="tl-spacer" style={{ height: layout.totalHeight }}>
          {visible.map((row) => (
            <TimelineRowView
              key={row.key}
              row={row}
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
          ))}
        </div>
        {layout.rows.length === 0 && <p className="muted tl-empty">No facts to show.</p>}
      </div>
      {cursorX >= 0 && cursorX <= width && <div className="tl-cursor-line" style={{ left: LABEL_WIDTH + cursorX }} aria-hidden="true" />}
    </div>
  );
}
