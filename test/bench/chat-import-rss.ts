/**
 * Peak memory of importing a large ChatGPT export: generates a conversations.json of the given
 * size (default 200 MB; realistic shapes: branches, hidden, system and tool messages, an image
 * part now and then), zips it unless --json, then imports it in a child process (a fresh store)
 * and prints that process's peak RSS and heap, the longest the event loop was blocked (what a chat
 * call would wait meanwhile), the time and what was stored.
 *
 *   npx tsx test/bench/chat-import-rss.ts [--mb 200] [--json] [--keep DIR]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gptConversation, type GptMessageSpec } from '../fixtures/chat-exports';
import { prng } from '../fixtures/prng';
import { peakResidentBytes } from './stats';

const WORDS = 'the a my we next week manager project Berlin Lisbon moved apartment coffee tea meeting friday doctor dentist school started finished likes works lives plan trip because however'.split(' ');

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return `${out.join(' ')}.`;
}

function conversation(i: number, rand: () => number): Record<string, unknown> {
  const start = 1_650_000_000 + i * 3_000;
  const thread: GptMessageSpec[] = [{ id: `s${i}`, role: 'system', text: '', hidden: true, time: null }];
  const turns = 6 + Math.floor(rand() * 10);
  for (let t = 0; t < turns; t++) {
    thread.push({ id: `u${i}-${t}`, role: 'user', text: sentence(rand, 20 + Math.floor(rand() * 60)), time: start + t * 60 });
    if (rand() < 0.15) {
      thread.push({ id: `c${i}-${t}`, role: 'assistant', text: 'search("x")', recipient: 'browser', contentType: 'code', time: start + t * 60 + 5 });
      thread.push({ id: `t${i}-${t}`, role: 'tool', text: sentence(rand, 80), time: start + t * 60 + 8 });
    }
    const parts = rand() < 0.05 ? [sentence(rand, 100), { content_type: 'image_asset_pointer', asset_pointer: 'file-service://x', size_bytes: 1000 }] : undefined;
    thread.push({ id: `a${i}-${t}`, role: 'assistant', text: sentence(rand, 60 + Math.floor(rand() * 200)), parts, time: start + t * 60 + 20 });
  }
  const branches = rand() < 0.3 ? [{ from: `u${i}-0`, messages: [{ id: `r${i}`, role: 'assistant' as const, text: sentence(rand, 100), time: start + 30 }] }] : [];
  return { ...gptConversation({ id: `conv-${i}`, title: `Conversation ${i}`, createTime: start, thread, branches }), ...(i % 97 === 0 ? { is_do_not_remember: true } : {}) };
}

async function generate(path: string, targetBytes: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  const rand = prng(42);
  let bytes = 1;
  let i = 0;
  await write('[');
  while (bytes < targetBytes) {
    const text = `${i ? ',' : ''}${JSON.stringify(conversation(i++, rand))}`;
    bytes += Buffer.byteLength(text);
    await write(text);
  }
  await write(']');
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return i;
}

async function child(path: string, dataDir: string): Promise<void> {
  const { openMemory } = await import('../../electron/memory/index');
  const { importChatExport } = await import('../../electron/engine/chat-import');
  const memory = openMemory({ dataDir });
  // The longest the event loop was blocked: how long a chat call could wait during the import.
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  let peakHeap = 0;
  const sample = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 100);
  // The longest single write (one batch of conversations in one transaction).
  const write = memory.history.importConversations.bind(memory.history);
  let longestWrite = 0;
  memory.history.importConversations = (inputs) => {
    const begun = performance.now();
    try {
      return write(inputs);
    } finally {
      longestWrite = Math.max(longestWrite, performance.now() - begun);
    }
  };
  const started = performance.now();
  const report = await importChatExport(memory, path, { timeZone: 'UTC' });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  stalls.disable();
  memory.close();
  const peakRssMb = peakResidentBytes() / 2 ** 20;
  console.log(JSON.stringify({ seconds: Math.round(seconds * 10) / 10, peakRssMb: Math.round(peakRssMb), peakHeapMb: Math.round(peakHeap / 2 ** 20), longestStallMs: Math.round(stalls.max / 1e6), longestWriteMs: Math.round(longestWrite), p99StallMs: Math.round(stalls.percentile(99) / 1e6), conversations: report.conversations, messages: report.messages, toLearn: report.toLearn, skipped: report.skipped, doNotRemember: report.doNotRemember }));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' }, json: { type: 'boolean' }, keep: { type: 'string' }, child: { type: 'string' }, data: { type: 'string' } } });
  if (values.child) return child(values.child, values.data!);
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'tempora-rss-'));
  try {
    const json = join(dir, 'conversations.json');
    const conversations = await generate(json, Number(values.mb) * 1e6);
    let file = json;
    if (!values.json) {
      const zip = join(dir, 'chatgpt-export.zip');
      const made = spawnSync('zip', ['-q', '-j', zip, json]);
      if (made.status === 0) file = zip;
      else console.error('(no zip command: importing the .json)');
    }
    console.error(`generated ${conversations} conversations, ${Math.round(statSync(json).size / 1e6)} MB of JSON${file !== json ? `, ${Math.round(statSync(file).size / 1e6)} MB zipped` : ''}`);
    const self = fileURLToPath(import.meta.url);
    const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', file, '--data', join(dir, 'data')], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0) process.exitCode = 1;
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
