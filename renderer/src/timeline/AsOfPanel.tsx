/**
 * What was true at the cursor, slot by slot, the user's own first, then the newest: the "as of"
 * answers, each linked to its fact. A slot with several values at once (likes, has visited) gets a
 * row per value ("2 of 3"), so every value is shown and can be opened, however narrow the panel. The facts true at the cursor come a page
 * at a time (use-as-of-facts.ts): the panel says how many there are in all, and asks for
 * the next page as the list scrolls to its end (a few pages by themselves at most), or with Show
 * more (a button: keyboard too), which is gone once every fact true then is listed. Its count is
 * one sentence (asof-count.ts): how many facts were true then and how many are shown, or with a
 * filter how many of them match it; while a new moment is asked for, that it is being counted — never
 * the figure of the moment before, the rows already listed kept but marked stale (aria-busy) until
 * the new answer replaces them. A page that fails is said in one sentence (common/ErrorText.tsx),
 * never "Loading…" for good: the first one in place of the count, with Try again; a next one above
 * Show more, which asks for it again, the pages already shown kept.
 */
import { useMemo } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { sayPredicate } from '../../../shared/predicate-words';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatCount, formatMoment } from '../common/format';
import { VirtualList } from '../common/VirtualList';
import { asOfCountParts, asOfCountingWords, asOfMoreCount, everyFactShown, tenseOf } from './asof-count';
import { trueAt, USER_NAME, type TimelineLayout } from './timeline-model';
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
  /** Whether the cursor is now, moving with the clock. */
  following: boolean;
  /** The clock, as of the last minute: whether a cursor put somewhere is before or after now. */
  now: number;
  knownAt: string | null;
  /** The timeline's row filter (the layout holds only the facts that match it). */
  filter: string;
  /** The pages of facts true at the cursor: how many in all, and the next page. */
  pages: AsOfFacts;
  onOpen(fact: FactRecord): void;
  /** The panel as a drawer (a narrow window): Escape inside it closes it. */
  onClose?(): void;
}

export function AsOfPanel({ layout, asOf, asOfText, following, now, knownAt, filter, pages, onOpen, onClose }: Props) {
  const format = useTimeFormat();
  const answers = useMemo(() => {
    // The user's own slots first, as on the chart; then newest first, like every list: the slots whose
    // latest value began last on top, each slot's values newest first.
    const slots: { own: boolean; latest: string; answers: Answer[] }[] = [];
    for (const row of layout.rows) {
      if (row === undefined) continue; // not fetched
      const facts = row.bars.filter((bar) => trueAt(bar, asOf)).map((bar) => bar.fact).sort(newestFirst);
      if (facts.length === 0) continue;
      slots.push({ own: row.subject === USER_NAME, latest: facts[0]!.valid_at, answers: facts.map((fact, i) => ({ key: `${row.key}\u0000${fact.id}`, subject: row.subject, predicate: row.predicate, fact, position: i + 1, of: facts.length })) });
    }
    return slots.sort((a, b) => Number(b.own) - Number(a.own) || (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : 0)).flatMap((slot) => slot.answers);
  }, [layout, asOf]);
  const when = asOfText;
  const count = { total: pages.total, loaded: pages.facts.length, hasMore: pages.hasMore, shown: answers.length, filter: filter.trim(), tense: tenseOf(asOf, now, following) };
  // Show more only for this moment's answer: until it comes, the pages are another moment's.
  const more = pages.counted && !everyFactShown(count);
  // A next page that failed is said above Show more (not while it is asked again); any other failure
  // here, with Try again. ErrorText is given the error itself, so its kind (busy, …) picks the sentence.
  const failed = pages.error !== null && pages.error !== undefined;
  const failedMore = failed && pages.failedMore;
  const counting = !pages.counted && !failed;
  return (
    <section
      className="asof-panel"
      aria-labelledby="asof-title"
      aria-busy={counting || undefined}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !onClose || e.defaultPrevented) return;
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="asof-title">
        True as of <time dateTime={new Date(asOf).toISOString()}>{when}</time>
      </h2>
      {knownAt && <p className="muted small">As the memory held it at {formatMoment(knownAt, format)}.</p>}
      {(pages.counted || !failed) && (
        <p className="muted small" data-testid="asof-count">
          {pages.counted ? <CountLine parts={asOfCountParts(count)} /> : asOfCountingWords(count.tense)}
        </p>
      )}
      {failed && !failedMore && (
        <div className="asof-failed">
          <ErrorText error={pages.error} />
          <button type="button" onClick={pages.retry}>
            Try again
          </button>
        </div>
      )}
      <VirtualList
        items={answers}
        rowHeight={52}
        label={`Facts true as of ${when}`}
        className={pages.counted ? undefined : 'asof-stale'}
        getKey={(a) => a.key}
        onActivate={(a) => onOpen(a.fact)}
        renderRow={(a) => (
          <div className="asof-answer" data-testid="asof-answer">
            <div className="asof-question">
              {a.subject} · {sayPredicate(a.predicate)}
              {a.of > 1 && <span className="asof-position"> ({formatCount(a.position)} of {formatCount(a.of)})</span>}
            </div>
            <div className="asof-values">
              <a href={factHref(a.fact.id)} title={a.fact.fact} tabIndex={-1}>
                {a.fact.object}
              </a>
            </div>
          </div>
        )}
        onEndReached={more ? pages.autoLoad : undefined}
      />
      {failedMore && !pages.loadingMore && <ErrorText error={pages.error} />}
      {more && (
        <button type="button" className="asof-more" onClick={pages.loadMore} aria-busy={pages.loadingMore}>
          {pages.loadingMore ? 'Loading…' : `Show ${formatCount(asOfMoreCount(count, AS_OF_PAGE))} more`}
        </button>
      )}
    </section>
  );
}

/** The count, wrapping between its parts ("794 facts were true then ·" above what is shown of them), not inside one. */
function CountLine({ parts: [head, shown] }: { parts: readonly [string] | readonly [string, string] }) {
  if (shown === undefined) return head;
  return (
    <>
      {head} · <span className="asof-count-part">{shown}</span>
    </>
  );
}

const newestFirst = (a: FactRecord, b: FactRecord) => (a.valid_at < b.valid_at ? 1 : a.valid_at > b.valid_at ? -1 : 0);

