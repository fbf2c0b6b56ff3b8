/**
 * `tempora import-chats` as a spawned process (`node --import tsx electron/cli/main.ts`, as
 * cli-process.test.ts runs it), for what only a process shows: Ctrl-C (a real SIGINT) stops the
 * import with a word on what was stored and how to finish, and a message far over the cap (built
 * here, never committed) is cut at 1 MB while the process's memory stays bounded (its peak RSS,
 * read as it exits, compared with the same command on a message exactly at the cap: storing and
 * indexing 1 MB has its own cost, the same either way).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaCommand, type Exit } from './cli-helpers';
import { openMemory } from '../../electron/memory/index';
import { IMPORTED_MESSAGE_MAX_BYTES } from '../../shared/chat-import';
import { gptConversation, writeZip } from '../fixtures/chat-exports';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

const dir = mkdtempSync(join(tmpdir(), 'tempora-import-process-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL'); // a test that timed out leaves none behind
  rmSync(dir, { recursive: true, force: true });
});

// Writes the process's peak resident memory (KiB) to $RSS_FILE as it exits.
const rssProbe = join(dir, 'rss-probe.mjs');
writeFileSync(rssProbe, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n");

/** Runs tempora; `onStderr` sees stderr as it comes and may signal the process. */
function tempora(args: string[], options: { env?: NodeJS.ProcessEnv; onStderr?: (text: string, signal: (s: NodeJS.Signals) => void) => void } = {}): Promise<Exit> {
  return temporaCommand(args, {
    node: ['--import', rssProbe],
    // TEMPORA_PROGRESS=1: the piped stderr stands in for a terminal, so the progress line is written.
    env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error', TEMPORA_PROGRESS: '1', RSS_FILE: join(dir, 'rss'), ...options.env },
    started: (child) => {
      running.add(child);
      child.on('close', () => running.delete(child));
      let stderr = '';
      child.stderr?.on('data', (t: string) => {
        stderr += t;
        options.onStderr?.(stderr, (s) => child.kill(s));
      });
    },
  });
}

const T = 1_750_000_000;

describe('tempora import-chats, the process', () => {
  it('Ctrl-C stops it and says what was stored; the same command again imports the rest', async () => {
    const conversations = Array.from({ length: 1500 }, (_, i) =>
      gptConversation({ id: `c${i}`, title: `Chat ${i}`, createTime: T + i * 60, thread: [{ id: `c${i}-u`, role: 'user', text: `Message ${i}.`, time: T + i * 60 + 1 }] }),
    );
    const file = join(dir, 'many.json');
    writeFileSync(file, JSON.stringify(conversations));
    const data = join(dir, 'data-interrupted');
    let sent = false;
    const stopped = await tempora(['import-chats', file, '--data', data], {
      onStderr: (text, signal) => {
        if (!sent && text.includes('reading: 200 conversations')) {
          sent = true;
          signal('SIGINT');
        }
      },
    });
    expect(stopped.code).toBe(130);
    const said = /tempora: interrupted: ([\d,]+) new messages of ([\d,]+) conversations stored; run the same command again to import the rest \(nothing is imported twice\)\.\n$/.exec(stopped.stderr);
    expect(said, stopped.stderr).not.toBeNull();
    // The progress line was closed before the sentence.
    expect(stopped.stderr).toContain('\r\x1b[Ktempora: interrupted');
    const storedFirst = Number(said![1]!.replace(/,/g, ''));
    expect(storedFirst).toBeGreaterThanOrEqual(200);
    expect(storedFirst).toBeLessThan(1500);
    expect(stopped.stdout).toContain(`Imported ${said![1]} new messages`);

    const rest = await tempora(['import-chats', file, '--data', data, '--json']);
    expect(rest.code).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ conversations: 1500, alreadyImported: storedFirst, newMessages: 1500 - storedFirst });
  });

  it('Ctrl-C while it learns (--model) stops after the message in hand and says what waits', async () => {
    const model = join(dir, 'tiny.gguf');
    await writeTinyGguf(model);
    const conversations = Array.from({ length: 30 }, (_, i) =>
      gptConversation({ id: `l${i}`, title: `Chat ${i}`, createTime: T + i * 60, thread: [{ id: `l${i}-u`, role: 'user', text: `I visited town ${i} today.`, time: T + i * 60 + 1 }] }),
    );
    const file = join(dir, 'learn.json');
    writeFileSync(file, JSON.stringify(conversations));
    const data = join(dir, 'data-learning');
    let sent = false;
    const stopped = await tempora(['import-chats', file, '--data', data, '--model', model], {
      env: { TEMPORA_THREADS: '1' },
      onStderr: (text, signal) => {
        if (!sent && /Imported chats: [1-9]\d* of 30 learned/.test(text)) {
          sent = true;
          signal('SIGINT');
        }
      },
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    // eslint-disable-next-line no-control-regex -- the progress line is closed (\r, erase) before the sentence
    const said = /\r\x1b\[Ktempora: interrupted: learning stopped after the message in hand: ([\d,]+) of 30 imported messages learned; the other ([\d,]+) wait in the queue and are learned the next time Tempora runs with a model\.\n$/.exec(stopped.stderr);
    expect(said, stopped.stderr).not.toBeNull();
    const learned = Number(said![1]);
    expect(learned + Number(said![2])).toBe(30);
    expect(learned).toBeLessThan(30);
    const memory = openMemory({ dataDir: data });
    try {
      expect(memory.history.backfillStatus()).toMatchObject({ total: 30, done: learned, running: 0 });
    } finally {
      memory.close();
    }
  }, 120_000);

  it('cuts a 66 MB message at 1 MB, on a character boundary, in bounded memory', async () => {
    const exportOf = (name: string, text: string) => {
      const path = join(dir, name);
      writeZip(path, { 'conversations.json': Buffer.from(JSON.stringify([gptConversation({ id: name, title: 'Big', thread: [{ id: `${name}-u`, role: 'user', text }] })]), 'utf8') });
      return path;
    };
    const kept = '日'.repeat(Math.floor(IMPORTED_MESSAGE_MAX_BYTES / 3)); // 349,525 characters, 1 byte short of 1 MiB
    const atCap = await tempora(['import-chats', exportOf('at-cap.zip', kept), '--data', join(dir, 'data-at-cap')]);
    expect(atCap.code).toBe(0);
    expect(atCap.stdout).not.toContain('Cut short');
    const baselineKiB = Number(readFileSync(join(dir, 'rss'), 'utf8'));

    // 22 million '日' (3 bytes each): a 66 MB message, deflated to a zip of some 64 KB.
    const big = exportOf('big.zip', '日'.repeat(22_000_000));
    const data = join(dir, 'data-big');
    const result = await tempora(['import-chats', big, '--data', data]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Cut short: 1 message over 1 MB, the most a message keeps (the rest of it left out).');
    const peakKiB = Number(readFileSync(join(dir, 'rss'), 'utf8'));
    // The 66 MB text is never held whole (as one string it alone would be 44 MB, stored 66 MB more).
    expect((peakKiB - baselineKiB) / 1024).toBeLessThan(40);

    const memory = openMemory({ dataDir: data });
    try {
      const [conversation] = memory.conversations.list();
      const [message] = memory.conversations.messages(conversation!.id);
      expect(message!.content).toBe(kept);
    } finally {
      memory.close();
    }
  });
});
