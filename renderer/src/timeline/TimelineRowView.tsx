/** One row (subject + predicate): its facts as bars over valid time, and the links from closed facts to their closers. */
import { memo, type ReactNode } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { useTimeFormat } from '../app/time-format';
import { formatInterval, type TimeFormat } from '../common/format';
import { LANE_HEIGHT, ROW_PADDING, trueAt, type TimelineBar, type TimelineLayout, type TimelineRow } from './timeline-model';
import { xOf, type Domain } from './timeline-scale';

const BAR_TOP = 10;
const BAR_HEIGHT = 16;

interface Props {
  row: TimelineRow;
  /** The row's offset in the scrolled body (from the virtualiser). */
  top: number;
  layout: TimelineLayout;
  domain: Domain;
  width: number;
  asOf: number;
  now: number;
  hovered: string | null;
  onHover(id: string | null): void;
  onOpen(fact: FactRecord): void;
}

function textFits(text: string, px: number): string {
  let used = 0;
  let out = '';
  for (const ch of text) {
    used += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 12 : 6.6;
    if (used > px) return out.length > 0 ? `${out.slice(0, -1)}…` : '';
    out += ch;
  }
  return out;
}

function barLabel(bar: TimelineBar, closer: FactRecord | undefined, format: TimeFormat): string {
  const f = bar.fact;
  const closed = f.invalid_at !== null ? (closer ? `; closed by “${closer.fact}”` : '; closed') : '; still true';
  return `${f.object}: ${f.fact} (${formatInterval(f, format)}${closed})`;
}

export const TimelineRowView = memo(function TimelineRowView({ row, top, layout, domain, width, asOf, now, hovered, onHover, onOpen }: Props) {
  const format = useTimeFormat();
  const hoveredBar = hovered ? layout.byId.get(hovered)?.bar : undefined;
  const linkedIds = new Set<string>();
  if (hoveredBar) {
    linkedIds.add(hoveredBar.fact.id);
    if (hoveredBar.fact.invalidated_by) linkedIds.add(hoveredBar.fact.invalidated_by);
    for (const bar of row.bars) if (bar.fact.invalidated_by === hoveredBar.fact.id) linkedIds.add(bar.fact.id);
  }
  const bars: ReactNode[] = [];
  const links: ReactNode[] = [];
  for (const bar of row.bars) {
    const endMs = bar.end ?? now;
    if (endMs < domain.from || bar.start > domain.to) continue;
    const x1 = Math.max(-4, xOf(bar.start, domain, width));
    const x2 = Math.min(width + 4, Math.max(x1 + 6, xOf(endMs, domain, width)));
    const y = ROW_PADDING / 2 + bar.lane * LANE_HEIGHT + BAR_TOP;
    const closerEntry = bar.fact.invalidated_by ? layout.byId.get(bar.fact.invalidated_by) : undefined;
    const classes = ['tl-bar', bar.end === null ? 'open' : 'closed', trueAt(bar, asOf) ? 'asof' : 'not-asof', linkedIds.has(bar.fact.id) ? 'linked' : ''].join(' ');
    const text = textFits(bar.fact.object, x2 - x1 - 8);
    bars.push(
      <g
        key={bar.fact.id}
        className={classes}
        role="link"
        tabIndex={0}
        data-fact-id={bar.fact.id}
        aria-label={barLabel(bar, closerEntry?.bar.fact, format)}
        onClick={() => onOpen(bar.fact)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen(bar.fact);
          }
        }}
        onPointerEnter={() => onHover(bar.fact.id)}
        onPointerLeave={() => onHover(null)}
        onFocus={() => onHover(bar.fact.id)}
        onBlur={() => onHover(null)}
      >
        <title>{barLabel(bar, closerEntry?.bar.fact, format)}</title>
        <rect x={x1} y={y} width={x2 - x1} height={BAR_HEIGHT} rx={4} />
        {bar.end === null && x2 <= width && <path className="tl-open-end" d={`M${x2 - 1},${y} l6,${BAR_HEIGHT / 2} l-6,${BAR_HEIGHT / 2} z`} />}
        {bar.end !== null && <line className="tl-close-cap" x1={x2} x2={x2} y1={y - 3} y2={y + BAR_HEIGHT + 3} />}
        {text && (
          <text x={x1 + 5} y={y + 12}>
            {text}
          </text>
        )}
      </g>,
    );
    if (bar.fact.invalidated_by) {
      const linked = linkedIds.has(bar.fact.id) ? ' linked' : '';
      if (closerEntry && closerEntry.row === row) {
        const xs = Math.max(-4, xOf(closerEntry.bar.start, domain, width));
        const ys = ROW_PADDING / 2 + closerEntry.bar.lane * LANE_HEIGHT + BAR_TOP;
        links.push(
          <path
            key={`link-${bar.fact.id}`}
            className={`tl-link${linked}`}
            d={`M${x2 - 7},${y} C${x2 - 7},${y - 11} ${xs + 7},${ys - 11} ${xs + 7},${ys - 1}`}
            markerEnd="url(#tl-arrow)"
          />,
        );
      } else {
        // Closed by a fact of another row (a synonymous predicate) or one not shown: a marker with its own tooltip.
        links.push(
          <g key={`link-${bar.fact.id}`} className={`tl-link-elsewhere${linked}`}>
            <title>{closerEntry ? `Closed by “${closerEntry.bar.fact.fact}” (${closerEntry.row.subject} · ${closerEntry.row.predicate})` : 'Closed by a fact not shown here'}</title>
            <circle cx={x2} cy={y - 2} r={4} />
          </g>,
        );
      }
    }
  }
  return (
    <div className="tl-row" style={{ top, height: row.height }} data-row={`${row.subject} · ${row.predicate}`}>
      <div className="tl-label" title={`${row.subject} · ${row.predicate}`}>
        <span className="tl-subject">{row.subject}</span>
        <span className="tl-predicate">{row.predicate}</span>
      </div>
      <svg className="tl-row-svg" width={width} height={row.height} aria-label={`${row.subject} ${row.predicate}`}>
        {bars}
        {links}
      </svg>
    </div>
  );
});
