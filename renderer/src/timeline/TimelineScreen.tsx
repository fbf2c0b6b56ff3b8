/**
 * Timeline: facts as bars over valid time, one row per subject + predicate, grouped by subject (the
 * user's first and open; groups collapsible, the others collapsed in a large memory); the as-of cursor and its answers;
 * "known at" re-queries the memory as it was held at that moment. Only what is on screen is
 * fetched: the rows in view × the time around the visible range, and the facts true at the cursor
 * a page at a time (their count, and the first page: more on scroll or Show more).
 * Fit shows where the facts are (timeline-fit.ts); narrow, the as-of panel folds to a button, a
 * drawer that Escape closes, the focus back on the button.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';
import { useElementSize } from '../common/use-element-size';
import { ZoneNote } from '../common/ZoneNote';
import { AsOfPanel } from './AsOfPanel';
import { NothingRecordedYet } from './NothingRecordedYet';
import { buildLayout } from './timeline-model';
import { fitDomain, wholeRange } from './timeline-fit';
import { clamp, pan, reach, zoom, type Domain } from './timeline-scale';
import { rememberBack, takeBack, toggled, useClock, useTimelineView } from './timeline-view';
import { momentWords, type SaidAs } from '../common/MomentInput';
import { TimelineChart } from './TimelineChart';
import { TimelineToolbar } from './TimelineToolbar';
import { useTimelineWindow } from './use-timeline-window';
import { useAsOfFacts } from './use-as-of-facts';
import { useOwnSpan } from './use-own-span';

/** Below this width of the screen's body the as-of panel is folded to a button. */
const PANEL_BELOW = 900;

function unionById(a: readonly FactRecord[], b: readonly FactRecord[]): FactRecord[] {
  const seen = new Set(a.map((f) => f.id));
  return [...a, ...b.filter((f) => !seen.has(f.id))];
}

export function TimelineScreen() {
  const api = useApi();
  const format = useTimeFormat();
  const [view, update] = useTimelineView();
  const [now] = useState(() => Date.now());
  // The as-of cursor: where it was put, or now as the clock moves on (MomentInput.tsx), said as typed.
  // The chart's now mark moves on with the clock too; the data's now (layout, Fit, reach) stays the
  // opening minute, so a long session does not refetch or refit every minute.
  const clock = useClock(view.asOf === null);
  const asOf = view.asOf ?? clock;
  const asOfText = momentWords(view.asOf, view.asOfPrecision, format);
  const setAsOf = useCallback((at: number | null, said: SaidAs = null) => update({ asOf: at, asOfPrecision: said }), [update]);
  // Only the rows in view × the time around the visible range are fetched (use-timeline-window.ts);
  // known now: every version still held (closed facts included, replaced versions not).
  const [rowsInView, setRowsInView] = useState<[number, number]>([0, 0]);
  const onRowsInView = useCallback((first: number, last: number) => setRowsInView((seen) => (seen[0] === first && seen[1] === last ? seen : [first, last])), []);
  const windowed = useTimelineWindow(api, { domain: view.domain, knownAt: view.knownAt, filter: view.filter, rowsInView, now, groupChoices: view.groupChoices, openRows: view.openRows });
  const layout = windowed.layout;
  // The as-of answers are asked once the chart's first rows have come: the memory answers the chart first.
  const chartAnswered = useRef(false);
  if (!windowed.isPending) chartAnswered.current = true;
  const asOfFacts = useAsOfFacts(api, asOf, view.knownAt, chartAnswered.current, view.asOf === null);
  // The as-of panel: the rows fetched, and the facts true at the cursor in every row.
  const asOfLayout = useMemo(() => buildLayout(unionById(windowed.facts, asOfFacts.facts), view.filter, now), [windowed.facts, asOfFacts.facts, view.filter, now]);
  // Fit shows where the facts are, and always the user's own story and now (timeline-fit.ts).
  const own = useOwnSpan(layout, `${view.filter}\u0000${view.knownAt}`);
  const fitted = useMemo(() => fitDomain(layout.density, layout.min, layout.max, now, own), [layout.density, layout.min, layout.max, now, own]);
  // The view never leaves the memory's range with a margin (reach(): wheel, drag, keys, the view
  // remembered); known once the chart has answered.
  const range = chartAnswered.current ? reach(layout.min, layout.max, now) : null;
  const kept = (d: Domain) => (range ? clamp(d, range) : d);
  const domain = kept(view.domain ?? fitted);
  const center = (domain.from + domain.to) / 2;
  const whole = wholeRange(Math.min(layout.min, domain.from), Math.max(layout.max, domain.to), now);
  const bodyRef = useRef<HTMLDivElement>(null);
  const bodyWidth = useElementSize(bodyRef).width;
  const narrow = bodyWidth > 0 && bodyWidth < PANEL_BELOW;
  const [panelOpen, setPanelOpen] = useState(false);
  // The drawer closes on Escape (in it or on its button), the focus back on the button that opened it.
  const panelToggle = useRef<HTMLButtonElement>(null);
  const closePanel = () => {
    setPanelOpen(false);
    panelToggle.current?.focus();
  };
  const onToggleGroup = useCallback((id: string, open: boolean) => update((v) => ({ groupChoices: { ...v.groupChoices, [id]: open } })), [update]);
  const onToggleRow = useCallback((key: string) => update((v) => ({ openRows: toggled(v.openRows, key) })), [update]);
  const showPanel = !narrow || panelOpen;
  // Back from a fact opened here, the chart returns to its bar: scrolled there, the focus on it.
  const [back] = useState(takeBack);
  const open = useCallback((fact: FactRecord, scrollTop: number | null) => {
    rememberBack({ factId: fact.id, scrollTop });
    navigate({ screen: 'fact', id: fact.id });
  }, []);

  return (
    <div className="timeline-screen">
      <header className="screen-header">
        <h1>Timeline</h1>
        <p className="muted">
          Each bar is a fact over the time it was true. {view.knownAt ? `Showing the memory as it was held at ${formatMoment(view.knownAt, format)}.` : 'Showing the memory as it is held now.'}{' '}
          <ZoneNote zoneName={format.zoneName} />
        </p>
      </header>
      <TimelineToolbar
        asOf={view.asOf}
        asOfSaid={view.asOfPrecision}
        knownAt={view.knownAt}
        filter={view.filter}
        onZoom={(factor) => update({ domain: kept(zoom(domain, factor, asOf >= domain.from && asOf <= domain.to ? asOf : center)) })}
        onPan={(fraction) => update({ domain: kept(pan(domain, fraction * (domain.to - domain.from))) })}
        onFit={() => update({ domain: null })}
        onAsOf={setAsOf}
        onKnownAt={(iso) => update({ knownAt: iso })}
        onFilter={(text) => update({ filter: text })}
      />
      <ErrorText error={windowed.error} />
      <NothingRecordedYet knownAt={view.knownAt} />
      <div className={`timeline-body${narrow ? ' narrow' : ''}`} ref={bodyRef}>
        <TimelineChart
          layout={layout}
          domain={domain}
          asOf={asOf}
          asOfText={view.asOf === null || view.asOfPrecision ? asOfText : undefined}
          now={clock}
          setDomain={(d) => update({ domain: kept(d) })}
          setAsOf={setAsOf}
          onFit={() => update({ domain: null })}
          onOpen={open}
          back={back}
          onRowsInView={onRowsInView}
          whole={whole}
          density={layout.density}
          onToggleGroup={onToggleGroup}
          onToggleRow={onToggleRow}
        />
        {narrow && (
          <button
            ref={panelToggle}
            type="button"
            className="asof-panel-toggle"
            aria-expanded={panelOpen}
            onClick={() => setPanelOpen((open) => !open)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && panelOpen) {
                e.preventDefault();
                closePanel();
              }
            }}
          >
            {panelOpen ? 'Hide answers ▸' : '◂ As-of answers'}
          </button>
        )}
        {showPanel && <AsOfPanel layout={asOfLayout} asOf={asOf} asOfText={asOfText} following={view.asOf === null} now={clock} knownAt={view.knownAt} filter={view.filter} pages={asOfFacts} onOpen={(fact) => open(fact, null)} onClose={narrow ? closePanel : undefined} />}
      </div>
      {windowed.isPending && <p className="muted" role="status">Loading facts…</p>}
    </div>
  );
}
