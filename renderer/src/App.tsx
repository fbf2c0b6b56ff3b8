/** A minimal window: the facts that are true now, as the memory holds them now. */
import { useEffect, useState } from 'react';
import type { FactRecord } from '../../shared/memory-schema';
import { getApi } from './api';
import { FactList } from './FactList';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; facts: FactRecord[] };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      try {
        const facts = await getApi().listFacts({});
        if (!cancelled) setState({ kind: 'ready', facts });
      } catch (error) {
        if (!cancelled) setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    };
    void load();
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <main className="app">
      <header className="app-header">
        <h1>Tempora</h1>
        <p className="subtitle">What is true now</p>
      </header>
      {state.kind === 'loading' && <p className="status" role="status">Loading facts…</p>}
      {state.kind === 'error' && (
        <p className="status error" role="alert">
          {state.message}
        </p>
      )}
      {state.kind === 'ready' && <FactList facts={state.facts} />}
    </main>
  );
}
