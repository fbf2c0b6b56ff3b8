/**
 * Names for a filter field as the user types: the engine's suggestNames (a page of names, those
 * that begin with the text first, most facts first), asked for a short pause after the last key
 * and only once the field has been used, so the Facts screen loads no names at all until then.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { NameSuggestion, SuggestNamesRequest } from '../../../shared/api-contract';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';

/** How many names a field offers at most. */
export const SUGGESTIONS_SHOWN = 20;
const PAUSE_MS = 150;

/** `value`, once it has stayed the same for `ms`. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The text asked about. A predicate keeps one trailing space: the engine reads "works " as
 * "works_" (works_at, not workshop_of), so the space must reach it; more spaces ask the same.
 * An entity's name is trimmed, as the engine trims it: "佐藤 " asks nothing new.
 */
export function askedText(kind: SuggestNamesRequest['kind'], text: string): string {
  return kind === 'predicate' ? text.trimStart().replace(/\s+$/u, ' ') : text.trim();
}

/** `active`: the field has been focused (before, nothing is asked). */
export function useNameSuggestions(kind: SuggestNamesRequest['kind'], text: string, active: boolean): readonly NameSuggestion[] {
  const api = useApi();
  const settled = useSettled(askedText(kind, text), PAUSE_MS);
  const answer = useQuery({
    queryKey: memoryKeys.suggestions(kind, settled),
    queryFn: () => api.suggestNames({ kind, text: settled, limit: SUGGESTIONS_SHOWN }),
    enabled: active,
    // While the next names load, the field keeps offering the last ones.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return answer.data ?? NONE;
}
const NONE: readonly NameSuggestion[] = [];
