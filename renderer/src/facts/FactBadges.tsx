/** Small status labels of a fact version: closed / replaced / origin. */
import type { FactRecord } from '../../../shared/memory-schema';
import { useTimeFormat } from '../app/time-format';
import { formatEnd, formatTime } from '../common/format';

const ORIGIN: Record<FactRecord['origin'], string> = { extracted: 'learned', observed: 'observed', user_edit: 'edited', import: 'imported' };

export function FactBadges({ fact }: { fact: FactRecord }) {
  const format = useTimeFormat();
  return (
    <span className="badges">
      {fact.expired_at !== null ? (
        <span className="badge expired">replaced {formatTime(fact.expired_at, format)}</span>
      ) : fact.invalid_at === null ? (
        <span className="badge ok">true now</span>
      ) : (
        <span className="badge closed">closed {formatEnd(fact, format)}</span>
      )}
      <span className="badge">{ORIGIN[fact.origin]}</span>
    </span>
  );
}
