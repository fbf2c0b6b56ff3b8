/**
 * One row (subject + predicate): its facts as bars over valid time, and the links from closed facts
 * to their closers. A row of more than MAX_LANES lanes is one summary bar until opened (the button
 * under its name). Labels start at the left edge of the part of a bar on screen. A row of many
 * changes in view draws only the links of the bar pointed at or focused.
 */
import { memo, type ReactNode } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { sayPredicate } from '../../../shared/predicate-words';
import { isPast } from '../../../shared/time-format';
import { useTimeFormat } from '../app/time-format';
import { formatCount, formatInterval, objectRepeatsSentence, plural, type TimeFormat } from '../common/format';
import { visibleLabel } from './bar-label';
import { SummaryBar } from './SummaryBar';
import { marksOfBars } from './summary-marks';
import { LANE_HEIGHT, MAX_LANES, ROW_PADDING, trueAt, type TimelineBar, type TimelineLayout, type TimelineRow } from './timeline-model';
import { xOf, type Domain } from './timeline-scale';

const BAR_TOP = 10;
const BAR_HEIGHT = 16;
/** More closed bars than this in view: only the hovered bar's links are drawn. */
const QUIET_LINKS_ABOVE = 6;

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
  /** A bar is pointed at or focused (its element, for the popover), or no longer (null). */
  onHover(id: string | null, anchor?: Element): void;
  onOpen(fact: FactRecord): void;
  /** Opens or folds a row of more than MAX_LANES lanes. */
  onToggleRow(key: string): void;
}

function barLabel(bar: TimelineBar, closer: FactRecord | undefined, format: TimeFormat, now: number): string {
  const f = bar.fact;
  // "closed" only for an end in the past: a fact ending later is still true (its end is in the interval's words);
  // one that starts later is not true yet ("from 16 Jan 2027").
  const state = !isPast(f.valid_at, now) ? '; not yet true' : f.invalid_at !== null && isPast(f.invalid_at, now) ? (closer ? `; closed by “${closer.fact}”` : '; ended') : '; still true';
  // The sentence once, where the object only repeats it.
  return `${objectRepeatsSentence(f) ? '' : `${f.object}: `}${f.fact} (${formatInterval(f, format, now)}${state})`;
}

export const TimelineRowView = memo(function TimelineRowView({ row, top, layout, domain, width, asOf, now, hovered, onHover, onOpen, onToggleRow }: Props) {
  const format = useTimeFormat();
  // What a person reads says the predicate in words; data-row (the row's name for tests and tools) keeps it as stored.
  const said = sayPredicate(row.predicate);
  const label = (
    <div className={`tl-label${row.inGroup ? ' in-group' : ''}`} title={`${row.subject} · ${said}`}>
      {!row.inGroup && <span className="tl-subject">{row.subject}</span>}
      <span className="tl-label-line">
        <span className="tl-predicate">{said}</span>
        {row.lanes > MAX_LANES && (
          <button type="button" className="tl-fold-toggle link-button" aria-expanded={!row.folded} onClick={() => onToggleRow(row.key)}>
            {row.folded ? (
              <>
                ▸ <span className="tl-fold-words">Show all </span>
                {formatCount(row.bars.length)}
              </>
            ) : (
              '▾ Fold'
            )}
          </button>
        )}
      </span>
    </div>
  );
  if (row.folded) {
    const summary = row.summary ?? { count: row.bars.length, changes: row.bars.filter((b) => b.end !== null).length, first: Math.min(...row.bars.map((b) => b.start)), last: Math.max(...row.bars.map((b) => b.end ?? b.start)), open: row.bars.some((b) => b.end === null) };
    return (
      <div className="tl-row folded" style={{ top, height: row.height }} data-row={`${row.subject} · ${row.predicate}`}>
        {label}
        <svg className="tl-row-svg" width={width} height={row.height} aria-label={`${row.subject} ${said}: ${plural(row.bars.length, 'fact')} in ${row.lanes} lanes, folded`}>
          <SummaryBar summary={summary} domain={domain} width={width} now={now} y={ROW_PADDING / 2 + 10} height={16} marks={marksOfBars(row.bars, domain)} />
        </svg>
      </div>
    );
  }
  const hoveredBar = hovered ? layout.byId.get(hovered)?.bar : undefined;
  const linkedIds = new Set<string>();
  if (hoveredBar) {
    linkedIds.add(hoveredBar.fact.id);
    if (hoveredBar.fact.invalidated_by) linkedIds.add(hoveredBar.fact.invalidated_by);
    for (const bar of row.bars) if (bar.fact.invalidated_by === hoveredBar.fact.id) linkedIds.add(bar.fact.id);
  }
  const bars: ReactNode[] = [];
  const links: ReactNode[] = [];
  // A row of many changes in view draws the links of the bar pointed at only (the close caps stay).
  const closedInView = row.bars.filter((bar) => bar.end !== null && bar.end >= domain.from && bar.start <= domain.to).length;
  const quiet = closedInView > QUIET_LINKS_ABOVE;
  for (const bar of row.bars) {
    // Still true: drawn to now, with an arrow. Not begun yet and open: true from its start on, drawn
    // to the chart's end (to now it would be a 6 px stub, read as a moment).
    const endMs = bar.end ?? (bar.start > now ? Infinity : now);
    if (endMs < domain.from || bar.start > domain.to) continue;
    const x1 = Math.max(-4, xOf(bar.start, domain, width));
    const x2 = Math.min(width + 4, Math.max(x1 + 6, xOf(endMs, domain, width)));
    const y = ROW_PADDING / 2 + bar.lane * LANE_HEIGHT + BAR_TOP;
    const closerEntry = bar.fact.invalidated_by ? layout.byId.get(bar.fact.invalidated_by) : undefined;
    // An end still to come is drawn on a bar that is still true ("until 31 Dec 2027"): only a past one has ended.
    const state = bar.end === null ? 'open' : bar.end > now ? 'open ends' : 'closed';
    const classes = ['tl-bar', state, trueAt(bar, asOf) ? 'asof' : 'not-asof', linkedIds.has(bar.fact.id) ? 'linked' : ''].join(' ');
    const text = visibleLabel(bar.fact.object, x1, x2, width);
    bars.push(
      <g
        key={bar.fact.id}
        className={classes}
        role="link"
        tabIndex={0}
        data-fact-id={bar.fact.id}
        aria-label={barLabel(bar, closerEntry?.bar.fact, format, now)}
        onClick={() => onOpen(bar.fact)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen(bar.fact);
          }
        }}
        onPointerEnter={(e) => onHover(bar.fact.id, e.currentTarget)}
        onPointerLeave={() => onHover(null)}
        onFocus={(e) => onHover(bar.fact.id, e.currentTarget)}
        onBlur={() => onHover(null)}
      >
        <rect x={x1} y={y} width={x2 - x1} height={BAR_HEIGHT} rx={4} />
        {bar.end === null && x2 <= width && <path className="tl-open-end" d={`M${x2 - 1},${y} l6,${BAR_HEIGHT / 2} l-6,${BAR_HEIGHT / 2} z`} />}
        {bar.end !== null && <line className="tl-close-cap" x1={x2} x2={x2} y1={y - 3} y2={y + BAR_HEIGHT + 3} />}
        {text.text && (
          <text x={text.x} y={y + 12}>
            {text.text}
          </text>
        )}
      </g>,
    );
    if (bar.fact.invalidated_by && (!quiet || linkedIds.has(bar.fact.id))) {
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
            <title>{closerEntry ? `Closed by “${closerEntry.bar.fact.fact}” (${closerEntry.row.subject} · ${sayPredicate(closerEntry.row.predicate)})` : 'Closed by a fact not shown here'}</title>
            <circle cx={x2} cy={y - 2} r={4} />
          </g>,
        );
      }
    }
  }
  return (
    <div className="tl-row" style={{ top, height: row.height }} data-row={`${row.subject} · ${row.predicate}`}>
      {label}
      <svg className="tl-row-svg" width={width} height={row.height} aria-label={`${row.subject} ${said}`}>
        {bars}
        {links}
      </svg>
    </div>
  );
});
