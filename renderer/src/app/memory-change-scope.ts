/**
 * Which cached answers a memoryChanged event makes stale. The event says what the write touched
 * (shared/api-contract.ts apiEvents.memoryChanged): a fact's page is fetched again only when that
 * fact is among the touched ones, the lists (Facts, Timeline) and the entities only when some fact
 * or entity changed at all, the conversation list only when the change was not about facts alone.
 * An event without ids (an import, a forget) makes every memory answer stale. Keys this file does
 * not know are made stale as before, except by conversation-only changes.
 */
import type { ApiEvent } from '../../../shared/api-contract';

type MemoryChanged = ApiEvent<'memoryChanged'>;

/** Reasons that change only conversations and messages, never a fact (electron/memory's MemoryChange). */
const CONVERSATION_ONLY = new Set(['message', 'conversation']);
/** Reasons that change only facts (and their entities), never the conversation list. */
const FACTS_ONLY = new Set(['observed', 'learned', 'edit', 'close']);
/** Keys (after 'memory') answered from the facts as a whole. */
const FACT_LISTS = new Set(['fact-list', 'history', 'timeline']);

export function isStaleAfter(queryKey: readonly unknown[], change: MemoryChanged): boolean {
  if (queryKey[0] !== 'memory') return false;
  const part = queryKey[1];
  if (part === 'conversations') return !FACTS_ONLY.has(change.reason);
  if (CONVERSATION_ONLY.has(change.reason)) return false;
  const factIds = change.factIds;
  if (factIds === undefined) return true;
  if (part === 'fact') return typeof queryKey[2] === 'string' && factIds.includes(queryKey[2]);
  if (FACT_LISTS.has(part as string)) return factIds.length > 0;
  if (part === 'entities') return factIds.length > 0 || (change.entityIds?.length ?? 0) > 0;
  return true;
}
