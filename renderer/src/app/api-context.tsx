/** React access to the client: the API, its events and the connection state. */
import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiEvent, ApiEventName, TemporaApi } from '../../../shared/api-contract';
import type { Client } from '../api/client';
import type { ConnectionState } from '../api/connection';

const ClientContext = createContext<Client | null>(null);

export function ClientProvider({ client, children }: { client: Client; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useClient(): Client {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside ClientProvider');
  return client;
}

export function useApi(): TemporaApi {
  return useClient().api;
}

export function useConnection(): ConnectionState {
  const { connection } = useClient();
  return useSyncExternalStore(
    (listener) => connection.subscribe(listener),
    () => connection.get(),
  );
}

/** Calls handler for every event of that name; the handler may change between renders. */
export function useApiEvent<N extends ApiEventName>(name: N, handler: (payload: ApiEvent<N>) => void): void {
  const api = useApi();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(
    () =>
      api.onEvent((event) => {
        // The envelope is a union discriminated by name; matching the name fixes the payload type.
        if (event.name === name) latest.current(event.payload as ApiEvent<N>);
      }),
    [api, name],
  );
}
