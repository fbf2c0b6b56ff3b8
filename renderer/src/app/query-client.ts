/**
 * The renderer's one QueryClient (@tanstack/react-query): every answer read from the engine is
 * cached under a key from query-keys.ts and refetched when its event says it is stale
 * (query-invalidation.ts). Answers are never stale by time alone, only by events.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The engine answers at once or says why not: show its message instead of retrying.
        retry: false,
        // A screen that mounts reads afresh (as it always did); focus and the browser's own
        // online / offline changes mean nothing for a local engine: the bridge reconnection does.
        staleTime: 0,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
  });
}
