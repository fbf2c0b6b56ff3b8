/** The Facts screen's filters, kept while the user opens a fact and comes back. */
import { useCallback, useState } from 'react';
import type { IsoTime } from '../../../shared/time';
import type { SaidAs } from '../common/MomentInput';

export interface FactFilters {
  query: string;
  mode: 'current' | 'history';
  entity: string;
  predicate: string;
  /** The instant (ISO) the list is as of, as main read what was typed (common/MomentInput.tsx), or '' for now. */
  asOf: IsoTime | '';
  /** How asOf was typed when a whole month or year ("March 2025"): it is said back so. */
  asOfSaid: SaidAs;
}

let saved: FactFilters = { query: '', mode: 'current', entity: '', predicate: '', asOf: '', asOfSaid: null };

export function useFactFilters(): [FactFilters, (patch: Partial<FactFilters>) => void] {
  const [filters, setFilters] = useState(saved);
  const update = useCallback((patch: Partial<FactFilters>) => {
    setFilters((current) => {
      saved = { ...current, ...patch };
      return saved;
    });
  }, []);
  return [filters, update];
}
