import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatImportReport } from '../../shared/chat-import';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { importChatExport } from '../../electron/engine/chat-import';
import { databaseOf } from '../../electron/memory/memory';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { claudeConversation, gptConversation, sampleChatGptExport, sampleClaudeExport, writeZip } from '../fixtures/chat-exports';
import { scriptedModel } from '../fixtures/scripted-model';
import { withEngine } from '../fixtures/engine-calls';

const root = mkdtempSync(join(tmpdir(), 'tempora-chat-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'UTC');
  vi.stubEnv('LANCEDB_LOG', 'error');
});
afterEach(() => vi.unstubAllEnvs());
let n = 0;
const fresh = () => join(root, `d${n++}`);

function writeJson(value: unknown): string {
  const path = join(root, `export-${n++}.json`);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

function provenance(memory: Memory) {
  return databaseOf(memory)
    .prepare('SELECT e.role, e.content, e.reference_time, e.source, e.source_conversation_id, e.source_message_id, c.title, c.source AS conversation_source FROM episodes e JOIN conversations c ON c.id = e.conversation_id ORDER BY e.source_conversation_id, e.reference_time, e.rowid')
    .all() as Record<string, string>[];
}

describe('importing chat histories through the API', () => {
  it('previews, imports with threads, dates and provenance, and a re-import adds nothing', async () => {
    const dir = fresh();
    const zip = join(root, 'chatgpt.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleChatGptExport()) });
    await withEngine(dir, async (call, engine) => {
      const preview = (await call('previewChatImport', { file: { path: zip } })) as ChatImportReport;
      expect(preview).toMatchObject({ stored: false, format: 'chatgpt', conversations: 1, newConversations: 1, messages: 5, newMessages: 5, toLearn: 3, doNotRemember: 1, nonTextParts: 1, timesFromConversation: 1, profiles: 1 });
      expect(preview.from).toBe('2024-05-29T16:26:40.000Z');
      expect(preview.to).toBe('2024-06-28T16:26:40.000Z');
      expect(Object.fromEntries(preview.skipped.map((s) => [s.reason, s.count]))).toEqual({ off_thread: 1, system: 1, hidden: 1, not_to_user: 1, tool: 1 });
      expect(engine.memory.conversations.list()).toEqual([]); // the preview stored nothing

      const report = (await call('importChats', { file: { path: zip } })) as ChatImportReport;
      expect(report).toMatchObject({ ...preview, stored: true });
      const claude = (await call('importChats', { file: { path: writeJson(sampleClaudeExport()) } })) as ChatImportReport;
      expect(claude).toMatchObject({ format: 'claude', conversations: 1, messages: 4, toLearn: 3 });

      const rows = provenance(engine.memory);
      // The custom instructions: what they say about the user, once, in a conversation of their own.
      expect(rows.map((r) => [r.source, r.source_conversation_id, r.source_message_id, r.role, r.reference_time])).toEqual([
        ['chatgpt', 'chatgpt-custom-instructions', expect.stringMatching(/^about-you-/), 'user', '2024-05-29T16:26:40.000Z'],
        ['claude', 'cl-c1', 'cl-u1', 'user', '2024-06-01T08:00:05.000Z'],
        ['claude', 'cl-c1', 'cl-a1', 'assistant', '2024-06-01T08:00:09.000Z'],
        ['claude', 'cl-c1', 'cl-u2', 'user', '2024-07-01T08:00:00.000Z'],
        ['claude', 'cl-c1', 'cl-u3', 'user', '2024-07-01T08:00:00.000Z'],
        ['chatgpt', 'gpt-c1', 'g-u1', 'user', '2024-05-29T16:27:40.000Z'],
        ['chatgpt', 'gpt-c1', 'g-a1', 'assistant', '2024-05-29T16:27:50.000Z'],
        ['chatgpt', 'gpt-c1', 'g-u2', 'user', '2024-06-28T16:26:40.000Z'],
        ['chatgpt', 'gpt-c1', 'g-a2', 'assistant', '2024-06-28T16:26:40.000Z'],
      ]);
      expect(rows[0]!.content).toBe('I am a designer.');
      expect(new Set(rows.map((r) => `${r.conversation_source}:${r.title}`))).toEqual(new Set(['claude:Work notes', 'chatgpt:Moving to Berlin', 'chatgpt:Your ChatGPT custom instructions']));
      expect(rows.some((r) => /regenerated|Secret|surprise|results…|You are ChatGPT/.test(r.content!))).toBe(false);
      const jobs = engine.memory.jobs.counts();
      expect(jobs.pending).toBe(6);

      const again = (await call('importChats', { file: { path: zip } })) as ChatImportReport;
      expect(again).toMatchObject({ conversations: 1, newConversations: 0, newMessages: 0, alreadyImported: 5, toLearn: 0 });
      expect(provenance(engine.memory)).toHaveLength(9);
      expect(engine.memory.jobs.counts().pending).toBe(6);
    });
  });

  it('a newer export adds only its new messages, to the same conversation', async () => {
    const dir = fresh();
    const first = claudeConversation({ id: 'c', name: 'Plans', messages: [{ id: 'm1', sender: 'human', text: 'I like tea.', time: '2024-01-01T10:00:00Z' }] });
    const later = claudeConversation({
      id: 'c',
      name: 'Plans (renamed)',
      messages: [
        { id: 'm1', sender: 'human', text: 'I like tea.', time: '2024-01-01T10:00:00Z' },
        { id: 'm2', sender: 'human', text: 'Now I like coffee.', time: '2024-02-01T10:00:00Z' },
      ],
    });
    await withEngine(dir, async (call, engine) => {
      await call('importChats', { file: { path: writeJson([first]) } });
      const report = (await call('importChats', { file: { path: writeJson([later]) } })) as ChatImportReport;
      expect(report).toMatchObject({ newConversations: 0, newMessages: 1, alreadyImported: 1, toLearn: 1 });
      const [conversation] = engine.memory.conversations.list();
      expect(conversation).toMatchObject({ title: 'Plans', message_count: 2 });
    });
  });

  it('a malformed conversation is skipped whole and the import goes on; the preview lists it the same way', async () => {
    const dir = fresh();
    const good = gptConversation({ id: 'ok', title: 'Fine', thread: [{ id: 'm1', role: 'user', text: 'hello' }] });
    const bad = gptConversation({ id: 'bad', title: 'Broken', thread: [{ id: 'm2', role: 'user', text: 'first' }, { id: 'm3', role: 'user', text: 'second' }] });
    (bad.mapping as Record<string, { message: { create_time: unknown } }>).m3!.message.create_time = 'yesterday';
    const later = gptConversation({ id: 'later', title: 'Later', thread: [{ id: 'm4', role: 'user', text: 'after the broken one' }] });
    const path = writeJson([good, bad, later]);
    const malformed = { count: 1, first: [{ index: 2, title: 'Broken', id: 'bad', label: 'conversation 2 ("Broken", id bad)', fault: 'message m3: create_time "yesterday" is not a time in seconds since 1970' }] };
    await withEngine(dir, async (call, engine) => {
      const preview = (await call('previewChatImport', { file: { path } })) as ChatImportReport;
      expect(preview).toMatchObject({ conversations: 2, newMessages: 2, malformed });
      const report = (await call('importChats', { file: { path } })) as ChatImportReport;
      expect(report).toMatchObject({ stored: true, conversations: 2, newMessages: 2, malformed });
      expect(provenance(engine.memory).map((r) => r.source_message_id)).toEqual(['m4', 'm1']); // by conversation id: later, ok
    });
  });

  it('lists the first 20 malformed conversations and counts them all', async () => {
    const dir = fresh();
    const broken = Array.from({ length: 25 }, (_, i) => claudeConversation({ id: `b${i}`, name: `Bad ${i}`, messages: [{ id: 'u', sender: 'human', text: 'hi', time: '2025-02-30T10:00:00Z' }] }));
    const fine = claudeConversation({ id: 'fine', name: 'Fine', messages: [{ id: 'u', sender: 'human', text: 'I like tea.', time: '2025-01-01T10:00:00Z' }] });
    await withEngine(dir, async (call, engine) => {
      const report = (await call('importChats', { file: { path: writeJson([...broken, fine]) } })) as ChatImportReport;
      expect(report.malformed.count).toBe(25);
      expect(report.malformed.first).toHaveLength(20);
      expect(report.malformed.first[19]).toMatchObject({ index: 20, label: 'conversation 20 ("Bad 19", id b19)', fault: 'message u: created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days' });
      expect(report).toMatchObject({ conversations: 1, newMessages: 1 });
      expect(engine.memory.conversations.list().map((c) => c.title)).toEqual(['Fine']);
    });
  });

  it('the provenance travels through export and import: a re-import into the new store adds nothing', async () => {
    const path = writeJson(sampleChatGptExport());
    const source = openMemory({ dataDir: ':memory:' });
    await importChatExport(source, path);
    const doc = source.transfer.export();
    source.close();
    expect(doc.conversations.find((c) => c.title === 'Moving to Berlin')?.source).toEqual({ kind: 'chatgpt', id: 'gpt-c1' });
    expect(doc.episodes.find((e) => e.content === 'I live in Lisbon.')?.source).toEqual({ kind: 'chatgpt', conversation_id: 'gpt-c1', message_id: 'g-u1' });
    const target = openMemory({ dataDir: ':memory:' });
    target.transfer.import(JSON.parse(JSON.stringify(doc)));
    expect(provenance(target).map((r) => r.source_message_id).sort()).toEqual([expect.stringMatching(/^about-you-/), 'g-a1', 'g-a2', 'g-u1', 'g-u2']);
    expect(target.transfer.export().episodes.filter((e) => e.source)).toHaveLength(5);
    expect(await importChatExport(target, path)).toMatchObject({ newMessages: 0, alreadyImported: 5, newConversations: 0 });
    target.close();
  });

  it('uploads in chunks for a page without paths, then imports the upload', async () => {
    const dir = fresh();
    const bytes = Buffer.from(JSON.stringify(sampleClaudeExport()));
    await withEngine(dir, async (call) => {
      const half = Math.floor(bytes.length / 2);
      const a = (await call('uploadChatExport', { uploadId: null, offset: 0, data: bytes.subarray(0, half).toString('base64') })) as { uploadId: string; bytes: number };
      await expect(call('uploadChatExport', { uploadId: a.uploadId, offset: 3, data: 'AAAA' })).rejects.toMatchObject({ field: 'offset' });
      const b = (await call('uploadChatExport', { uploadId: a.uploadId, offset: half, data: bytes.subarray(half).toString('base64') })) as { bytes: number };
      expect(b.bytes).toBe(bytes.length);
      const report = (await call('importChats', { file: { uploadId: a.uploadId } })) as ChatImportReport;
      expect(report).toMatchObject({ format: 'claude', newMessages: 4 });
      await expect(call('importChats', { file: { uploadId: a.uploadId } })).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});

describe('learning imported messages', () => {
  const script = {
    extract: {
      'My manager is Alice.': [{ subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'Alice', fact: 'My manager is Alice.', cardinality: 'one' as const }],
      'My manager is Bob now.': [{ subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'Bob', fact: 'My manager is Bob.', cardinality: 'one' as const }],
      'I live in Osaka.': [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: 'Osaka', object_type: 'place' as const, fact: 'I live in Osaka.', cardinality: 'one' as const }],
    },
  };
  // As ChatGPT writes them: newest conversation first.
  const history = [
    gptConversation({ id: 'later', title: 'Later', thread: [{ id: 'b1', role: 'user', text: 'My manager is Bob now.', time: Date.parse('2024-07-01T09:00:00Z') / 1000 }] }),
    gptConversation({ id: 'earlier', title: 'Earlier', thread: [{ id: 'a1', role: 'user', text: 'My manager is Alice.', time: Date.parse('2024-03-01T09:00:00Z') / 1000 }] }),
  ];

  it('learns live chat first, then the history in its own order: the later message closes the earlier fact', async () => {
    const memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
    await importChatExport(memory, writeJson(history));
    memory.messages.append({ role: 'user', content: 'I live in Osaka.', time: '2026-11-01T00:00:00Z', conversation: 'live' });
    const model = scriptedModel(script);
    const worker = new IngestionWorker(memory, { model: () => model });
    worker.start();
    await worker.whenIdle();
    await worker.stop();
    expect(model.calls.filter((c) => c.kind === 'extract').map((c) => ['I live in Osaka.', 'My manager is Alice.', 'My manager is Bob now.'].find((t) => c.prompt.includes(t)))).toEqual([
      'I live in Osaka.',
      'My manager is Alice.',
      'My manager is Bob now.',
    ]);
    const managers = memory.facts.list({ history: true, predicate: 'manager' }).filter((f) => f.expired_at === null);
    expect(managers.map((f) => [f.object, f.valid_at, f.invalid_at]).sort()).toEqual([
      ['Alice', '2024-03-01T09:00:00.000Z', '2024-07-01T09:00:00.000Z'],
      ['Bob', '2024-07-01T09:00:00.000Z', null],
    ]);
    expect(memory.history.backfillStatus()).toMatchObject({ total: 2, done: 2, pending: 0 });
    memory.close();
  });

  it('pause survives closing and reopening the engine; resume learns the rest', async () => {
    const dir = fresh();
    await withEngine(dir, async (call) => {
      await call('importChats', { file: { path: writeJson(history) } });
      expect(await call('setBackfillPaused', { paused: true })).toMatchObject({ paused: true, pending: 2, total: 2 });
    });
    await withEngine(dir, async (call) => {
      expect(await call('backfillStatus')).toMatchObject({ paused: true, pending: 2 });
    });
    const memory = openMemory({ dataDir: dir });
    const model = scriptedModel(script);
    const worker = new IngestionWorker(memory, { model: () => model });
    memory.messages.append({ role: 'user', content: 'I live in Osaka.', time: '2026-11-01T00:00:00Z', conversation: 'live' });
    worker.start();
    await worker.whenIdle();
    // Paused: live chat is learned, the history waits.
    expect(model.calls.map((c) => c.prompt.includes('I live in Osaka.'))).toEqual([true]);
    expect(memory.history.backfillStatus()).toMatchObject({ paused: true, pending: 2, done: 0 });
    memory.history.setBackfillPaused(false);
    worker.notify();
    await worker.whenIdle();
    await worker.stop();
    expect(memory.history.backfillStatus()).toMatchObject({ paused: false, pending: 0, done: 2 });
    expect(memory.facts.list({ predicate: 'manager' }).map((f) => f.object)).toEqual(['Bob']);
    memory.close();
  });

  it('cancel sets aside what is left to learn and keeps the messages; requeue takes it back', async () => {
    const dir = fresh();
    await withEngine(dir, async (call, engine) => {
      await call('importChats', { file: { path: writeJson(history) } });
      expect(await call('cancelBackfill')).toMatchObject({ cancelled: 2, status: { pending: 0, total: 0, cancelled: 2 } });
      expect(engine.memory.conversations.list()).toHaveLength(2);
      expect(engine.memory.jobs.counts().pending).toBe(0);
      expect(await call('requeueBackfill')).toMatchObject({ requeued: 2, status: { pending: 2, total: 2, cancelled: 0 } });
    });
  });
});
