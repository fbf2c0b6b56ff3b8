/**
 * The "what changed" calls of the API (shared/change-feed-contract.ts): the feed and a slot's
 * history, keyset pages read from the memory. Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import type { TemporaEngine } from './engine';

type ChangeCalls = 'changeFeed' | 'slotHistory';
type ChangeHandlers = { [N in ChangeCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export function changeHandlers(engine: TemporaEngine): ChangeHandlers {
  const memory = engine.memory;
  return {
    changeFeed: async ({ entity, limit, cursor }) => memory.facts.changeFeed({ entity, limit, cursor }),
    slotHistory: async ({ factId, limit, cursor }) => memory.facts.slotHistory(factId, { limit, cursor }),
  };
}
