/**
 * A filter field with the names the memory suggests for what is typed (use-name-suggestions.ts):
 * an input and its datalist, the list asked for as the user types, never every name. A predicate is
 * offered in words ("lives in": shared/predicate-words.ts), as the screens say it; the engine reads
 * the words as its name.
 */
import { useState } from 'react';
import type { SuggestNamesRequest } from '../../../shared/api-contract';
import { sayPredicate } from '../../../shared/predicate-words';
import { useNameSuggestions } from './use-name-suggestions';
import { plural } from '../common/format';

interface Props {
  kind: SuggestNamesRequest['kind'];
  label: string;
  /** The datalist's id (the input's `list`). */
  listId: string;
  value: string;
  onChange(value: string): void;
}

export function NameField({ kind, label, listId, value, onChange }: Props) {
  const [used, setUsed] = useState(false);
  // Asked for once the field is used: focused, or holding text (a filter kept from before).
  const names = useNameSuggestions(kind, value, used || value.trim() !== '');
  return (
    <>
      <label className="field-inline">
        {label}
        <input list={listId} value={value} onFocus={() => setUsed(true)} onChange={(e) => onChange(e.target.value)} placeholder="any" size={12} autoComplete="off" />
      </label>
      <datalist id={listId}>
        {names.map((s) => (
          <option key={s.name} value={kind === 'predicate' ? sayPredicate(s.name) : s.name} label={plural(s.live, 'fact')} />
        ))}
      </datalist>
    </>
  );
}
