/** A summary bar: a row's or a group's facts as one bar from the first start to the last end (or now), with their count and changes. */
import type { RowSummary } from './timeline-model';
import { visibleLabel } from './bar-label';
import { xOf, type Domain } from './timeline-scale';

export const summaryText = (s: RowSummary): string => `${s.count} ${s.count === 1 ? 'fact' : 'facts'} · ${s.changes} ${s.changes === 1 ? 'change' : 'changes'}`;

export function SummaryBar({ summary, domain, width, now, y, height }: { summary: RowSummary; domain: Domain; width: number; now: number; y: number; height: number }) {
  const end = summary.open ? Math.max(now, summary.last) : summary.last;
  if (end < domain.from || summary.first > domain.to) return null;
  const x1 = Math.max(-4, xOf(summary.first, domain, width));
  const x2 = Math.min(width + 4, Math.max(x1 + 6, xOf(end, domain, width)));
  const label = visibleLabel(summaryText(summary), x1, x2, width);
  return (
    <g className={`tl-summary${summary.open ? ' open' : ''}`} aria-hidden="true">
      <rect x={x1} y={y} width={x2 - x1} height={height} rx={4} />
      {label.text && (
        <text x={label.x} y={y + height / 2 + 4}>
          {label.text}
        </text>
      )}
    </g>
  );
}
