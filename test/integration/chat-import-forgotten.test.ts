/**
 * Forgetting is not undone by importing again: a chat-history message that was forgotten (or whose
 * conversation was deleted) is skipped when the same export is imported again, and no empty
 * conversation is made for it; a conversation the user switched off learns nothing of what a newer
 * export adds to it. (Found in review.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatImportReport } from '../../shared/chat-import';
import { claudeConversation, sampleChatGptExport, writeZip } from '../fixtures/chat-exports';
import { withEngine } from '../fixtures/engine-calls';

const root = mkdtempSync(join(tmpdir(), 'tempora-chat-forgotten-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'UTC');
  vi.stubEnv('LANCEDB_LOG', 'error');
});
afterEach(() => vi.unstubAllEnvs());

describe('an imported history, forgotten', () => {
  it('stays forgotten when the same export is imported again', async () => {
    const zip = join(root, 'chatgpt.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleChatGptExport()) });
    await withEngine(join(root, 'a'), async (call, engine) => {
      await call('importChats', { file: { path: zip } });
      // (What the custom instructions say about the user is kept apart, in a conversation of its own.)
      const conversation = engine.memory.conversations.list().find((c) => c.title === 'Moving to Berlin');
      const messages = engine.memory.conversations.messages(conversation!.id);
      // One message forgotten, then the whole conversation deleted.
      engine.memory.messages.forget(messages[0]!.id);
      let again = (await call('importChats', { file: { path: zip } })) as ChatImportReport;
      expect(again.newMessages).toBe(0);
      expect(engine.memory.conversations.messages(conversation!.id)).toHaveLength(messages.length - 1);
      await call('deleteConversation', { id: conversation!.id, forget: true });
      again = (await call('importChats', { file: { path: zip } })) as ChatImportReport;
      expect(again).toMatchObject({ newMessages: 0, newConversations: 0 });
      expect(engine.memory.conversations.list().map((c) => c.title)).toEqual(['Your ChatGPT custom instructions']);
      const preview = (await call('previewChatImport', { file: { path: zip } })) as ChatImportReport;
      expect(preview).toMatchObject({ newMessages: 0, toLearn: 0 });
    });
  });

  it('a conversation switched off learns nothing of what a newer export adds to it', async () => {
    const first = claudeConversation({ id: 'c', name: 'Plans', messages: [{ id: 'm1', sender: 'human', text: 'I like tea.', time: '2024-01-01T10:00:00Z' }] });
    const later = claudeConversation({
      id: 'c',
      name: 'Plans',
      messages: [
        { id: 'm1', sender: 'human', text: 'I like tea.', time: '2024-01-01T10:00:00Z' },
        { id: 'm2', sender: 'human', text: 'Now I like coffee.', time: '2024-02-01T10:00:00Z' },
      ],
    });
    const file = (name: string, value: unknown) => {
      const path = join(root, name);
      writeFileSync(path, JSON.stringify(value));
      return path;
    };
    await withEngine(join(root, 'b'), async (call, engine) => {
      await call('importChats', { file: { path: file('first.json', [first]) } });
      const [conversation] = engine.memory.conversations.list();
      expect(engine.memory.jobs.counts().pending).toBe(1);
      await call('setConversationLearning', { id: conversation!.id, learn: false });
      expect(engine.memory.jobs.counts().pending).toBe(0);
      const report = (await call('importChats', { file: { path: file('later.json', [later]) } })) as ChatImportReport;
      expect(report.newMessages).toBe(1);
      expect(engine.memory.jobs.counts().pending).toBe(0);
    });
  });
});
