/** Small status labels of a fact version: not yet true / true now / until … / ended … / replaced, and its origin. */
import type { FactRecord } from '../../../shared/memory-schema';
import { useTimeFormat } from '../app/time-format';
import { isPast } from '../../../shared/time-format';
import { formatEnd, formatTime } from '../common/format';

const ORIGIN: Record<FactRecord['origin'], string> = { extracted: 'learned', observed: 'observed', user_edit: 'edited', import: 'imported' };

export function FactBadges({ fact }: { fact: FactRecord }) {
  const format = useTimeFormat();
  return (
    <span className="badges">
      {fact.expired_at !== null ? (
        <span className="badge expired">replaced {formatTime(fact.expired_at, format)}</span>
      ) : !isPast(fact.valid_at) ? (
        // Starts later (a trip planned, a liking "from 13 Dec"): not true yet, whatever its end.
        <span className="badge">not yet true</span>
      ) : fact.invalid_at === null ? (
        <span className="badge ok">true now</span>
      ) : (
        // "ended 25 May 2026" once the end is past; "until 31 Dec 2026" while it is still true.
        <span className={`badge ${isPast(fact.invalid_at) ? 'closed' : 'ok'}`}>{formatEnd(fact, format)}</span>
      )}
      <span className="badge">{ORIGIN[fact.origin]}</span>
    </span>
  );
}
