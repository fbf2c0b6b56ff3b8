/**
 * A group's header row: the subject, how many rows it has, and all its facts as one summary bar.
 * The header is a button (Enter / Space or a click): it collapses the group to this row, or opens it.
 */
import { memo } from 'react';
import { plural } from '../common/format';
import type { TimelineRow } from './timeline-model';
import { SummaryBar, summaryText } from './SummaryBar';
import type { Domain } from './timeline-scale';

interface Props {
  row: TimelineRow;
  top: number;
  domain: Domain;
  width: number;
  now: number;
  /** Opens (true) or collapses (false) the subject's group. */
  onToggle(subjectId: string, open: boolean): void;
}

export const TimelineGroupRow = memo(function TimelineGroupRow({ row, top, domain, width, now, onToggle }: Props) {
  const group = row.group!;
  const expanded = !group.collapsed;
  const summary = row.summary!;
  return (
    <div className={`tl-group${expanded ? ' expanded' : ''}`} style={{ top, height: row.height }} data-group={row.subject}>
      <button
        type="button"
        className="tl-group-toggle"
        aria-expanded={expanded}
        onClick={() => onToggle(group.subjectId, !expanded)}
      >
        {/* Its name is what it shows (a label of other words fails WCAG 2.5.3), then the summary. */}
        <span className="tl-caret" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        <span className="tl-subject">{row.subject}</span>{' '}
        <span className="tl-group-count">
          {plural(group.rows, 'row')}
        </span>
        <span className="visually-hidden">, {summaryText(summary)}</span>
      </button>
      <svg className="tl-row-svg" width={width} height={row.height} aria-hidden="true">
        <SummaryBar summary={summary} domain={domain} width={width} now={now} y={9} height={row.height - 18} marks={expanded ? null : summary.marks} />
      </svg>
    </div>
  );
});
