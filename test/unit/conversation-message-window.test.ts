/**
 * A conversation's messages read as a window (issue 29: never a whole long conversation for the
 * chat's first view): the latest `limit`, oldest first; a linked message reaches the window back to
 * ten before it; ties in time keep their order; a message of another conversation is refused in words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { plansOf } from '../fixtures/query-plans';
import { databaseOf } from '../../electron/memory/memory';

let memory: Memory;
afterEach(() => memory?.close());

function conversationOf(count: number, sameTime = false): { id: string; ids: string[] } {
  memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-01-01T00:00:00.000Z') });
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const appended = memory.messages.appendAll(
    Array.from({ length: count }, (_, i) => ({ role: 'user' as const, content: `m${i + 1}`, time: new Date(sameTime ? start : start + i * 60_000).toISOString(), conversation: 'c', learn: false })),
  );
  memory.messages.append({ role: 'user', content: 'elsewhere', time: new Date(start).toISOString(), conversation: 'other', learn: false });
  return { id: appended[0]!.episode.conversation_id!, ids: appended.map((a) => a.episode.id) };
}
const contents = (id: string, window: { limit?: number; from?: string }) => memory.conversations.messages(id, window).map((m) => m.content);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

describe('a conversation read as a window', () => {
  it('gives the latest limit, oldest first, and all of a shorter conversation', () => {
    const { id } = conversationOf(30);
    expect(contents(id, {})).toEqual(range(1, 30));
    expect(contents(id, { limit: 10 })).toEqual(range(21, 30));
    expect(contents(id, { limit: 29 })).toEqual(range(2, 30));
    expect(contents(id, { limit: 30 })).toEqual(range(1, 30));
    expect(contents(id, { limit: 31 })).toEqual(range(1, 30));
    expect(contents(id, { limit: 1 })).toEqual(['m30']);
  });

  it('reaches back to ten messages before a linked one, and not past the start', () => {
    const { id, ids } = conversationOf(30);
    expect(contents(id, { limit: 5, from: ids[14]! })).toEqual(range(5, 30));
    expect(contents(id, { limit: 5, from: ids[10]! })).toEqual(range(1, 30));
    expect(contents(id, { limit: 5, from: ids[9]! })).toEqual(range(1, 30));
    // A linked message inside the latest page changes nothing.
    expect(contents(id, { limit: 20, from: ids[25]! })).toEqual(range(11, 30));
    expect(contents(id, { from: ids[28]! })).toEqual(range(19, 30));
  });

  it('keeps messages said at the same time in the order they were written', () => {
    const { id } = conversationOf(12, true);
    expect(contents(id, {})).toEqual(range(1, 12));
    expect(contents(id, { limit: 4 })).toEqual(range(9, 12));
  });

  it('refuses a linked message of another conversation, or none, in words', () => {
    const { id } = conversationOf(3);
    const other = memory.conversations.list().find((c) => c.id !== id)!;
    const stranger = memory.conversations.messages(other.id)[0]!.id;
    expect(() => memory.conversations.messages(id, { from: stranger })).toThrow(`no message ${stranger} in conversation ${id}`);
    expect(() => memory.conversations.messages(id, { from: 'ep_none' })).toThrow(`no message ep_none in conversation ${id}`);
  });

  it('reads a page from the end by index, not the whole conversation', () => {
    const { id } = conversationOf(50);
    const plans = plansOf(databaseOf(memory), () => memory.conversations.messages(id, { limit: 10 }));
    const windowReads = plans.filter((p) => /FROM episodes WHERE conversation_id/.test(p.sql));
    expect(windowReads.length).toBeGreaterThan(0);
    for (const read of windowReads) expect(read.plan.join(' ')).toMatch(/USING INDEX episodes_by_conversation/);
  });
});
