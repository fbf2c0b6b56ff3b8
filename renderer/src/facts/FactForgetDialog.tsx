/**
 * "Forget this fact?": deletes every version, and offers to delete the messages it came from too.
 * A current value of a one-valued slot that closed the value before it says that value comes back,
 * with the end it was said with.
 * Each source message is listed with what happens to it: deleted with the fact (only when asked, and
 * only when it is the source of nothing else), or kept, and why ("also the source of 2 other
 * facts"). Cancel has the focus, so Enter never deletes.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FactSource } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { useTimeFormat } from '../app/time-format';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ErrorText } from '../common/ErrorText';
import { isPast } from '../../../shared/time-format';
import { formatInterval, formatTime, plural } from '../common/format';

export interface FactForgetDialogProps {
  open: boolean;
  fact: FactRecord;
  /** The values of its slot it closed that forgetting it makes current again (from its page's details). */
  reopens: readonly FactRecord[];
  onChoose(choice: { withSources: boolean } | null): void;
}

export function FactForgetDialog({ open, fact, reopens, onChoose }: FactForgetDialogProps) {
  const api = useApi();
  const [withSources, setWithSources] = useState(false);
  const sources = useQuery({ queryKey: [...memoryKeys.fact(fact.id), 'sources'], queryFn: () => api.factSources({ id: fact.id }), enabled: open, staleTime: 0 });
  const list = sources.data ?? [];
  const deletable = list.filter((s) => s.otherFacts === 0);
  return (
    <ConfirmDialog
      open={open}
      title="Forget this fact?"
      choices={[{ label: withSources && deletable.length ? `Forget it and ${plural(deletable.length, 'message')}` : 'Forget for ever', value: 'forget', danger: true }]}
      onChoose={(value) => {
        onChoose(value === 'forget' ? { withSources: withSources && deletable.length > 0 } : null);
        setWithSources(false);
      }}
    >
      <p>
        “{fact.fact}” and all its versions will be deleted everywhere (facts, search index, vectors). <strong>This cannot be undone.</strong>
      </p>
      {reopens.map((value) => (
        <ReopenNote key={value.id} value={value} open={open} />
      ))}
      {sources.error && <ErrorText error={sources.error} />}
      {list.length > 0 && (
        <>
          <label className="checkbox-row">
            <input type="checkbox" checked={withSources} disabled={deletable.length === 0} onChange={(e) => setWithSources(e.target.checked)} /> Also delete the messages it came from
            {deletable.length === 0 ? ' (each is also the source of other facts)' : ` (${deletable.length} of ${list.length})`}
          </label>
          <ul className="forget-sources" aria-label="Source messages">
            {list.map((s) => (
              <SourceLine key={s.id} source={s} deleting={withSources && s.otherFacts === 0} />
            ))}
          </ul>
        </>
      )}
      <p className="muted">To record that it is no longer true, close it instead: it then stays in your history.</p>
    </ConfirmDialog>
  );
}

/**
 * The value forgetting makes come back, with the end its own statements gave (its details' keptEnd,
 * held back while the forgotten value closed it): current again, until that end if one is ahead; or
 * back as ended, when that end has passed. Said once its details are read (or could not be).
 */
function ReopenNote({ value, open }: { value: FactRecord; open: boolean }) {
  const api = useApi();
  const format = useTimeFormat();
  const details = useQuery({ queryKey: memoryKeys.fact(value.id), queryFn: () => api.factDetails({ id: value.id }), enabled: open });
  if (details.isPending) return null;
  const kept = details.data?.keptEnd ?? null;
  const interval = formatInterval({ ...value, invalid_at: kept?.at ?? null, invalid_at_precision: kept?.precision ?? null }, format);
  const ended = kept !== null && isPast(kept.at);
  return (
    <p className="forget-reopens">
      {value.object} {ended ? 'comes back, ended' : 'will be current again'} (true {interval}), as if this had never been said.
    </p>
  );
}

function SourceLine({ source, deleting }: { source: FactSource; deleting: boolean }) {
  const format = useTimeFormat();
  const fate = deleting
    ? 'deleted with the fact'
    : source.otherFacts > 0
      ? `kept: also the source of ${plural(source.otherFacts, 'other fact')}`
      : 'kept (the message stays in its conversation)';
  return (
    <li data-source={source.id}>
      <q>{source.excerpt}</q> <span className="muted small">({source.role}, said {formatTime(source.reference_time, format)})</span> — <strong>{fate}</strong>
    </li>
  );
}
