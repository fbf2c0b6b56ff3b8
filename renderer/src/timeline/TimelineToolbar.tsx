/** Zoom / pan buttons, the as-of date (a month or year typed shown back so: MomentInput.tsx) and the known-at moment (in the user's zone), a row filter, and the legend. */
import { useState } from 'react';
import { isoFromMs, type IsoTime } from '../../../shared/time';
import { MomentInput, type SaidAs } from '../common/MomentInput';
import { TimelineLegend } from './TimelineLegend';

interface Props {
  /** null: now, following the clock. */
  asOf: number | null;
  asOfSaid: SaidAs;
  knownAt: IsoTime | null;
  filter: string;
  onZoom(factor: number): void;
  onPan(fraction: number): void;
  onFit(): void;
  onAsOf(at: number | null, said: SaidAs): void;
  onKnownAt(iso: IsoTime | null): void;
  onFilter(text: string): void;
}

export function TimelineToolbar({ asOf, asOfSaid, knownAt, filter, onZoom, onPan, onFit, onAsOf, onKnownAt, onFilter }: Props) {
  // Today starts the as-of field afresh (now, no error), even when the cursor already follows the clock.
  const [asOfField, setAsOfField] = useState(0);
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
      <MomentInput
        key={asOfField}
        label="As of"
        field="as_of"
        at={asOf === null ? null : isoFromMs(asOf)}
        said={asOfSaid}
        emptyIsNow
        onAt={(iso, said) => onAsOf(iso === null ? null : Date.parse(iso), said)}
        className="field-inline"
      />
      <button
        type="button"
        onClick={() => {
          setAsOfField((n) => n + 1);
          onAsOf(null, null);
        }}
      >
        Today
      </button>
      <MomentInput label="Known at" field="known_at" at={knownAt} emptyIsNow onAt={onKnownAt} className="field-inline" />
      {knownAt && (
        <button type="button" onClick={() => onKnownAt(null)}>
          Known now
        </button>
      )}
      <label className="field-inline grow">
        <span className="visually-hidden">Filter rows</span>
        <input type="search" placeholder="Filter rows (subject, predicate, value)" value={filter} onChange={(e) => onFilter(e.target.value)} />
      </label>
      <TimelineLegend />
    </div>
  );
}
