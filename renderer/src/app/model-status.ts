/** The model status (loaded models, ingestion queue), kept current by modelsChanged / ingestionProgress events. */
import { useEffect, useState } from 'react';
import type { ModelStatus } from '../../../shared/api-contract';
import { useLoad } from '../common/use-load';
import { useApi, useApiEvent, useRefreshKey } from './api-context';

export type QueueCounts = ModelStatus['ingestion'];

export function useModelStatus() {
  const api = useApi();
  const key = useRefreshKey('modelsChanged');
  return useLoad(() => api.modelStatus({}), [api, key]);
}

/** The ingestion queue counts and last error: from modelStatus at first, then from every ingestionProgress event. */
export function useIngestion(initial: QueueCounts | undefined): { counts: QueueCounts | undefined; lastError: string | null } {
  const [live, setLive] = useState<{ counts: QueueCounts; lastError: string | null } | null>(null);
  // A fresh status is newer than any event seen before it.
  useEffect(() => setLive(null), [initial]);
  useApiEvent('ingestionProgress', (payload) => setLive({ counts: payload.counts, lastError: payload.lastError }));
  return live ?? { counts: initial, lastError: null };
}
