/** The model status (loaded models, ingestion queue), kept current by modelsChanged / ingestionProgress events. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ModelStatus } from '../../../shared/api-contract';
import { useApi, useApiEvent } from './api-context';
import { modelKeys } from './query-keys';

export type QueueCounts = ModelStatus['ingestion'];

export function useModelStatus() {
  const api = useApi();
  return useQuery({
    queryKey: modelKeys.status,
    queryFn: () => api.modelStatus({}),
    // Every fetch is a new object, even when equal: useIngestion drops older live counts on each.
    structuralSharing: false,
  });
}

/** The ingestion queue counts and last error: from modelStatus at first, then from every ingestionProgress event. */
export function useIngestion(initial: QueueCounts | undefined): { counts: QueueCounts | undefined; lastError: string | null } {
  const [live, setLive] = useState<{ counts: QueueCounts; lastError: string | null } | null>(null);
  // A fresh status is newer than any event seen before it.
  useEffect(() => setLive(null), [initial]);
  useApiEvent('ingestionProgress', (payload) => setLive({ counts: payload.counts, lastError: payload.lastError }));
  return live ?? { counts: initial, lastError: null };
}
