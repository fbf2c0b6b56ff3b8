/** Search box and filters: current / history, entity and predicate (with the names the memory suggests as one types), as-of date. */
import { useEffect, useState } from 'react';
import type { FactFilters } from './fact-filters';
import { NameField } from './NameField';
import { MomentInput } from '../common/MomentInput';

interface Props {
  filters: FactFilters;
  onChange(patch: Partial<FactFilters>): void;
}

/** Text fields apply after a short pause, so typing does not send a query per key. */
function useDebounced(value: string, apply: (v: string) => void, ms = 250) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => apply(text), ms);
    return () => clearTimeout(timer);
    // Only a change of the text restarts the wait; `apply` may be a new function on every render.
  }, [text]);
  return [text, setText] as const;
}

export function FactFilterBar({ filters, onChange }: Props) {
  const [query, setQuery] = useDebounced(filters.query, (v) => onChange({ query: v }));
  const [entity, setEntity] = useDebounced(filters.entity, (v) => onChange({ entity: v }));
  const [predicate, setPredicate] = useDebounced(filters.predicate, (v) => onChange({ predicate: v }));
  return (
    <div className="toolbar facts-toolbar" role="search">
      <label className="field-inline grow">
        <span className="visually-hidden">Search facts</span>
        <input type="search" placeholder="Search facts… (日本語もOK)" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && onChange({ query })} />
      </label>
      <fieldset className="segmented">
        <legend className="visually-hidden">Which facts</legend>
        {(['current', 'history'] as const).map((mode) => (
          <label key={mode} className={filters.mode === mode ? 'checked' : ''}>
            <input type="radio" name="fact-mode" value={mode} checked={filters.mode === mode} onChange={() => onChange({ mode })} />
            {mode === 'current' ? 'Current' : 'History'}
          </label>
        ))}
      </fieldset>
      <NameField kind="entity" label="Entity" listId="entity-names" value={entity} onChange={setEntity} />
      <NameField kind="predicate" label="Predicate" listId="predicate-names" value={predicate} onChange={setPredicate} />
      <MomentInput label="As of" field="as_of" at={filters.asOf || null} said={filters.asOfSaid} emptyIsNow onAt={(iso, said) => onChange({ asOf: iso ?? '', asOfSaid: said })} className="field-inline" />
      {filters.asOf && (
        <button type="button" onClick={() => onChange({ asOf: '', asOfSaid: null })}>
          Now
        </button>
      )}
    </div>
  );
}
