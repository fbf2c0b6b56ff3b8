/**
 * The one search: the UI's search box, `tempora search`, the bridge (and MCP) all come here, so each
 * shows what the chat would be given — the same retrieval (full text, entities, vectors when an
 * embedding model is loaded, fused; history when the question asks for it; a time the question
 * names — "on 2026-09-10", "in 2024", "去年" — answered as of it, in the user's zone) with the same options.
 */
import type { SearchResponse } from '../../shared/api-contract';
// Straight from the retrieval module, not assistant/index.ts: `tempora search` loads only this much.
import { retrieve, retrieveWithoutVectors, type Retrieval, type VectorRanker } from '../assistant/retrieval/retrieve';
import type { Memory } from '../memory/index';
import type { IsoTime } from '../../shared/time';

export interface SearchQuery {
  query: string;
  /** Answer as of this instant; it wins over a time named in the query. */
  asOf?: IsoTime;
  knownAt?: IsoTime;
  /** Force history on or off; default: detected from the query ("when", "used to", "いつ" …). */
  history?: boolean;
  limit?: number;
  /** Narrow to facts about this entity (name or alias) and/or with this predicate: still the same ranked search. */
  entity?: string;
  predicate?: string;
}

/** `zone`: the user's, for the days a question names (the engine's timeZone(); default $TEMPORA_TZ or the system's). */
export async function searchMemory(memory: Memory, vectors: VectorRanker | null, request: SearchQuery, zone?: string): Promise<SearchResponse> {
  return responseOf(await retrieve(memory, request.query, { ...axesOf(request), vectors, zone }));
}

/** searchMemory for a memory opened without models or vectors (synchronous). */
export function searchMemoryText(memory: Memory, request: SearchQuery, zone?: string): SearchResponse {
  return responseOf(retrieveWithoutVectors(memory, request.query, { ...axesOf(request), zone }));
}

function axesOf(request: SearchQuery) {
  return { asOf: request.asOf, knownAt: request.knownAt, history: request.history, limit: request.limit, entity: request.entity, predicate: request.predicate };
}

function responseOf(result: Retrieval): SearchResponse {
  return { hits: result.hits, vectorsUsed: result.vectorsUsed, note: result.note, history: result.intent.history, time: result.time };
}
