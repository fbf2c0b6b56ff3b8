/** Loads data for a screen; reloads when deps change; ignores answers that arrive after newer requests. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): void;
  /** Replace the data locally (after an edit returned the new value). */
  set(value: T): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [nonce, setNonce] = useState(0);
  const generation = useRef(0);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    const mine = ++generation.current;
    setLoading(true);
    latest
      .current()
      .then((value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(null);
      })
      .catch((e: unknown) => {
        if (mine === generation.current) setError(errorMessage(e));
      })
      .finally(() => {
        if (mine === generation.current) setLoading(false);
      });
    // eslint-style exhaustive deps do not apply: the caller lists what the loader reads.
  }, [...deps, nonce]); // eslint-disable-line react-hooks/exhaustive-deps

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data, error, loading, reload, set: setData };
}
