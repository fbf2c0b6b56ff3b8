/**
 * The chat's conversation list after years of history come in (import-chats): each conversation is
 * dated by its last message's time as said (the export's time), newest first — not by the day of
 * the import, which would date every imported conversation "today" in the order the file listed
 * them. The list is what the Chat screen asks for (listConversations → memory.conversations.list).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { gptConversation } from '../fixtures/chat-exports';

const root = mkdtempSync(join(tmpdir(), 'tempora-conversation-list-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function tempora(dir: string, argv: string[]): Promise<number> {
  return runAsync([...argv, '--data', join(dir, 'data')], {
    stdout: () => undefined,
    stderr: () => undefined,
    cwd: dir,
    env: { TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error' },
    clock: steppingClock('2026-11-01T00:00:00.000Z'),
  });
}

function listed(dir: string): { title: string; updated_at: string; message_count: number }[] {
  const memory = openMemory({ dataDir: join(dir, 'data') });
  try {
    return memory.conversations.list().map((c) => ({ title: c.title, updated_at: c.updated_at, message_count: c.message_count }));
  } finally {
    memory.close();
  }
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
const chat = (id: string, title: string, times: string[]) =>
  gptConversation({ id, title, createTime: seconds(times[0]!), thread: times.map((t, i) => ({ id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user', text: `Message ${i} of ${title}.`, time: seconds(t) })) });

describe('the conversation list after history is imported', () => {
  it('dates each conversation by its last message as said, newest first, whatever the file order', async () => {
    const dir = mkdtempSync(join(root, 'w-'));
    // The file lists them in no useful order; the import happens on 2026-11-01.
    const conversations = [
      chat('new', 'Cello lessons', ['2026-10-20T20:00:00.000Z']),
      chat('old', 'Moving to Osaka', ['2023-03-10T09:00:00.000Z', '2023-03-10T09:01:00.000Z', '2023-04-02T12:00:00.000Z']),
      chat('mid', 'Trip planning', ['2025-01-05T01:00:00.000Z', '2025-01-05T01:02:00.000Z']),
    ];
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(conversations));
    expect(await tempora(dir, ['import-chats', 'conversations.json'])).toBe(0);
    expect(listed(dir)).toEqual([
      { title: 'Cello lessons', updated_at: '2026-10-20T20:00:00.000Z', message_count: 1 },
      { title: 'Trip planning', updated_at: '2025-01-05T01:02:00.000Z', message_count: 2 },
      { title: 'Moving to Osaka', updated_at: '2023-04-02T12:00:00.000Z', message_count: 3 },
    ]);
  });
});
