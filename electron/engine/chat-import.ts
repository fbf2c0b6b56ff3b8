/**
 * Importing a ChatGPT or Claude history: the export is streamed conversation by conversation
 * (assistant/history/export-reader.ts), each batch of conversations stored with its provenance in
 * one transaction (Memory.importHistoryConversations), and the new messages join the backfill lane
 * of the learning queue with their own dates. The preview reads the same way and stores nothing.
 * A malformed conversation stops the import there: nothing of it is stored, the error names it and
 * the message, and says how many conversations before it were.
 */
import type { ChatImportReport } from '../../shared/chat-import';
import { ChatExportError, conversationLabel, readChatExport, SKIP_REASONS, type ParsedConversation, type SkipReason } from '../assistant/index';
import { MemoryInputError, type HistoryImportResult, type HistorySource, type Memory } from '../memory/index';

export interface ChatImportOptions {
  format?: HistorySource;
  /** How errors name the file. */
  label?: string;
  /** The zone the messages' dates are read in (the user's). */
  timeZone?: string;
  /** Called every few hundred conversations, and at the end. */
  onProgress?: (progress: { conversations: number; messages: number }) => void;
}

/** Conversations stored per transaction (and at most about this many messages): short writes, so chat stays responsive meanwhile. */
const BATCH_CONVERSATIONS = 50;
const BATCH_MESSAGES = 250;

export function previewChatImport(memory: Memory, path: string, options: ChatImportOptions = {}): Promise<ChatImportReport> {
  return readExport(memory, path, options, false);
}

export function importChatExport(memory: Memory, path: string, options: ChatImportOptions = {}): Promise<ChatImportReport> {
  return readExport(memory, path, options, true);
}

async function readExport(memory: Memory, path: string, options: ChatImportOptions, store: boolean): Promise<ChatImportReport> {
  const report: ChatImportReport = {
    stored: store,
    format: options.format ?? null,
    conversations: 0,
    newConversations: 0,
    messages: 0,
    newMessages: 0,
    alreadyImported: 0,
    toLearn: 0,
    from: null,
    to: null,
    doNotRemember: 0,
    skipped: [],
    nonTextParts: 0,
    timesFromConversation: 0,
  };
  const skipped: Partial<Record<SkipReason | 'no_messages', number>> = {};
  let batch: { item: ParsedConversation; where: string }[] = [];
  let batchMessages = 0;
  let storedConversations = 0;

  const count = (item: ParsedConversation, result: Pick<HistoryImportResult, 'newConversation' | 'known' | 'queued'>) => {
    report.conversations++;
    if (result.newConversation) report.newConversations++;
    report.messages += item.conversation.messages.length;
    report.alreadyImported += result.known;
    report.newMessages += item.conversation.messages.length - result.known;
    report.toLearn += result.queued;
  };
  const storeOne = (entry: (typeof batch)[number]) => {
    try {
      count(entry.item, memory.importHistoryConversations([entry.item.conversation])[0]!);
      storedConversations++;
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
      throw new ChatExportError(`${options.label ?? path}: ${entry.where}, ${error.message} (nothing of it was stored${stopped(storedConversations)})`, entry.where, null);
    }
  };
  const flush = () => {
    if (!batch.length) return;
    const entries = batch;
    batch = [];
    batchMessages = 0;
    let results: HistoryImportResult[];
    try {
      results = memory.importHistoryConversations(entries.map((e) => e.item.conversation));
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
      // One of them is bad: store them one by one, up to it.
      for (const entry of entries) storeOne(entry);
      return;
    }
    results.forEach((result, i) => count(entries[i]!.item, result));
    storedConversations += entries.length;
  };

  let seen = 0;
  try {
    for await (const item of readChatExport(path, { format: options.format, label: options.label })) {
      report.format = item.format;
      if (++seen % 200 === 0) options.onProgress?.({ conversations: seen, messages: report.messages + batchMessages });
      if (item.kind === 'do_not_remember') {
        report.doNotRemember++;
        continue;
      }
      for (const [reason, n] of Object.entries(item.skipped) as [SkipReason, number][]) skipped[reason] = (skipped[reason] ?? 0) + n;
      report.nonTextParts += item.nonTextParts;
      report.timesFromConversation += item.timesFromConversation;
      const messages = item.conversation.messages;
      if (messages.length === 0) {
        skipped.no_messages = (skipped.no_messages ?? 0) + 1;
        continue;
      }
      for (const m of messages) {
        if (report.from === null || m.time < report.from) report.from = m.time;
        if (report.to === null || m.time > report.to) report.to = m.time;
      }
      if (!store) {
        const known = memory.knownHistoryMessages(item.conversation.source, messages.map((m) => m.sourceId));
        const queued = messages.filter((m) => m.learn && !known.has(m.sourceId)).length;
        count(item, { newConversation: known.size === 0, known: known.size, queued });
        if (seen % BATCH_CONVERSATIONS === 0) await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      batch.push({ item: { ...item, conversation: { ...item.conversation, timeZone: options.timeZone } }, where: conversationLabel(item.index, item.conversation.title, item.conversation.sourceId) });
      batchMessages += messages.length;
      if (batch.length >= BATCH_CONVERSATIONS || batchMessages >= BATCH_MESSAGES) {
        flush();
        // Let the chat and every other call in between writes (a stream's buffered chunks resolve as
        // microtasks, which would otherwise keep the event loop to the import).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    // What was read before the bad conversation is stored; nothing of that one.
    if (store && error instanceof ChatExportError) {
      flush();
      throw new ChatExportError(`${error.message} (nothing of it was stored${stopped(storedConversations)})`, error.conversation, error.messageId);
    }
    throw error;
  }
  if (store) flush();
  report.skipped = Object.entries(skipped).map(([reason, n]) => ({ reason, why: reason === 'no_messages' ? 'conversations with nothing left to import' : SKIP_REASONS[reason as SkipReason], count: n }));
  options.onProgress?.({ conversations: seen, messages: report.messages });
  return report;
}

function stopped(before: number): string {
  return before ? `; the ${before} conversation${before === 1 ? '' : 's'} before it ${before === 1 ? 'was' : 'were'} imported` : '';
}
