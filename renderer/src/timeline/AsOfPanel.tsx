/**
 * What was true at the cursor, slot by slot, the newest first: the "as of" answers, each linked to its fact. A slot
 * with several values at once (likes, has visited) gets a row per value ("2 of 3"), so every value
 * is shown and can be opened, however narrow the panel. The facts true at the cursor come a page
 * at a time (use-as-of-facts.ts): the panel says how many there are in all, and asks for
 * the next page as the list scrolls to its end (a few pages by themselves at most), or with Show
 * more (a button: keyboard too). With a filter, it says how many of those loaded match it.
 */
import { useMemo } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatCount, formatMoment, pluralise } from '../common/format';
import { VirtualList } from '../common/VirtualList';
import { trueAt, type TimelineLayout } from './timeline-model';
import { AS_OF_PAGE, type AsOfFacts } from './use-as-of-facts';

interface Answer {
  key: string;
  subject: string;
  predicate: string;
  fact: FactRecord;
  /** Its place among the slot's values at the cursor (1-based), and how many there are. */
  position: number;
  of: number;
}

interface Props {
  /** The rows fetched, with the pages of facts true at the cursor loaded so far. */
  layout: TimelineLayout;
  asOf: number;
  /** The moment as the toolbar says it ("now", "March 2025"). */
  asOfText: string;
  knownAt: string | null;
  /** The timeline's row filter (the layout holds only the facts that match it). */
  filter: string;
  /** The pages of facts true at the cursor: how many in all, and the next page. */
  pages: AsOfFacts;
  onOpen(fact: FactRecord): void;
}

export function AsOfPanel({ layout, asOf, asOfText, knownAt, filter, pages, onOpen }: Props) {
  const format = useTimeFormat();
  const answers = useMemo(() => {
    // Newest first, like every list: the slots whose latest value began last on top, each slot's values newest first.
    const slots: { latest: string; answers: Answer[] }[] = [];
    for (const row of layout.rows) {
      if (row === undefined) continue; // not fetched
      const facts = row.bars.filter((bar) => trueAt(bar, asOf)).map((bar) => bar.fact).sort(newestFirst);
      if (facts.length === 0) continue;
      slots.push({ latest: facts[0]!.valid_at, answers: facts.map((fact, i) => ({ key: `${row.key}\u0000${fact.id}`, subject: row.subject, predicate: row.predicate, fact, position: i + 1, of: facts.length })) });
    }
    return slots.sort((a, b) => (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : 0)).flatMap((slot) => slot.answers);
  }, [layout, asOf]);
  const slots = new Set(answers.map((a) => `${a.subject}\u0000${a.predicate}`)).size;
  const when = asOfText;
  return (
    <section className="asof-panel" aria-labelledby="asof-title">
      <h2 id="asof-title">
        True as of <time dateTime={new Date(asOf).toISOString()}>{when}</time>
      </h2>
      <p className="muted small" data-testid="asof-count">
        {knownAt ? `As the memory held it at ${formatMoment(knownAt, format)}.` : 'As the memory holds it now.'} {countWords(pages, answers.length, slots, filter.trim())}
      </p>
      <VirtualList
        items={answers}
        rowHeight={52}
        label={`Facts true as of ${when}`}
        getKey={(a) => a.key}
        onActivate={(a) => onOpen(a.fact)}
        renderRow={(a) => (
          <div className="asof-answer" data-testid="asof-answer">
            <div className="asof-question">
              {a.subject} · {a.predicate}
              {a.of > 1 && <span className="asof-position"> ({a.position} of {a.of})</span>}
            </div>
            <div className="asof-values">
              <a href={factHref(a.fact.id)} title={a.fact.fact} tabIndex={-1}>
                {a.fact.object}
              </a>
            </div>
          </div>
        )}
        onEndReached={pages.autoLoad}
      />
      {pages.hasMore && (
        <button type="button" className="asof-more" onClick={pages.loadMore} aria-busy={pages.loadingMore}>
          {pages.loadingMore ? 'Loading…' : `Show ${formatCount(Math.min(AS_OF_PAGE, pages.total - pages.facts.length))} more`}
        </button>
      )}
    </section>
  );
}

const newestFirst = (a: FactRecord, b: FactRecord) => (a.valid_at < b.valid_at ? 1 : a.valid_at > b.valid_at ? -1 : 0);

/**
 * How many facts are true at the cursor, how many are loaded, and how many are shown. With a filter
 * the shown ones are those that match it, so that is said: the count of all would read as the
 * number of answers.
 */
function countWords(pages: AsOfFacts, values: number, slots: number, filter: string): string {
  const n = formatCount;
  const all = `${pluralise(pages.total, 'fact')} true`;
  const loaded = pages.hasMore ? `the first ${n(pages.facts.length)} loaded` : '';
  const split = values > slots ? ` (${n(slots)} answers, ${n(values)} values)` : '';
  if (filter === '') return `${all}; ${loaded ? `${loaded}, ` : ''}${n(slots)} answers${values > slots ? `, ${n(values)} values` : ''} shown.`;
  return `${all} at the cursor; ${n(values)} shown match the filter “${filter}”${split}${loaded ? `, of ${loaded}` : ''}.`;
}
