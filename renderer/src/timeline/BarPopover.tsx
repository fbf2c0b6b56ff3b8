/**
 * The popover of the bar pointed at or focused: the fact's sentence, its interval in the user's
 * zone, and what closed it (a link to that fact). It sits under the bar (over it at the chart's
 * bottom edge), never on it, and lets
 * the pointer through except on its link (the chart keeps it open while the pointer is there).
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { isPast } from '../../../shared/time-format';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatInterval } from '../common/format';

interface Props {
  fact: FactRecord;
  /** The closer, where it is loaded. */
  closer: FactRecord | undefined;
  /** Where the bar is, in the chart's own pixels. */
  left: number;
  top: number;
  /** Drawn upwards from `top` (the bar is near the bottom edge). */
  above: boolean;
  /** The chart's width (the popover stays inside it). */
  within: number;
  onKeep(keep: boolean): void;
}

export function BarPopover({ fact, closer, left, top, above, within, onKeep }: Props) {
  const format = useTimeFormat();
  const x = Math.max(8, Math.min(left, within - 328));
  return (
    <div className="tl-popover" role="tooltip" id="tl-popover" style={{ left: x, top, transform: above ? 'translateY(-100%)' : undefined }} data-testid="bar-popover">
      <div className="tl-popover-fact">{fact.fact}</div>
      <div className="tl-popover-when">
        {formatInterval(fact, format)} <span className="muted">({format.zoneName})</span>
      </div>
      <div className="tl-popover-closed">
        {fact.invalid_at === null ? (
          'Still true.'
        ) : fact.invalidated_by ? (
          <>
            {/* "Closed" only once the end is past; a change still to come is said as one. */}
            {isPast(fact.invalid_at) ? 'Closed by' : 'Still true until then; followed by'}{' '}
            <a href={factHref(fact.invalidated_by)} onPointerEnter={() => onKeep(true)} onPointerLeave={() => onKeep(false)}>
              {closer ? `“${closer.fact}”` : 'a later fact'}
            </a>
          </>
        ) : isPast(fact.invalid_at) ? (
          'Ended.'
        ) : (
          'Still true until then.'
        )}
      </div>
    </div>
  );
}
