/** Zoom / pan buttons, the as-of date and the known-at moment (in the user's zone), and a row filter. */
import { useTimeFormat } from '../app/time-format';
import { instantOfLocalValue, toDateInputValue } from '../common/time-input';
import { KnownAtInput } from './KnownAtInput';

interface Props {
  asOf: number;
  knownAt: string | null;
  filter: string;
  onZoom(factor: number): void;
  onPan(fraction: number): void;
  onFit(): void;
  onAsOf(ms: number): void;
  onKnownAt(iso: string | null): void;
  onFilter(text: string): void;
}

export function TimelineToolbar({ asOf, knownAt, filter, onZoom, onPan, onFit, onAsOf, onKnownAt, onFilter }: Props) {
  const { timeZone, zoneName } = useTimeFormat();
  return (
    <div className="toolbar tl-toolbar" role="toolbar" aria-label="Timeline controls">
      <div className="button-group">
        <button type="button" onClick={() => onPan(-0.25)} aria-label="Pan earlier" title="Pan earlier (←)">
          ◀
        </button>
        <button type="button" onClick={() => onZoom(1.5)} aria-label="Zoom out" title="Zoom out (−)">
          −
        </button>
        <button type="button" onClick={() => onZoom(1 / 1.5)} aria-label="Zoom in" title="Zoom in (+)">
          +
        </button>
        <button type="button" onClick={() => onPan(0.25)} aria-label="Pan later" title="Pan later (→)">
          ▶
        </button>
        <button type="button" onClick={onFit} title="Show everything (0)">
          Fit
        </button>
      </div>
      <label className="field-inline">
        As of ({zoneName})
        <input
          type="date"
          value={toDateInputValue(asOf, timeZone)}
          onChange={(e) => {
            const iso = instantOfLocalValue(e.target.value, timeZone);
            if (iso) onAsOf(Date.parse(iso));
          }}
        />
      </label>
      <button type="button" onClick={() => onAsOf(Date.now())}>
        Today
      </button>
      <KnownAtInput knownAt={knownAt} timeZone={timeZone} zoneName={zoneName} onKnownAt={onKnownAt} />
      {knownAt && (
        <button type="button" onClick={() => onKnownAt(null)}>
          Known now
        </button>
      )}
      <label className="field-inline grow">
        <span className="visually-hidden">Filter rows</span>
        <input type="search" placeholder="Filter rows (subject, predicate, value)" value={filter} onChange={(e) => onFilter(e.target.value)} />
      </label>
    </div>
  );
}
