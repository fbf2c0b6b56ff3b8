/**
 * Importing a ChatGPT or Claude history: the export is streamed conversation by conversation
 * (assistant/history/export-reader.ts), each batch of conversations stored with its provenance in
 * one transaction (Memory.importHistoryConversations), and the new messages join the backfill lane
 * of the learning queue with their own dates. The preview reads the same way and stores nothing.
 * A malformed conversation (a fault of its own: a message without an author, no time anywhere) is
 * skipped whole and the rest are read on: the report counts them and lists the first
 * MALFORMED_LISTED, each named with its fault in words. A fault of the file itself (not JSON, cut
 * short) stops the import there, storing what was read before it. Stopped by its signal (Ctrl-C), the
 * import stores what it has read and throws ChatImportInterrupted with the report so far.
 * ChatGPT's custom instructions ride in every conversation: what they say about the user is stored
 * once per distinct text, dated when it first appears, in one conversation of their own.
 */
import { createHash } from 'node:crypto';
import { MALFORMED_LISTED, type ChatImportReport } from '../../shared/chat-import';
import { ChatExportError, conversationLabel, readChatExport, SKIP_REASONS, type ParsedConversation, type SkipReason } from '../assistant/index';
import { MemoryInputError, type HistoryConversationInput, type HistoryImportResult, type HistorySource, type Memory } from '../memory/index';
import type { IsoTime } from '../../shared/time';

export interface ChatImportOptions {
  format?: HistorySource;
  /** How errors name the file. */
  label?: string;
  /** The zone the messages' dates are read in (the user's). */
  timeZone?: string;
  /** Called every few hundred conversations, and at the end. */
  onProgress?: (progress: { conversations: number; messages: number }) => void;
  /** Aborted: stop after the conversation being read, store what was read, throw ChatImportInterrupted. */
  signal?: AbortSignal;
}

/** The import was stopped by its signal: `report` says what was stored before it stopped. */
export class ChatImportInterrupted extends Error {
  constructor(readonly report: ChatImportReport) {
    super('the import was interrupted');
    this.name = 'ChatImportInterrupted';
  }
}

/** The conversation the custom instructions are stored in (one per export source: ChatGPT's). */
const PROFILE_CONVERSATION = { sourceId: 'chatgpt-custom-instructions', title: 'Your ChatGPT custom instructions' };

/** Conversations stored per transaction (and at most about this many messages): short writes, so chat stays responsive meanwhile. */
const BATCH_CONVERSATIONS = 50;
const BATCH_MESSAGES = 250;
/** …and at most about this many characters of text (a batch of long messages is not held at once). */
const BATCH_CHARS = 16 * 1024 * 1024;

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
    malformed: { count: 0, first: [] },
    profiles: 0,
  };
  /** A conversation skipped whole for a fault of its own (index 0-based). */
  const malformed = (index: number, title: string | null, id: string | null, fault: string) => {
    if (report.malformed.count++ < MALFORMED_LISTED) report.malformed.first.push({ index: index + 1, title, id, label: conversationLabel(index, title, id), fault });
  };
  const skipped: Partial<Record<SkipReason | 'no_messages' | 'too_large', number>> = {};
  let batch: { item: ParsedConversation; index: number }[] = [];
  let batchMessages = 0;
  let batchChars = 0;
  let storedConversations = 0;
  /** Distinct custom-instruction texts about the user, and the earliest time each appears. */
  const profiles = new Map<string, IsoTime>();

  const count = (item: ParsedConversation, result: Pick<HistoryImportResult, 'newConversation' | 'known' | 'queued'>) => {
    report.conversations++;
    if (result.newConversation) report.newConversations++;
    report.messages += item.conversation.messages.length;
    report.alreadyImported += result.known;
    report.newMessages += item.conversation.messages.length - result.known;
    report.toLearn += result.queued;
  };
  // What the reader could not tell is wrong, the store can: that conversation is skipped whole, as the reader's are.
  const storeOne = (entry: (typeof batch)[number]) => {
    try {
      count(entry.item, memory.history.importConversations([entry.item.conversation])[0]!);
      storedConversations++;
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
      const { title, sourceId } = entry.item.conversation;
      malformed(entry.index, title || null, sourceId, error.message);
    }
  };
  const flush = () => {
    if (!batch.length) return;
    const entries = batch;
    batch = [];
    batchMessages = 0;
    batchChars = 0;
    let results: HistoryImportResult[];
    try {
      results = memory.history.importConversations(entries.map((e) => e.item.conversation));
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
      // One of them is bad: store them one by one, skipping it.
      for (const entry of entries) storeOne(entry);
      return;
    }
    results.forEach((result, i) => count(entries[i]!.item, result));
    storedConversations += entries.length;
  };

  // The custom instructions: one message per distinct text, in a conversation of their own.
  const storeProfiles = () => {
    if (!profiles.size) return;
    const messages = [...profiles].map(([text, time]) => ({ sourceId: `about-you-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, role: 'user' as const, content: text, time, learn: true }));
    messages.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    const conversation: HistoryConversationInput = { source: 'chatgpt', ...PROFILE_CONVERSATION, messages, timeZone: options.timeZone };
    const result = store ? memory.history.importConversations([conversation])[0]! : previewOf(memory, conversation);
    report.profiles = profiles.size;
    report.messages += messages.length;
    report.alreadyImported += result.known;
    report.newMessages += messages.length - result.known;
    report.toLearn += result.queued;
    for (const m of messages) widen(m.time);
  };
  const widen = (time: string) => {
    if (report.from === null || time < report.from) report.from = time;
    if (report.to === null || time > report.to) report.to = time;
  };
  const finish = () => {
    report.skipped = Object.entries(skipped).map(([reason, n]) => ({ reason, why: whyOf(reason, n), count: n }));
    options.onProgress?.({ conversations: seen, messages: report.messages });
  };

  let seen = 0;
  try {
    for await (const item of readChatExport(path, { format: options.format, label: options.label })) {
      if (item.format) report.format = item.format;
      if (++seen % 200 === 0) options.onProgress?.({ conversations: seen, messages: report.messages + batchMessages });
      if (options.signal?.aborted) break;
      if (item.kind === 'do_not_remember') {
        report.doNotRemember++;
        continue;
      }
      if (item.kind === 'malformed') {
        malformed(item.index, item.title, item.id, item.fault);
        continue;
      }
      if (item.kind === 'too_large') {
        skipped.too_large = (skipped.too_large ?? 0) + 1;
        continue;
      }
      if (item.profile && !(profiles.get(item.profile.text)! <= item.profile.time)) profiles.set(item.profile.text, item.profile.time);
      for (const [reason, n] of Object.entries(item.skipped) as [SkipReason, number][]) skipped[reason] = (skipped[reason] ?? 0) + n;
      report.nonTextParts += item.nonTextParts;
      report.timesFromConversation += item.timesFromConversation;
      const messages = item.conversation.messages;
      if (messages.length === 0) {
        skipped.no_messages = (skipped.no_messages ?? 0) + 1;
        continue;
      }
      for (const m of messages) widen(m.time);
      if (!store) {
        const known = memory.history.knownMessages(item.conversation.source, messages.map((m) => m.sourceId));
        const queued = messages.filter((m) => m.learn && !known.has(m.sourceId)).length;
        count(item, { newConversation: known.size === 0, known: known.size, queued });
        if (seen % BATCH_CONVERSATIONS === 0) await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      batch.push({ item: { ...item, conversation: { ...item.conversation, timeZone: options.timeZone } }, index: item.index });
      batchMessages += messages.length;
      for (const m of messages) batchChars += m.content.length;
      if (batch.length >= BATCH_CONVERSATIONS || batchMessages >= BATCH_MESSAGES || batchChars >= BATCH_CHARS) {
        flush();
        // Let the chat and every other call in between writes (a stream's buffered chunks resolve as
        // microtasks, which would otherwise keep the event loop to the import).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    // A fault of the file: what was read before it is stored.
    if (store && error instanceof ChatExportError) {
      flush();
      storeProfiles();
      throw new ChatExportError(`${error.message} (nothing of it was stored${stopped(storedConversations)})`, error.conversation, error.messageId);
    }
    throw error;
  }
  if (store) flush();
  storeProfiles();
  finish();
  if (options.signal?.aborted) throw new ChatImportInterrupted(report);
  return report;
}

/** Words for `count` skipped for `reason`, to follow the count ("1 conversation with nothing left to import", "2 system messages …"). */
function whyOf(reason: string, count: number): string {
  const many = count === 1 ? 0 : 1;
  const conversations = many ? 'conversations' : 'conversation';
  if (reason === 'no_messages') return `${conversations} with nothing left to import`;
  if (reason === 'too_large') return `${conversations} over 64 MB of text, more than an import reads of one conversation: left out`;
  return SKIP_REASONS[reason as SkipReason][many];
}

/** What storing this conversation would do, storing nothing (the preview). */
function previewOf(memory: Memory, conversation: HistoryConversationInput): Pick<HistoryImportResult, 'known' | 'queued'> {
  const known = memory.history.knownMessages(conversation.source, conversation.messages.map((m) => m.sourceId));
  return { known: known.size, queued: conversation.messages.filter((m) => m.learn && !known.has(m.sourceId)).length };
}

function stopped(before: number): string {
  return before ? `; the ${before} conversation${before === 1 ? '' : 's'} before it ${before === 1 ? 'was' : 'were'} imported` : '';
}
