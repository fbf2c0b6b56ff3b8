/**
 * The API between the UI and the app core: every call with its channel, request schema and response
 * schema. Main validates each request (and its own response) with these schemas; the preload and the
 * renderer use the inferred types. The same contract will back the loopback bridge (issue 5).
 */
import { z } from 'zod';
import { factRecord, isoTime } from './memory-schema';

export const listFactsRequest = z.strictObject({
  /** Valid time: what was true at this instant. Default: now. */
  asOf: isoTime.optional(),
  /** System time: what the memory held at this instant. Default: now. */
  knownAt: isoTime.optional(),
  subject: z.string().min(1).max(500).optional(),
  predicate: z.string().min(1).max(200).optional(),
  /** Include expired versions and closed facts. */
  history: z.boolean().optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
});
export type ListFactsRequest = z.infer<typeof listFactsRequest>;

export const listFactsResponse = z.array(factRecord);
export type ListFactsResponse = z.infer<typeof listFactsResponse>;

/** Every call of the API, keyed by the name the renderer uses. */
export const apiCalls = {
  listFacts: { channel: 'memory:listFacts', request: listFactsRequest, response: listFactsResponse },
} as const;

export type ApiCallName = keyof typeof apiCalls;
export type ApiRequest<N extends ApiCallName> = z.infer<(typeof apiCalls)[N]['request']>;
export type ApiResponse<N extends ApiCallName> = z.infer<(typeof apiCalls)[N]['response']>;

/** What the preload exposes as `window.tempora`, and what any other transport must implement. */
export type TemporaApi = { [N in ApiCallName]: (request: ApiRequest<N>) => Promise<ApiResponse<N>> };

/** The global name under which the preload exposes the API. */
export const API_GLOBAL = 'tempora';
