/** Zoom / pan buttons, the as-of date, the known-at moment and a row filter. */
import { toDateInputValue, toLocalInputValue, tryParseTime } from '../common/time-input';

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
        As of (UTC)
        <input
          type="date"
          value={toDateInputValue(new Date(asOf).toISOString())}
          onChange={(e) => {
            const iso = tryParseTime(e.target.value);
            if (iso) onAsOf(Date.parse(iso));
          }}
        />
      </label>
      <button type="button" onClick={() => onAsOf(Date.now())}>
        Today
      </button>
      <label className="field-inline">
        Known at (UTC)
        <input
          type="datetime-local"
          aria-describedby="known-at-help"
          value={knownAt ? toLocalInputValue(knownAt) : ''}
          onChange={(e) => onKnownAt(e.target.value === '' ? null : tryParseTime(e.target.value))}
        />
      </label>
      {knownAt && (
        <button type="button" onClick={() => onKnownAt(null)}>
          Known now
        </button>
      )}
      <span id="known-at-help" className="visually-hidden">
        Shows the memory as it was held at that moment; empty means now.
      </span>
      <label className="field-inline grow">
        <span className="visually-hidden">Filter rows</span>
        <input type="search" placeholder="Filter rows (subject, predicate, value)" value={filter} onChange={(e) => onFilter(e.target.value)} />
      </label>
    </div>
  );
}
