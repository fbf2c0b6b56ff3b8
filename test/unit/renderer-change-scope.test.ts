/**
 * Which cached answers a memoryChanged event makes stale (renderer/src/app/memory-change-scope.ts):
 * a fact's page only when that fact was touched; the lists only when some fact was; nothing of the
 * facts for a write that changed none; everything when the event names nothing.
 */
import { describe, expect, it } from 'vitest';
import { isStaleAfter } from '../../renderer/src/app/memory-change-scope';
import { memoryKeys, modelKeys } from '../../renderer/src/app/query-keys';

const learned = (factIds: string[], entityIds: string[] = []) => ({ reason: 'learned', factIds, entityIds, episodeIds: ['ep_1'], conversationIds: [] });
const keys = {
  page: memoryKeys.fact('fct_a'),
  otherPage: memoryKeys.fact('fct_b'),
  list: memoryKeys.factList({ query: '' }),
  timeline: memoryKeys.history(null),
  entities: memoryKeys.entities,
  conversations: memoryKeys.conversations,
  unknown: ['memory', 'something-new', 'x'],
  models: modelKeys.status,
};
const stale = (change: Parameters<typeof isStaleAfter>[1]) => Object.entries(keys).filter(([, key]) => isStaleAfter(key, change)).map(([name]) => name);

describe('what a memoryChanged event makes stale', () => {
  it('a learned fact: its page and the lists, not the page of another fact', () => {
    expect(stale(learned(['fct_a'], ['ent_1']))).toEqual(['page', 'list', 'timeline', 'entities', 'unknown']);
  });

  it('a learned message that changed no fact: no fact answer at all', () => {
    expect(stale(learned([]))).toEqual(['unknown']);
  });

  it('a new message or conversation: the conversation list only', () => {
    expect(stale({ reason: 'message', factIds: [], entityIds: [], episodeIds: ['ep_2'], conversationIds: [] })).toEqual(['conversations']);
    expect(stale({ reason: 'conversation', factIds: [], entityIds: [], episodeIds: [], conversationIds: ['cnv_1'] })).toEqual(['conversations']);
  });

  it('an event that names nothing (import, forget, an older engine): every memory answer', () => {
    expect(stale({ reason: 'import' })).toEqual(['page', 'otherPage', 'list', 'timeline', 'entities', 'conversations', 'unknown']);
    expect(stale({ reason: 'forget' })).toEqual(['page', 'otherPage', 'list', 'timeline', 'entities', 'conversations', 'unknown']);
  });
});
