/**
 * Timeline: facts as bars over valid time, one row per subject + predicate; the as-of cursor and its
 * answers; "known at" re-queries the memory as it was held at that moment.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { useTimeFormat } from '../app/time-format';
import { formatTime } from '../common/format';
import { queryError } from '../common/query-error';
import { ZoneNote } from '../common/ZoneNote';
import { AsOfPanel } from './AsOfPanel';
import { buildLayout } from './timeline-model';
import { fit, pan, zoom } from './timeline-scale';
import { useTimelineView } from './timeline-view';
import { TimelineChart } from './TimelineChart';
import { TimelineToolbar } from './TimelineToolbar';

export function TimelineScreen() {
  const api = useApi();
  const format = useTimeFormat();
  const [view, update] = useTimelineView();
  const [now] = useState(() => Date.now());
  // While another "known at" loads, the chart shows the previous answer.
  const facts = useQuery({
    queryKey: memoryKeys.history(view.knownAt),
    queryFn: () => api.listFacts(view.knownAt ? { history: true, knownAt: view.knownAt } : { history: true }),
    placeholderData: keepPreviousData,
  });
  // Known now: every version still held (closed facts included, replaced versions not).
  const held = useMemo(() => (facts.data ?? []).filter((f) => view.knownAt !== null || f.expired_at === null), [facts.data, view.knownAt]);
  const layout = useMemo(() => buildLayout(held, view.filter, now), [held, view.filter, now]);
  const fitted = fit(layout.min, layout.max);
  const domain = view.domain ?? fitted;
  const center = (domain.from + domain.to) / 2;

  return (
    <div className="timeline-screen">
      <header className="screen-header">
        <h1>Timeline</h1>
        <p className="muted">
          Each bar is a fact over the time it was true. {view.knownAt ? `Showing the memory as it was held at ${formatTime(view.knownAt, format)}.` : 'Showing the memory as it is held now.'}{' '}
          <ZoneNote zoneName={format.zoneName} />
        </p>
      </header>
      <TimelineToolbar
        asOf={view.asOf}
        knownAt={view.knownAt}
        filter={view.filter}
        onZoom={(factor) => update((v) => ({ domain: zoom(v.domain ?? fitted, factor, v.asOf >= domain.from && v.asOf <= domain.to ? v.asOf : center) }))}
        onPan={(fraction) => update((v) => ({ domain: pan(v.domain ?? fitted, fraction * (domain.to - domain.from)) }))}
        onFit={() => update({ domain: null })}
        onAsOf={(ms) => update({ asOf: ms })}
        onKnownAt={(iso) => update({ knownAt: iso })}
        onFilter={(text) => update({ filter: text })}
      />
      <ErrorText message={queryError(facts.error)} />
      <div className="timeline-body">
        <TimelineChart
          layout={layout}
          domain={domain}
          asOf={view.asOf}
          now={now}
          setDomain={(d) => update({ domain: d })}
          setAsOf={(ms) => update({ asOf: ms })}
          onFit={() => update({ domain: null })}
          onOpen={(fact) => navigate({ screen: 'fact', id: fact.id })}
        />
        <AsOfPanel layout={layout} asOf={view.asOf} knownAt={view.knownAt} onOpen={(fact) => navigate({ screen: 'fact', id: fact.id })} />
      </div>
      {facts.isPending && <p className="muted" role="status">Loading facts…</p>}
    </div>
  );
}
