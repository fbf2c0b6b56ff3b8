/**
 * One fact a message proposes, in the review inbox: keep it or leave it out (a checkbox), and
 * "Edit" opens fields for its value, sentence, start and end (times as typed — "2026-09", "先週",
 * "yesterday" — are read in the user's zone by the engine when the message is approved).
 */
import { useId } from 'react';
import { sayPredicate } from '../../../shared/predicate-words';
import type { ProposedFact, ReviewEdit } from '../../../shared/review-contract';
import { useTimeFormat } from '../app/time-format';
import { formatSaid } from '../../../shared/time-format';
import { formatInterval, plural } from '../common/format';

export interface FactDraft {
  keep: boolean;
  editing: boolean;
  object: string;
  fact: string;
  validAt: string;
  end: string;
}

export function draftOf(f: ProposedFact): FactDraft {
  return { keep: true, editing: false, object: f.object, fact: f.fact, validAt: '', end: '' };
}

/** The edit to send for a fact (undefined: approved as proposed). */
export function editOf(f: ProposedFact, d: FactDraft): ReviewEdit | undefined {
  if (!d.keep) return { index: f.index, keep: false };
  const edit: ReviewEdit = { index: f.index };
  if (d.object.trim() && d.object.trim() !== f.object) edit.object = d.object.trim();
  if (d.fact.trim() && d.fact.trim() !== f.fact) edit.fact = d.fact.trim();
  if (d.validAt.trim()) edit.validAt = d.validAt.trim();
  if (d.end.trim()) edit.end = d.end.trim();
  return Object.keys(edit).length > 1 ? edit : undefined;
}

export function ProposedFactRow({ fact, draft, onChange }: { fact: ProposedFact; draft: FactDraft; onChange: (d: FactDraft) => void }) {
  const format = useTimeFormat();
  const id = useId();
  const interval = fact.endsExisting
    ? `ends it at ${formatSaid(fact.endsExisting, fact.endPrecision, format, true)}`
    : formatInterval({ valid_at: fact.validAt, valid_at_precision: fact.validPrecision, invalid_at: fact.end, invalid_at_precision: fact.end ? fact.endPrecision : null }, format);
  return (
    <li className={`proposed-fact${draft.keep ? '' : ' left-out'}`} data-testid="proposed-fact">
      <label className="checkbox">
        <input type="checkbox" checked={draft.keep} onChange={(e) => onChange({ ...draft, keep: e.target.checked })} aria-label={`Keep: ${fact.fact}`} />
        <span className="proposed-text">
          <span className="triple">
            <span className="subject">{fact.subject}</span> · <span className="predicate">{sayPredicate(fact.predicate)}</span> · <span className="object">{fact.object}</span>
          </span>{' '}
          <span className="interval">{interval}</span>
          {fact.duplicateOf && <span className="badge">already known: another source</span>}
          {fact.contradicts.length > 0 && <span className="badge">changes {fact.contradicts.length === 1 ? 'a fact' : plural(fact.contradicts.length, 'fact')}</span>}
        </span>
      </label>
      {draft.keep && (
        <button type="button" className="link-button" aria-expanded={draft.editing} aria-controls={`${id}-edit`} onClick={() => onChange({ ...draft, editing: !draft.editing })}>
          {draft.editing ? 'Done' : 'Edit'}
        </button>
      )}
      {draft.keep && draft.editing && (
        <div className="proposed-edit" id={`${id}-edit`}>
          <label>
            Value <input value={draft.object} onChange={(e) => onChange({ ...draft, object: e.target.value })} data-testid="edit-object" />
          </label>
          <label>
            Sentence <input value={draft.fact} onChange={(e) => onChange({ ...draft, fact: e.target.value })} size={40} />
          </label>
          <label>
            True from <input value={draft.validAt} placeholder="as proposed (e.g. 2026-09, 先週)" onChange={(e) => onChange({ ...draft, validAt: e.target.value })} data-testid="edit-valid-at" />
          </label>
          <label>
            Until <input value={draft.end} placeholder={fact.end ? 'as proposed' : 'still true'} onChange={(e) => onChange({ ...draft, end: e.target.value })} />
          </label>
        </div>
      )}
    </li>
  );
}
