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
    expect(first.out).toContain('Imported 5 new messages (1 new conversation); 0 already imported.');
    expect(first.out).toContain('3 of your messages joined the learning queue');
    expect(first.out).toContain('Skipped: 1 do-not-remember conversation; 1 on a regenerated or edited branch');
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

  it('names the conversation and message of a malformed export', async () => {
    const dir = workdir();
    const broken = gptConversation({ id: 'x1', title: 'Broken', thread: [{ id: 'm1', role: 'user', text: 'hi' }] });
    (broken.mapping as Record<string, { message: unknown }>).m1!.message = { id: 'm1', author: {}, content: { content_type: 'text', parts: ['hi'] } };
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify([broken]));
    const result = await tempora(dir, ['import-chats', 'conversations.json']);
    expect(result.code).not.toBe(0);
    expect(result.err).toContain('conversations.json: conversation 1 ("Broken", id x1), message m1: message.author.role');
    expect(result.err).toContain('nothing of it was stored');
  });

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
    expect(refused.err).toBe('tempora: clash.json: conversation 1 ("大阪", id cv2), messages 1 and 2 have the same id (u2) but differ: the export is damaged (nothing of it was stored)\n');
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
    mkdirSync(join(dir, 'export'));
    const folder = await tempora(dir, ['import-chats', 'export']);
    expect(folder.code).toBe(1);
    expect(folder.err).toBe('tempora: export: is a folder, not a file (expected the .zip your ChatGPT or Claude export gave you, or its conversations.json)\n');
    const broken = gptConversation({ id: 'x1', title: 'Broken', thread: [{ id: 'm1', role: 'user', text: 'hi' }] });
    (broken.mapping as Record<string, { message: unknown }>).m1!.message = { id: 'm1', author: {}, content: { content_type: 'text', parts: ['hi'] } };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify([broken]));
    expect((await tempora(dir, ['import-chats', 'broken.json'])).code).toBe(1);
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
