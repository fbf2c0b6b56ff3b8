/**
 * A message id twice in one conversation of a chat export: the same message is kept once, two
 * different ones are a damaged export — one rule for the store and the history readers.
 */
import { describe, expect, it } from 'vitest';
import { findRepeatedMessageIds, openMemory, MemoryInputError } from '../../electron/memory/index';
import { toIsoUtc } from '../../shared/time';

const message = (sourceId: string, content: string, time = '2024-01-01T10:00:00.000Z', role: 'user' | 'assistant' = 'user') => ({ sourceId, role, content, time: toIsoUtc(time), learn: true });

describe('a message id twice in one conversation', () => {
  it('keeps an exact repeat once and names the first id under two different messages', () => {
    expect(findRepeatedMessageIds([message('a', 'x'), message('b', 'y'), message('a', 'x')])).toEqual({ repeats: new Set([2]), fault: null });
    for (const differing of [message('a', 'x2'), message('a', 'x', '2024-01-01T10:00:01.000Z'), message('a', 'x', undefined, 'assistant')]) {
      expect(findRepeatedMessageIds([message('a', 'x'), message('b', 'y'), differing]).fault).toEqual({ message: 'messages 1 and 3 have the same id (a) but differ: the export is damaged', index: 2 });
    }
  });

  it('is what the store does: a repeat stored once, two different messages refused with nothing stored', () => {
    const memory = openMemory({ dataDir: ':memory:' });
    try {
      const [stored] = memory.history.importConversations([{ source: 'claude', sourceId: 'c1', title: 'T', messages: [message('a', 'x'), message('a', 'x'), message('b', 'y')] }]);
      expect(stored!.episodeIds).toHaveLength(2);
      const refused = () => memory.history.importConversations([{ source: 'claude', sourceId: 'c2', title: 'U', messages: [message('c', 'z'), message('c', 'other')] }]);
      expect(refused).toThrow(MemoryInputError);
      expect(refused).toThrow('messages 1 and 2 have the same id (c) but differ: the export is damaged');
      expect(memory.conversations.list().map((c) => c.title)).toEqual(['T']);
    } finally {
      memory.close();
    }
  });
});
