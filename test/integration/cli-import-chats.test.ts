import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { steppingClock } from '../../electron/memory/index';
import { gptConversation, sampleChatGptExport, sampleClaudeExport, writeZip } from '../fixtures/chat-exports';
import { runTempora } from './cli-helpers';

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
    clock: steppingClock('2026-11-01T00:00:00Z'),
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
    expect(first.out).toContain('1 message had no time of its own');
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
});

describe('tempora queue', () => {
  it('shows the backfill, pauses it (kept), resumes and cancels it', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
    expect((await tempora(dir, ['import-chats', 'conversations.json'])).code).toBe(0);
    const clock = steppingClock('2026-11-01T00:00:00Z');
    expect(runTempora(dir, clock, ['queue']).out).toContain('Imported chats: 0 of 3 learned, 3 left.');
    expect(runTempora(dir, clock, ['queue', 'pause']).out).toContain('(paused: tempora queue resume)');
    expect(JSON.parse(runTempora(dir, clock, ['queue', '--json']).out)).toMatchObject({ paused: true, pending: 3 });
    expect(runTempora(dir, clock, ['queue', 'resume']).out).not.toContain('paused');
    const cancelled = runTempora(dir, clock, ['queue', 'cancel']);
    expect(cancelled.out).toContain('Cancelled the learning of 3 imported messages (they stay stored).');
    expect(runTempora(dir, clock, ['queue', 'later']).err).toContain('queue: unknown action "later"');
  });
});
