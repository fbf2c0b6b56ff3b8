import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { claudeConversation, gptConversation, sampleChatGptExport, sampleClaudeExport, writeZip } from '../fixtures/chat-exports';
import { runTempora } from './cli-helpers';
import type { MemoryExport } from '../../shared/memory-schema';

const root = mkdtempSync(join(tmpdir(), 'tempora-cli-chats-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function tempora(dir: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAsync([...argv, '--data', join(dir, 'data')], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: dir,
    env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' },
    clock: steppingClock('2026-11-01T00:00:00.000Z'),
  });
  return { code, out, err };
}

function workdir(): string {
  return mkdtempSync(join(root, 'w-'));
}

describe('tempora import-chats', () => {
  it('imports a ChatGPT zip, says what it skipped, and a second run adds nothing', async () => {
    const dir = workdir();
    writeZip(join(dir, 'chatgpt-export.zip'), { 'conversations.json': JSON.stringify(sampleChatGptExport()) });
    const first = await tempora(dir, ['import-chats', 'chatgpt-export.zip']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('ChatGPT export: 1 conversation, 5 messages from 29 May 2024, 16:26 to 28 Jun 2024, 16:26.');
    expect(first.out).toContain('Imported 5 new messages (1 new conversation).\n');
    expect(first.out).not.toContain('already imported');
    expect(first.out).toContain('3 of your messages joined the learning queue');
    expect(first.out).toContain('Skipped: 1 do-not-remember conversation; 1 message on a regenerated or edited branch, not the conversation as it was left; ');
    expect(first.out).toContain('; 1 system message (not written by you); ');
    expect(first.out).toContain('; 1 assistant message addressed to a tool, not to you');
    expect(first.out).not.toContain('Not imported');
    expect(first.out).toContain("1 message had no time of its own and took the time of the message before it (or of its conversation).");
    const again = await tempora(dir, ['import-chats', 'chatgpt-export.zip', '--json']);
    expect(JSON.parse(again.out)).toMatchObject({ stored: true, newMessages: 0, alreadyImported: 5, toLearn: 0 });
  });

  it('--dry-run stores nothing and creates no memory; --format is checked', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
    const dry = await tempora(dir, ['import-chats', 'conversations.json', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Claude export: 1 conversation, 4 messages');
    expect(dry.out).toContain('Would import 4 new messages');
    expect(existsSync(join(dir, 'data'))).toBe(false);
    const wrong = await tempora(dir, ['import-chats', 'conversations.json', '--format', 'chatgpt']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('this is a Claude export, not ChatGPT');
    const bad = await tempora(dir, ['import-chats', 'conversations.json', '--format', 'gemini']);
    expect(bad.err).toContain('--format: must be chatgpt or claude, got "gemini"');
  });

  it('skips each malformed conversation whole, imports the rest, and lists them all in one dry run', async () => {
    const dir = workdir();
    const fine = (i: number) => gptConversation({ id: `ok${i}`, title: `Fine ${i}`, thread: [{ id: `f${i}`, role: 'user', text: `hello ${i}` }] });
    const noAuthor = gptConversation({ id: 'c-123', title: 'Trip', thread: [{ id: 'm-9', role: 'user', text: 'hi' }] });
    delete ((noAuthor.mapping as Record<string, { message: Record<string, unknown> }>)['m-9']!.message).author;
    const timeless = gptConversation({ id: 'c-t', title: 'Timeless', createTime: null, thread: [{ id: 'm-t', role: 'user', text: 'when?', time: null }] });
    (timeless as { update_time: null }).update_time = null;
    const negative = gptConversation({ id: 'c-n', title: 'Before 1970', thread: [{ id: 'm-n', role: 'user', text: 'x', time: -5 }] });
    const huge = gptConversation({ id: 'c-h', title: 'Far future', thread: [{ id: 'm-h', role: 'user', text: 'x', time: 1e12 }] });
    const robot = gptConversation({ id: 'c-r', title: 'Robot', thread: [{ id: 'm-r', role: 'user', text: 'x' }] });
    ((robot.mapping as Record<string, { message: { author: { role: string } } }>)['m-r']!.message.author.role = 'robot');
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify([fine(1), noAuthor, fine(2), timeless, negative, fine(3), huge, robot, fine(4)]));
    const lines = [
      '  conversation 2 ("Trip", id c-123): message m-9 has no author',
      '  conversation 4 ("Timeless", id c-t): message m-t has no create_time, and neither has the conversation',
      '  conversation 5 ("Before 1970", id c-n): message m-n: create_time -5 is below zero, not a time in seconds since 1970',
      '  conversation 7 ("Far future", id c-h): message m-h: create_time 1000000000000 is too large for a time in seconds since 1970 (the most is 100,000,000,000, in the year 5138): was it written in milliseconds?',
      '  conversation 8 ("Robot", id c-r): message m-r: author.role "robot" is not one of user, assistant, system, tool',
    ];
    const dry = await tempora(dir, ['import-chats', 'conversations.json', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Would import 4 new messages (4 new conversations)');
    expect(dry.out).toContain(['Not imported: 5 conversations could not be read (nothing of them would be stored):', ...lines].join('\n'));
    const result = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(result.out).toContain('Imported 4 new messages (4 new conversations)');
    expect(result.out).toContain(['Not imported: 5 conversations could not be read (nothing of them was stored):', ...lines].join('\n'));
    expect(Object.keys(stored(dir)).sort()).toEqual(['Fine 1', 'Fine 2', 'Fine 3', 'Fine 4']);
    const json = JSON.parse((await tempora(dir, ['import-chats', 'conversations.json', '--json'])).out) as { malformed: { count: number; first: { index: number; label: string; fault: string }[] } };
    expect(json.malformed.count).toBe(5);
    expect(json.malformed.first[0]).toEqual({ index: 2, title: 'Trip', id: 'c-123', label: 'conversation 2 ("Trip", id c-123)', fault: 'message m-9 has no author' });
  });

  it('lists the first 20 malformed conversations and says how many more; nothing readable at all exits 1 and stores nothing', async () => {
    const dir = workdir();
    const bad = (i: number) => claudeConversation({ id: `b${i}`, name: `Bad ${i}`, messages: [{ id: 'u', sender: 'human', text: 'hi', time: '2025-02-30T10:00:00Z' }] });
    const many = [...Array.from({ length: 23 }, (_, i) => bad(i + 1)), claudeConversation({ id: 'fine', name: 'Fine', messages: [{ id: 'u', sender: 'human', text: 'tea', time: '2025-01-01T10:00:00Z' }] })];
    writeFileSync(join(dir, 'many.json'), JSON.stringify(many));
    const dry = await tempora(dir, ['import-chats', 'many.json', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Not imported: 23 conversations could not be read (nothing of them would be stored):\n  conversation 1 ("Bad 1", id b1): message u: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days\n');
    expect(dry.out).toContain('\n  conversation 20 ("Bad 20", id b20): message u: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days\n  … and 3 more\n');
    expect(dry.out).not.toContain('conversation 21 (');

    writeFileSync(join(dir, 'broken.json'), JSON.stringify([bad(1), bad(2)]));
    for (const args of [['--dry-run'], []]) {
      const refused = await tempora(dir, ['import-chats', 'broken.json', ...args]);
      expect(refused.code).toBe(1);
      expect(refused.err).toBe(
        `tempora: broken.json: none of its conversations could be read, so nothing ${args.length ? 'would be' : 'was'} imported:\n` +
          '  conversation 1 ("Bad 1", id b1): message u: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days\n' +
          '  conversation 2 ("Bad 2", id b2): message u: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days\n',
      );
    }
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('says counts with thousands separators and a skip line that reads right for one and many', async () => {
    const dir = workdir();
    const chats = Array.from({ length: 1001 }, (_, i) =>
      gptConversation({ id: `c${i}`, title: `Chat ${i}`, thread: [{ id: `s${i}a`, role: 'system', text: 'You are ChatGPT.' }, { id: `s${i}b`, role: 'system', text: 'Be brief.' }, { id: `u${i}`, role: 'user', text: `Note ${i}.` }] }),
    );
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(chats));
    const result = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Imported 1,001 new messages (1,001 new conversations).\n');
    expect(result.out).toContain('1,001 of your messages joined the learning queue');
    expect(result.out).toContain('Skipped: 2,002 system messages (not written by you).');
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    expect(runTempora(dir, clock, ['queue']).out).toContain('Imported chats: 0 of 1,001 learned, 1,001 left.');
    expect(runTempora(dir, clock, ['queue', 'cancel']).out).toContain("Imported chats: nothing queued for learning · 1,001 cancelled ('tempora queue requeue' learns them).");
    const again = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(again.out).toContain('Imported 0 new messages (0 new conversations); 1,001 already imported.');
  }, 60_000);

  it('keeps a message its export repeats once, and refuses two different messages under one id in words', async () => {
    const dir = workdir();
    const said = { id: 'u1', sender: 'human', text: '渋谷に住んでいます。', time: '2024-07-10T03:00:05Z' } as const;
    const twice = claudeConversation({ id: 'cv1', name: '東京の生活', messages: [said, said, { id: 'a1', sender: 'assistant', text: 'いいですね。', time: '2024-07-10T03:00:09Z' }] });
    writeFileSync(join(dir, 'twice.json'), JSON.stringify([twice]));
    expect((await tempora(dir, ['import-chats', 'twice.json'])).code).toBe(0);
    expect(stored(dir)['東京の生活']).toEqual([
      ['渋谷に住んでいます。', '2024-07-10T03:00:05.000Z'],
      ['いいですね。', '2024-07-10T03:00:09.000Z'],
    ]);
    const empty = claudeConversation({ id: 'cv0', name: 'Empty', messages: [] });
    writeFileSync(join(dir, 'empty.json'), JSON.stringify([empty]));
    expect((await tempora(dir, ['import-chats', 'empty.json'])).out).toContain('\nSkipped: 1 conversation with nothing left to import.\n');
    const clash = claudeConversation({ id: 'cv2', name: '大阪', messages: [{ id: 'u2', sender: 'human', text: '大阪に引っ越しました。', time: '2025-04-01T03:00:00Z' }, { id: 'u2', sender: 'human', text: '梅田で働いています。', time: '2025-04-01T03:01:00Z' }] });
    writeFileSync(join(dir, 'clash.json'), JSON.stringify([clash]));
    const refused = await tempora(dir, ['import-chats', 'clash.json']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('tempora: clash.json: none of its conversations could be read, so nothing was imported:\n  conversation 1 ("大阪", id cv2): messages 1 and 2 have the same id (u2) but differ: the export is damaged\n');
    expect(Object.keys(stored(dir))).toEqual(['東京の生活']);
  });
});

describe('tempora queue', () => {
  it('shows the backfill, pauses it (kept), resumes and cancels it', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
    expect((await tempora(dir, ['import-chats', 'conversations.json'])).code).toBe(0);
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    expect(runTempora(dir, clock, ['queue']).out).toContain('Imported chats: 0 of 3 learned, 3 left.');
    expect(runTempora(dir, clock, ['queue', 'pause']).out).toContain('(paused: tempora queue resume)');
    expect(JSON.parse(runTempora(dir, clock, ['queue', '--json']).out)).toMatchObject({ paused: true, pending: 3 });
    expect(runTempora(dir, clock, ['queue', 'resume']).out).not.toContain('paused');
    const cancelled = runTempora(dir, clock, ['queue', 'cancel']);
    expect(cancelled.out).toContain("Cancelled the learning of 3 imported messages (they stay stored; 'tempora queue requeue' takes this back).");
    expect(cancelled.out).toContain("Imported chats: nothing queued for learning · 3 cancelled ('tempora queue requeue' learns them).");
    expect(runTempora(dir, clock, ['queue', 'later']).err).toContain('queue: unknown action "later"');
  });

  it('a memory moved mid-way through learning goes on with what was left, in its order', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
    expect((await tempora(dir, ['import-chats', 'conversations.json'])).code).toBe(0);
    // The first of the three is learned before the move (as the worker leaves a job it learned: done).
    const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-11-01T00:00:00.000Z') });
    const first = memory.jobs.claimNext()!;
    memory.close();
    const db = new Database(join(dir, 'data', 'memory.sqlite'));
    db.prepare("UPDATE ingestion_jobs SET status = 'done' WHERE id = ?").run(first.id);
    db.close();
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    expect(runTempora(dir, clock, ['export', '--out', 'moved.json']).code).toBe(0);
    const moved = JSON.parse(readFileSync(join(dir, 'moved.json'), 'utf8')) as MemoryExport;
    const waiting = moved.episodes.filter((e) => e.learned === false).map((e) => e.id);
    expect(waiting).toHaveLength(2);
    expect(waiting).not.toContain(first.episode_id);

    const there = workdir();
    const imported = runTempora(there, clock, ['import', join(dir, 'moved.json')]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain("2 messages still being learned where this memory was exported are queued here: the app learns them in the background ('tempora queue' shows how far).");
    expect(runTempora(there, clock, ['queue']).out).toContain('Imported chats: 0 of 2 learned, 2 left.');
    const next = openMemory({ dataDir: join(there, 'data'), clock: steppingClock('2026-11-02T00:00:00.000Z') });
    const order = [next.jobs.claimNext()!.episode_id, next.jobs.claimNext()!.episode_id];
    next.close();
    expect(order).toEqual(waiting);
    // Into a memory that holds them already (and has queued them), nothing is queued twice.
    const again = runTempora(dir, clock, ['import', 'moved.json', '--replace', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ queued: 0 });
    expect(runTempora(dir, clock, ['queue']).out).toContain('Imported chats: 1 of 3 learned, 2 left.');
    // What the user cancelled is not learned there either, and the cancel can be taken back there.
    expect(runTempora(dir, clock, ['queue', 'cancel']).code).toBe(0);
    expect(runTempora(dir, clock, ['export', '--out', 'cancelled.json']).code).toBe(0);
    const cancelled = (JSON.parse(readFileSync(join(dir, 'cancelled.json'), 'utf8')) as MemoryExport).episodes.filter((e) => e.learned !== undefined);
    expect(cancelled.map((e) => [e.id, e.learned])).toEqual(waiting.map((id) => [id, 'cancelled']));
    const third = workdir();
    const moved2 = runTempora(third, clock, ['import', join(dir, 'cancelled.json')]);
    expect(moved2.code, moved2.err).toBe(0);
    expect(moved2.out).not.toContain('queued here');
    expect(runTempora(third, clock, ['queue']).out).toContain("Imported chats: nothing queued for learning · 2 cancelled ('tempora queue requeue' learns them).");
    expect(runTempora(third, clock, ['queue', 'requeue']).code).toBe(0);
    expect(runTempora(third, clock, ['queue']).out).toContain('Imported chats: 0 of 2 learned, 2 left.');
  });

  it('a cancel can be taken back: a re-import says so, and requeue puts the messages back in their order', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
    expect((await tempora(dir, ['import-chats', 'conversations.json'])).code).toBe(0);
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    expect(runTempora(dir, clock, ['queue', 'cancel']).code).toBe(0);
    const again = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(again.out).toContain("3 imported messages whose learning was cancelled are not learned: 'tempora queue requeue' learns them.");
    const requeued = runTempora(dir, clock, ['queue', 'requeue']);
    expect(requeued.out).toContain('Requeued 3 imported messages: they wait to be learned again, in their order.');
    expect(requeued.out).toContain('Imported chats: 0 of 3 learned, 3 left.');
    expect(runTempora(dir, clock, ['queue', 'requeue']).out).toContain('Nothing was cancelled: nothing to requeue.');
  });
});

/** The stored messages, by conversation title: [content, time] in thread order. */
function stored(dir: string): Record<string, [string, string][]> {
  const memory = openMemory({ dataDir: join(dir, 'data') });
  try {
    return Object.fromEntries(memory.conversations.list().map((c) => [c.title, memory.conversations.messages(c.id).map((m) => [m.content, m.reference_time] as [string, string])]));
  } finally {
    memory.close();
  }
}

const T = 1_750_000_000; // 2025-06-15T15:06:40Z
const at = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('tempora import-chats: what a careful user finds (issue 27)', () => {
  it('imports what the custom instructions say about you once per distinct text, dated when it first appears, without the preamble or the instructions to ChatGPT', async () => {
    const dir = workdir();
    const instructions = (id: string, profile: string) => ({ id, role: 'user' as const, userProfile: profile, userInstructions: 'Answer briefly.', hidden: true, time: null });
    const conversation = (id: string, start: number, profile: string) =>
      gptConversation({ id, title: `Chat ${id}`, createTime: start, thread: [instructions(`${id}-ci`, profile), { id: `${id}-u`, role: 'user', text: `Hello from ${id}.`, time: start + 5 }] });
    // The export lists the newest first; "Osaka" appears first in the oldest conversation.
    const conversations = [conversation('c4', T + 4000, 'I live in Kyoto.'), conversation('c3', T + 3000, 'I live in Osaka.'), conversation('c2', T + 2000, 'I live in Osaka.'), conversation('c1', T + 1000, 'I live in Osaka.')];
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(conversations));
    const result = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('ChatGPT export: 4 conversations, 6 messages');
    expect(result.out).toContain(
      'Your custom instructions: 2 distinct texts about you imported once, dated when each first appears (not once per conversation); the preamble and your instructions to ChatGPT are not facts and were left out.',
    );
    expect(result.out).toContain('6 of your messages joined the learning queue');
    const messages = stored(dir);
    expect(messages['Your ChatGPT custom instructions']).toEqual([
      ['I live in Osaka.', at(T + 1000)],
      ['I live in Kyoto.', at(T + 4000)],
    ]);
    expect(JSON.stringify(messages)).not.toMatch(/Answer briefly|quietly think|User profile/);
    expect(messages['Chat c1']).toEqual([['Hello from c1.', at(T + 1005)]]);
    // Again: nothing new, the profile included.
    expect(JSON.parse((await tempora(dir, ['import-chats', 'conversations.json', '--json'])).out)).toMatchObject({ newMessages: 0, alreadyImported: 6, toLearn: 0, profiles: 2 });
  });

  it("gives a message without a time the time of the message before it, not its conversation's", async () => {
    const dir = workdir();
    const chat = gptConversation({
      id: 'late',
      title: 'Late',
      createTime: T,
      thread: [
        { id: 'u1', role: 'user', text: 'First, in January.', time: T + 180 * 86_400 },
        { id: 'a1', role: 'assistant', text: 'An answer without a time.', time: null },
        { id: 'u2', role: 'user', text: 'And so am I.', time: null },
      ],
    });
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify([chat]));
    const result = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(result.out).toContain('2 messages had no time of their own and took the time of the message before them (or of their conversation).');
    expect(stored(dir).Late!.map(([, time]) => time)).toEqual([at(T + 180 * 86_400), at(T + 180 * 86_400), at(T + 180 * 86_400)]);
  });

  it('keeps the text Claude extracted from attachments as part of the message', async () => {
    const dir = workdir();
    const chat = claudeConversation({
      id: 'cv',
      name: 'CV',
      messages: [{ id: 'u1', sender: 'human', text: 'My CV, attached.', time: '2025-01-10T09:00:00Z', attachments: [{ file_name: 'cv.txt', extracted_content: 'Engineer at Acme since 2019.' }] }],
    });
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify([chat]));
    expect((await tempora(dir, ['import-chats', 'conversations.json'])).code).toBe(0);
    expect(stored(dir).CV).toEqual([['My CV, attached.\n\ncv.txt:\nEngineer at Acme since 2019.', '2025-01-10T09:00:00.000Z']]);
  });

  it('a refused file creates no memory, and says what was expected', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'object.json'), JSON.stringify({ conversations: [] }));
    const object = await tempora(dir, ['import-chats', 'object.json']);
    expect(object.code).toBe(1);
    expect(object.err).toBe('tempora: object.json: expected a list of conversations ([ … ]), as ChatGPT and Claude export them, but the file holds an object ({ … })\n');
    // A Tempora memory export is named as one, and pointed to where it goes.
    const document = { format: 'tempora.memory', version: 4, exported_at: '2026-11-01T00:00:00.000Z', conversations: [], episodes: [], entities: [], facts: [], claims: [] };
    writeFileSync(join(dir, 'memory.json'), JSON.stringify(document, null, 2));
    const mixedUp = await tempora(dir, ['import-chats', 'memory.json']);
    expect(mixedUp.code).toBe(1);
    expect(mixedUp.err).toBe('tempora: memory.json is a Tempora memory export, not a ChatGPT or Claude chat history: import it as a memory (tempora import memory.json, or “Memory file” on the Export / Import screen)\n');
    mkdirSync(join(dir, 'export'));
    const folder = await tempora(dir, ['import-chats', 'export']);
    expect(folder.code).toBe(1);
    expect(folder.err).toBe('tempora: export: is a folder, not a file (expected the .zip your ChatGPT or Claude export gave you, or its conversations.json)\n');
    const broken = gptConversation({ id: 'x1', title: 'Broken', thread: [{ id: 'm1', role: 'user', text: 'hi' }] });
    (broken.mapping as Record<string, { message: unknown }>).m1!.message = { id: 'm1', author: {}, content: { content_type: 'text', parts: ['hi'] } };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify([broken]));
    const none = await tempora(dir, ['import-chats', 'broken.json']);
    expect(none.code).toBe(1);
    expect(none.err).toBe('tempora: broken.json: none of its conversations could be read, so nothing was imported:\n  conversation 1 ("Broken", id x1): message m1 has no author.role\n');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('says in words a file that is not an export, one cut short and a damaged zip; reads one with a byte-order mark', async () => {
    const dir = workdir();
    const expected = '(expected the .zip your ChatGPT or Claude export gave you, or its conversations.json)';
    writeFileSync(join(dir, 'photo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    writeFileSync(join(dir, 'notes.csv'), 'date,text\n2024-01-01,hello\n');
    writeFileSync(join(dir, 'blank.json'), '  \n\t\n');
    for (const [file, words] of [['photo.png', `not JSON, nor a zip ${expected}`], ['notes.csv', `not JSON, nor a zip ${expected}`], ['blank.json', `the file holds no text but spaces ${expected}`]]) {
      const refused = await tempora(dir, ['import-chats', file!]);
      expect(refused.code).toBe(1);
      expect(refused.err).toBe(`tempora: ${file}: ${words}\n`);
    }
    const whole = JSON.stringify(sampleClaudeExport());
    writeFileSync(join(dir, 'cut.json'), whole.slice(0, whole.lastIndexOf('chat_messages')));
    expect((await tempora(dir, ['import-chats', 'cut.json'])).err).toMatch(/^tempora: cut\.json: cannot read conversation \d+(, after .+)?: the file ends before its JSON does \(was it cut short\?\)/);
    const zip = join(dir, 'export.zip');
    writeZip(zip, { 'conversations.json': whole });
    const bytes = readFileSync(zip);
    const at = bytes.indexOf(Buffer.from('conversations.json')) + 'conversations.json'.length + 40;
    for (let i = at; i < at + 64; i++) bytes[i] = bytes[i]! ^ 0x5a; // the compressed entry's bytes damaged
    writeFileSync(zip, bytes);
    expect((await tempora(dir, ['import-chats', 'export.zip'])).err).toMatch(/^tempora: export\.zip: cannot read conversation 1: the zip's conversations\.json cannot be unpacked: the zip is damaged \(.+\)/);
    expect(existsSync(join(dir, 'data'))).toBe(false);

    writeFileSync(join(dir, 'marked.json'), `\uFEFF${whole}`);
    const read = await tempora(dir, ['import-chats', 'marked.json']);
    expect(read.err).toBe('');
    expect(read.code).toBe(0);
    expect(read.out).toMatch(/^Claude export: 1 conversation, 4 messages/);
  });
});
