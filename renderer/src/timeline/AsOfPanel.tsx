/** What was true at the cursor, row by row: the "as of" answers, each linked to its fact. */
import { useMemo } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatMoment, formatTime } from '../common/format';
import { VirtualList } from '../common/VirtualList';
import { trueAt, type TimelineLayout } from './timeline-model';

interface Answer {
  key: string;
  subject: string;
  predicate: string;
  facts: FactRecord[];
}

export function AsOfPanel({ layout, asOf, knownAt, onOpen }: { layout: TimelineLayout; asOf: number; knownAt: string | null; onOpen(fact: FactRecord): void }) {
  const format = useTimeFormat();
  const answers = useMemo(() => {
    const out: Answer[] = [];
    for (const row of layout.rows) {
      const facts = row.bars.filter((bar) => trueAt(bar, asOf)).map((bar) => bar.fact);
      if (facts.length > 0) out.push({ key: row.key, subject: row.subject, predicate: row.predicate, facts });
    }
    return out;
  }, [layout, asOf]);
  const when = formatMoment(asOf, format);
  return (
    <section className="asof-panel" aria-labelledby="asof-title">
      <h2 id="asof-title">
        True as of <time dateTime={new Date(asOf).toISOString()}>{when}</time>
      </h2>
      <p className="muted small">{knownAt ? `As the memory held it at ${formatTime(knownAt, format)}.` : 'As the memory holds it now.'} {answers.length} answers.</p>
      <VirtualList
        items={answers}
        rowHeight={52}
        label={`Facts true as of ${when}`}
        getKey={(a) => a.key}
        onActivate={(a) => a.facts[0] && onOpen(a.facts[0])}
        renderRow={(a) => (
          <div className="asof-answer" data-testid="asof-answer">
            <div className="asof-question">
              {a.subject} · {a.predicate}
            </div>
            <div className="asof-values">
              {a.facts.map((f, i) => (
                <span key={f.id}>
                  {i > 0 && ', '}
                  <a href={factHref(f.id)} title={f.fact} tabIndex={-1}>
                    {f.object}
                  </a>
                </span>
              ))}
            </div>
          </div>
        )}
      />
    </section>
  );
}
