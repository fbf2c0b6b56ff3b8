/**
 * A summary bar: a row's or a group's facts as one bar from the first start to the last end (or now),
 * with their count and changes, and ticks where they begin, end and change (summary-marks.ts): taller
 * where more do. The label lies on a backing of the panel's colour, drawn over the ticks (a halo round
 * its letters was not enough: ticks showed between them), so it reads at 4.5:1 and the ticks under it
 * still show faintly through.
 */
import { plural } from '../common/format';
import type { RowSummary } from './timeline-model';
import { textWidth, visibleLabel } from './bar-label';
import { markTicks, type Marks } from './summary-marks';
import { xOf, type Domain } from './timeline-scale';

/** The label's backing reaches this far beyond its letters. */
const LABEL_PAD = 3;

/**
 * "12 facts · 3 changes"; "5 facts" when no value replaced another (five things liked): "0 changes"
 * beside the ticks of their starts read as if the ticks were nothing, and covered more of them.
 */
export const summaryText = (s: RowSummary): string => (s.changes === 0 ? plural(s.count, 'fact') : `${plural(s.count, 'fact')} · ${plural(s.changes, 'change')}`);

interface Props {
  summary: RowSummary;
  domain: Domain;
  width: number;
  now: number;
  y: number;
  height: number;
  /** Where its facts begin and end (null or absent: no ticks). */
  marks?: Marks | null;
}

export function SummaryBar({ summary, domain, width, now, y, height, marks }: Props) {
  const end = summary.open ? Math.max(now, summary.last) : summary.last;
  if (end < domain.from || summary.first > domain.to) return null;
  const x1 = Math.max(-4, xOf(summary.first, domain, width));
  const x2 = Math.min(width + 4, Math.max(x1 + 6, xOf(end, domain, width)));
  const label = visibleLabel(summaryText(summary), x1, x2, width);
  const ticks = marks ? markTicks(marks).filter((t) => t.to >= domain.from && t.from <= domain.to) : [];
  return (
    <g className={`tl-summary${summary.open ? ' open' : ''}`} aria-hidden="true">
      <rect x={x1} y={y} width={x2 - x1} height={height} rx={4} />
      {ticks.length > 0 && (
        <g className="tl-marks">
          {ticks.map((t) => {
            const left = Math.max(x1, xOf(t.from, domain, width));
            const right = Math.min(x2, xOf(t.to, domain, width));
            const w = Math.max(2, right - left);
            const h = Math.max(4, Math.round((height - 2) * (0.35 + 0.65 * t.weight)));
            return <rect key={t.at} className="tl-mark" data-at={Math.round(t.at)} data-n={t.n} x={Math.min(left, x2 - w)} y={y + height - 1 - h} width={w} height={h} />;
          })}
        </g>
      )}
      {label.text && (
        <>
          {ticks.length > 0 && <rect className="tl-summary-label" x={label.x - LABEL_PAD} y={y} width={Math.min(textWidth(label.text) + 2 * LABEL_PAD, x2 - label.x + LABEL_PAD)} height={height} rx={3} />}
          <text x={label.x} y={y + height / 2 + 4}>
            {label.text}
          </text>
        </>
      )}
    </g>
  );
}
