import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChatExportError, type ParsedItem } from '../../electron/assistant/history/history-types';
import { readChatExport, type ReadOptions } from '../../electron/assistant/history/export-reader';
import { Readable } from 'node:stream';
import { IMPORTED_MESSAGE_MAX_BYTES } from '../../shared/chat-import';
import { exportItems } from '../../electron/assistant/history/export-items';
import { claudeConversation, gptConversation, sampleChatGptExport, sampleClaudeExport, writeZip, type GptMessageSpec } from '../fixtures/chat-exports';

const T = 1_717_000_000;

const dir = mkdtempSync(join(tmpdir(), 'tempora-chat-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function file(content: unknown, name = 'conversations.json'): string {
  const path = join(dir, `${n++}-${name}`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function readAll(path: string, options: ReadOptions = {}): Promise<(ParsedItem & { index: number })[]> {
  const items = [];
  for await (const item of readChatExport(path, options)) items.push(item);
  return items;
}

async function failure(path: string, options: ReadOptions = {}): Promise<ChatExportError> {
  const error = await readAll(path, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatExportError);
  return error as ChatExportError;
}

describe('ChatGPT export', () => {
  it('rebuilds the visible thread from current_node, keeps what the custom instructions say about you apart, skips and counts the rest', async () => {
    const [c1, c2] = await readAll(file(sampleChatGptExport()));
    expect(c1!.kind).toBe('conversation');
    if (c1!.kind !== 'conversation') return;
    const conversation = c1!.conversation;
    expect(conversation).toMatchObject({ source: 'chatgpt', sourceId: 'gpt-c1', title: 'Moving to Berlin' });
    expect(conversation.messages.map((m) => [m.sourceId, m.role, m.content, m.learn])).toEqual([
      ['g-u1', 'user', 'I live in Lisbon.', true],
      ['g-a1', 'assistant', 'Noted: Lisbon.', false],
      ['g-u2', 'user', 'I moved to Berlin last week.', true],
      ['g-a2', 'assistant', 'Congratulations on Berlin!', false],
    ]);
    expect(c1!.skipped).toEqual({ off_thread: 1, system: 1, hidden: 1, not_to_user: 1, tool: 1 });
    expect(c1!.nonTextParts).toBe(1);
    // The custom instructions: only what the user wrote about themselves, dated at the conversation's start.
    expect(c1!.kind === 'conversation' && c1!.profile).toEqual({ text: 'I am a designer.', time: '2024-05-29T16:26:40.000Z' });
    // create_time is Unix seconds; a message without one gets the time of the message before it.
    expect(conversation.messages[0]!.time).toBe(new Date((1_717_000_000 + 60) * 1000).toISOString());
    expect(conversation.messages[2]!.time).toBe('2024-06-28T16:26:40.000Z');
    expect(conversation.messages[3]!.time).toBe('2024-06-28T16:26:40.000Z');
    expect(c1!.timesFromConversation).toBe(1);
    expect(c2).toMatchObject({ kind: 'do_not_remember', sourceId: 'gpt-c2', title: 'Secret plans' });
  });

  it('follows current_node onto the branch the user chose', async () => {
    const conv = gptConversation({
      id: 'b',
      title: 'Branches',
      thread: [{ id: 'u1', role: 'user', text: 'first' }, { id: 'a-old', role: 'assistant', text: 'old answer' }],
      branches: [{ from: 'u1', messages: [{ id: 'a-new', role: 'assistant', text: 'new answer' }, { id: 'u2', role: 'user', text: 'and then' }] }],
      currentNode: 'u2',
    });
    const [item] = await readAll(file([conv]));
    if (item!.kind !== 'conversation') throw new Error('expected a conversation');
    expect(item!.conversation.messages.map((m) => m.sourceId)).toEqual(['u1', 'a-new', 'u2']);
    expect(item!.skipped.off_thread).toBe(1);
  });

  it('reads the conversations.json of a zip, deflated or stored', async () => {
    for (const store of [false, true]) {
      const path = join(dir, `${n++}-chatgpt.zip`);
      writeZip(path, { 'chat.html': '<html></html>', 'conversations.json': JSON.stringify(sampleChatGptExport()), 'user.json': '{}' }, { store });
      const items = await readAll(path);
      expect(items.map((i) => i.kind)).toEqual(['conversation', 'do_not_remember']);
    }
  });

  it('yields a malformed conversation as skipped, naming the message and the fault in words, and reads on', async () => {
    const good = gptConversation({ id: 'ok', title: 'Fine', thread: [{ id: 'm1', role: 'user', text: 'hello' }] });
    const bad = gptConversation({ id: 'bad-conv', title: 'Broken', thread: [{ id: 'm2', role: 'user', text: 'hi' }, { id: 'm3', role: 'user', text: 'x' }] });
    ((bad.mapping as Record<string, { message: { author: { role: string } } }>).m3!.message.author.role = 'robot');
    const after = gptConversation({ id: 'after', title: 'After', thread: [{ id: 'm4', role: 'user', text: 'still here' }] });
    const items = await readAll(file([good, bad, after]));
    expect(items.map((i) => i.kind)).toEqual(['conversation', 'malformed', 'conversation']);
    expect(items[1]).toMatchObject({ kind: 'malformed', index: 1, title: 'Broken', id: 'bad-conv', fault: 'message m3: author.role "robot" is not one of user, assistant, system, tool' });
  });

  it('says each fault of a ChatGPT conversation in words, with the value and where', async () => {
    const one = (id: string, edit: (c: Record<string, unknown>, m: Record<string, Record<string, unknown>>) => void) => {
      const c = gptConversation({ id, title: id, thread: [{ id: `${id}-m`, role: 'user', text: 'hi' }] });
      const mapping = c.mapping as Record<string, { message: Record<string, unknown> }>;
      edit(c, Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, v.message])));
      return c;
    };
    const faults = (await readAll(file([
      one('no-author', (_, m) => delete m['no-author-m']!.author),
      one('huge', (_, m) => (m['huge-m']!.create_time = 1e12)),
      one('negative', (_, m) => (m['negative-m']!.create_time = -5)),
      one('text-time', (c) => (c.create_time = 'yesterday')),
      one('timeless', (c, m) => {
        c.create_time = null;
        c.update_time = null;
        m['timeless-m']!.create_time = null;
      }),
      one('no-mapping', (c) => delete c.mapping),
    ]))).map((i) => (i.kind === 'malformed' ? i.fault : i.kind));
    expect(faults).toEqual([
      'message no-author-m has no author',
      'message huge-m: create_time 1000000000000 is too large for a time in seconds since 1970 (the most is 100,000,000,000, in the year 5138): was it written in milliseconds?',
      'message negative-m: create_time -5 is below zero, not a time in seconds since 1970',
      'create_time "yesterday" is not a time in seconds since 1970',
      'message timeless-m has no create_time, and neither has the conversation',
      'has no mapping',
    ]);
    expect(faults.some((f) => /Too big|Invalid input|expected number/.test(f))).toBe(false);
  });

  it('names a missing parent, a cycle and a message without any time', async () => {
    const orphan = gptConversation({ id: 'o', title: 'Orphan', thread: [{ id: 'm1', role: 'user', text: 'hi' }] });
    (orphan.mapping as Record<string, { parent: string }>).m1!.parent = 'gone';
    const cycle = gptConversation({ id: 'c', title: 'Cycle', thread: [{ id: 'm1', role: 'user', text: 'hi' }, { id: 'm2', role: 'user', text: 'yo' }] });
    (cycle.mapping as Record<string, { parent: string }>).m1!.parent = 'm2';
    const items = await readAll(file([orphan, cycle]));
    expect(items.map((i) => (i.kind === 'malformed' ? i.fault : i.kind))).toEqual(['message gone is not in mapping (it is the parent of m1)', 'message m2: the thread loops back on itself (parent links form a cycle)']);
  });

  it('a message id twice with different text is a fault of its conversation, found while reading', async () => {
    const clash = claudeConversation({ id: 'cv2', name: '大阪', messages: [{ id: 'u2', sender: 'human', text: 'A', time: '2025-04-01T03:00:00Z' }, { id: 'u2', sender: 'human', text: 'B', time: '2025-04-01T03:01:00Z' }] });
    const [item] = await readAll(file([clash]));
    expect(item).toMatchObject({ kind: 'malformed', fault: 'messages 1 and 2 have the same id (u2) but differ: the export is damaged' });
  });

  it('says where broken JSON stops it', async () => {
    const good = JSON.stringify(gptConversation({ id: 'ok', title: 'Fine', thread: [{ id: 'm1', role: 'user', text: 'hello' }] }));
    const error = await failure(file(`[${good}, {"title": "cut", "mapping": {`));
    expect(error.message).toMatch(/cannot read conversation 2, after conversation 1 \("Fine", id ok\)/);
  });
});

describe('Claude export', () => {
  it('imports chat_messages in order with their own times, text from text blocks', async () => {
    const [item] = await readAll(file(sampleClaudeExport()));
    if (item!.kind !== 'conversation') throw new Error('expected a conversation');
    expect(item!.conversation).toMatchObject({ source: 'claude', sourceId: 'cl-c1', title: 'Work notes' });
    expect(item!.conversation.messages.map((m) => [m.sourceId, m.role, m.content, m.time])).toEqual([
      ['cl-u1', 'user', 'My manager is Alice.', '2024-06-01T08:00:05.000Z'],
      ['cl-a1', 'assistant', 'Got it.', '2024-06-01T08:00:09.000Z'],
      ['cl-u2', 'user', 'Since today my manager is Bob.', '2024-07-01T08:00:00.000Z'],
      ['cl-u3', 'user', 'Thanks.', '2024-07-01T08:00:00.000Z'],
    ]);
    expect(item!.nonTextParts).toBe(1);
    expect(item!.timesFromConversation).toBe(1);
  });

  it('is detected in a zip, and a wrong --format is refused in words', async () => {
    const path = join(dir, `${n++}-claude.zip`);
    writeZip(path, { 'users.json': '[]', 'conversations.json': JSON.stringify(sampleClaudeExport()) });
    expect((await readAll(path))[0]).toMatchObject({ format: 'claude' });
    expect((await failure(path, { format: 'chatgpt' })).message).toContain('this is a Claude export, not ChatGPT');
  });

  it('names the message with a bad sender, and says an impossible date in words', async () => {
    const conv = claudeConversation({ id: 'x', name: 'Odd', messages: [{ id: 'ok', sender: 'human', text: 'hi' }, { id: 'weird', sender: 'human', text: 'yo' }] });
    (conv.chat_messages as { sender: string }[])[1]!.sender = 'robot';
    const feb = claudeConversation({ id: 'f', name: 'Feb', messages: [{ id: 'u1', sender: 'human', text: 'hi', time: '2025-02-30T10:00:00Z' }] });
    const started = claudeConversation({ id: 's', name: 'Start', createdAt: 'tomorrow', messages: [{ id: 'u1', sender: 'human', text: 'hi' }] });
    const items = await readAll(file([conv, feb, started]));
    expect(items.map((i) => (i.kind === 'malformed' ? i.fault : i.kind))).toEqual([
      'message weird: sender "robot" is not one of human, assistant',
      'message u1: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days',
      'created_at "tomorrow" is not an ISO-8601 time (like 2025-02-14T10:00:00Z); updated_at "tomorrow" is not an ISO-8601 time (like 2025-02-14T10:00:00Z)',
    ]);
  });
});

describe('custom instructions, long messages, attachments', () => {
  const about = (id: string, profile: string, time: number | null, extra: Partial<GptMessageSpec> = {}): GptMessageSpec => ({
    id,
    role: 'user',
    userProfile: profile,
    userInstructions: 'Answer briefly.',
    hidden: true,
    time,
    ...extra,
  });

  it('keeps of the custom instructions only what is about you, without the preamble or the instructions to the model', async () => {
    const wrapped = gptConversation({ id: 'w', title: 'W', createTime: T, thread: [about('w-ci', 'I live in Osaka.', null), { id: 'w-u', role: 'user', text: 'hi', time: T + 5 }] });
    const bare = gptConversation({ id: 'b', title: 'B', createTime: T + 10, thread: [about('b-ci', 'I am a nurse.', T + 10, { bare: true }), { id: 'b-u', role: 'user', text: 'yo', time: T + 11 }] });
    const noMetadata = gptConversation({ id: 'n', title: 'N', createTime: T + 20, thread: [about('n-ci', 'I have two cats.', T + 20), { id: 'n-u', role: 'user', text: 'hey', time: T + 21 }] });
    ((noMetadata.mapping as Record<string, { message: { metadata: Record<string, unknown> } }>)['n-ci']!.message.metadata).user_context_message_data = undefined;
    const items = await readAll(file([wrapped, bare, noMetadata]));
    const profiles = items.map((i) => (i.kind === 'conversation' ? i.profile : undefined));
    expect(profiles).toEqual([
      { text: 'I live in Osaka.', time: new Date(T * 1000).toISOString() },
      { text: 'I am a nurse.', time: new Date((T + 10) * 1000).toISOString() },
      { text: 'I have two cats.', time: new Date((T + 20) * 1000).toISOString() },
    ]);
    for (const item of items) {
      if (item.kind !== 'conversation') throw new Error('expected a conversation');
      expect(item.conversation.messages.map((m) => m.content).join('|')).not.toMatch(/Answer briefly|quietly think|User profile/);
      expect(item.conversation.messages).toHaveLength(1);
    }
  });

  it('cuts a message over 1 MB at a character boundary and counts it; one just within is kept whole', async () => {
    const within = '日'.repeat(Math.floor(IMPORTED_MESSAGE_MAX_BYTES / 3)); // 1,048,575 bytes
    const over = '日'.repeat(1_000_000); // 3 MB
    const conv = gptConversation({ id: 'big', title: 'Big', thread: [{ id: 'm-within', role: 'user', text: within }, { id: 'm-over', role: 'user', text: over }, { id: 'm-a', role: 'assistant', text: `a${'x'.repeat(IMPORTED_MESSAGE_MAX_BYTES)}` }] });
    const [item] = await readAll(file([conv]));
    if (item!.kind !== 'conversation') throw new Error('expected a conversation');
    const [a, b, c] = item!.conversation.messages;
    expect(a!.content).toBe(within);
    expect(b!.content).toBe(within); // the last whole character within 1 MiB: 349,525 of them
    expect(Buffer.byteLength(c!.content)).toBe(IMPORTED_MESSAGE_MAX_BYTES);
    expect(item!.skipped).toEqual({ truncated: 2 });
  });

  it('leaves out a conversation with more text than an import reads of one, holding none of it', async () => {
    // Each token costs 16 besides the text kept: the first item stays within 120 (95), the second passes it (187).
    const text = Readable.from([JSON.stringify([{ a: 'x'.repeat(50) }, { b: ['y'.repeat(30), 'z'.repeat(30), 'w'.repeat(30)] }, { c: 1 }])]);
    const items = [];
    for await (const item of exportItems(text, { stringChars: 30, itemChars: 120 })) items.push(item);
    expect(items).toEqual([
      { key: 0, tooLarge: false, value: { a: 'x'.repeat(30) } },
      { key: 1, tooLarge: true },
      { key: 2, tooLarge: false, value: { c: 1 } },
    ]);
  });

  it("keeps the text Claude extracted from a message's attachments", async () => {
    const conv = claudeConversation({
      id: 'att',
      name: 'Files',
      messages: [{ id: 'u1', sender: 'human', text: 'Here is my CV.', time: '2024-03-01T09:00:00Z', attachments: [{ file_name: 'cv.txt', extracted_content: 'Worked at Acme since 2019.' }] }],
    });
    const [item] = await readAll(file([conv]));
    if (item!.kind !== 'conversation') throw new Error('expected a conversation');
    expect(item!.conversation.messages[0]!.content).toBe('Here is my CV.\n\ncv.txt:\nWorked at Acme since 2019.');
  });
});

describe('not an export', () => {
  it('refuses in words: empty, not an array, neither format, a zip without conversations.json, no file', async () => {
    expect((await failure(file(''))).message).toContain('the file is empty');
    expect((await failure(file({ conversations: [] }))).message).toMatch(/expected a list of conversations \(\[ … \]\), as ChatGPT and Claude export them, but the file holds an object/);
    expect((await failure(file('"hello"'))).message).toContain('but the file holds a string');
    expect((await failure(dir)).message).toContain('is a folder, not a file (expected the .zip your ChatGPT or Claude export gave you, or its conversations.json)');
    expect((await failure(file([{ hello: 1 }]))).message).toContain('is neither a ChatGPT conversation');
    const zip = join(dir, `${n++}-other.zip`);
    writeZip(zip, { 'notes.txt': 'hi' });
    expect((await failure(zip)).message).toContain('the zip has no conversations.json');
    expect((await failure(join(dir, 'missing.json'))).message).toContain('no such file');
  });
});
