/**
 * Keeps the query cache current: memoryChanged makes the memory answers it touched stale (see
 * memory-change-scope.ts: a fact's page only when that fact changed), modelsChanged every
 * model answer; a new connection of the bridge (after a drop) makes everything stale. Stale answers
 * that are on screen are fetched again at once; an answer still in flight for the same key is
 * dropped in favour of the new request.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useApi, useConnection } from './api-context';
import { isStaleAfter } from './memory-change-scope';
import { memoryKeys, modelKeys } from './query-keys';

export function useQueryInvalidation(): void {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.name !== 'memoryChanged' && event.name !== 'modelsChanged') return;
        // New messages and renamed conversations change only the conversation list, not the facts.
        const change = event.name === 'memoryChanged' ? event.payload : null;
        if (change) void queryClient.invalidateQueries({ queryKey: memoryKeys.all, predicate: (query) => isStaleAfter(query.queryKey, change) });
        else void queryClient.invalidateQueries({ queryKey: modelKeys.all });
      }),
    [api, queryClient],
  );

  const connection = useConnection();
  const epoch = connection.kind === 'open' ? connection.epoch : null;
  const seenEpoch = useRef(epoch);
  useEffect(() => {
    if (epoch === null || epoch === seenEpoch.current) return;
    seenEpoch.current = epoch;
    // Calls that waited for this connection are in flight now: keep them, refetch the rest.
    void queryClient.invalidateQueries(undefined, { cancelRefetch: false });
  }, [epoch, queryClient]);
}
