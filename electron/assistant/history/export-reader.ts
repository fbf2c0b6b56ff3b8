/**
 * Reads a ChatGPT or Claude export as a stream of parsed conversations: a `.zip` (its
 * conversations.json entry, decompressed as it is read) or the conversations.json itself. Only one
 * conversation is held at a time, and none past a limit (export-items.ts), so memory stays bounded
 * whatever the file holds. The format is detected from the first conversation unless given.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { IMPORTED_MESSAGE_MAX_BYTES } from '../../../shared/chat-import';
import { EXPORT_FORMAT } from '../../../shared/memory-schema';
import { looksLikeChatGpt, parseChatGptConversation } from './chatgpt-export';
import { looksLikeClaude, parseClaudeConversation } from './claude-export';
import { exportItems, NotAListError } from './export-items';
import { ChatExportError, conversationLabel, MalformedConversation, type HistorySource, type ParsedItem } from './history-types';

export const EXPORT_FORMATS = ['chatgpt', 'claude'] as const satisfies readonly HistorySource[];
export const FORMAT_NAMES: Record<HistorySource, string> = { chatgpt: 'ChatGPT', claude: 'Claude' };

export interface ReadOptions {
  /** Skip detection: read the file as this format. */
  format?: HistorySource;
  /** How errors name the file (default: its base name). */
  label?: string;
}

/**
 * A string keeps one character more than a message may (so a longer message is seen, and cut and
 * counted by capMessage); a conversation over 64 M characters of text is left out, and counted.
 */
const LIMITS = { stringChars: IMPORTED_MESSAGE_MAX_BYTES + 1, itemChars: 64 * 1024 * 1024 };

/**
 * The parsed conversations of an export, in file order. A conversation with a fault of its own is
 * yielded as malformed (and the rest read on); a fault of the file throws ChatExportError naming where.
 */
export async function* readChatExport(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedItem & { index: number; format: HistorySource | null }> {
  const label = options.label ?? basename(path);
  let format = options.format;
  let index = -1;
  let last: string | null = null;
  try {
    for await (const item of exportItems(await openConversations(path, label), LIMITS)) {
      const key = item.key;
      index = key;
      if (item.tooLarge) {
        last = conversationLabel(key, null, null);
        yield { kind: 'too_large', index: key, format: format ?? null };
        continue;
      }
      const value = item.value;
      if (format === undefined) format = detect(value, label);
      else if (key === 0 && (format === 'chatgpt' ? looksLikeClaude(value) : looksLikeChatGpt(value)) && !(format === 'chatgpt' ? looksLikeChatGpt(value) : looksLikeClaude(value))) {
        const other = format === 'chatgpt' ? 'claude' : 'chatgpt';
        throw new ChatExportError(`${label}: this is a ${FORMAT_NAMES[other]} export, not ${FORMAT_NAMES[format]} (leave the format out to detect it, or say ${other})`, 'conversation 1', null);
      }
      const parsed = parseItem(format, value, key, label);
      last = parsed.kind === 'conversation' ? conversationLabel(key, parsed.conversation.title, parsed.conversation.sourceId) : parsed.kind === 'malformed' ? conversationLabel(key, parsed.title, parsed.id) : conversationLabel(key, parsed.title, parsed.sourceId);
      yield { ...parsed, index: key, format };
    }
  } catch (error) {
    if (error instanceof ChatExportError) throw error;
    if (error instanceof NotAListError) throw new ChatExportError(looksLikeMemoryExport(path) ? memoryExportWords(label) : `${label}: ${error.message}`, null, null);
    const where = conversationLabel(index + 1, null, null);
    const after = last ? `, after ${last}` : '';
    throw new ChatExportError(`${label}: cannot read ${where}${after}: ${readFailure(error)}`, where, null);
  }
}

/** A Tempora memory export given as a chat history: its first bytes say so (`"format": "tempora.memory"` comes first). */
function looksLikeMemoryExport(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const start = Buffer.alloc(4096);
    const read = readSync(fd, start, 0, start.length, 0);
    return new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${EXPORT_FORMAT.replace('.', '\\.')}"`).test(start.subarray(0, read).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const memoryExportWords = (label: string) =>
  `${label} is a Tempora memory export, not a ChatGPT or Claude chat history: import it as a memory (tempora import ${label}, or “Memory file” on the Export / Import screen)`;

/** A failure while reading the text, in words: the JSON parser's and zlib's own are terse. */
function readFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/^Parser has expected/.test(message)) return 'the file ends before its JSON does (was it cut short?)';
  const parser = /^Parser cannot parse input: (.*)$/.exec(message);
  if (parser) return `the JSON is damaged there (${parser[1]})`;
  if (typeof (error as { errno?: unknown }).errno === 'number' && /^Z_/.test(String((error as { code?: unknown }).code))) return `the zip's conversations.json cannot be unpacked: the zip is damaged (${message})`;
  return message;
}

function parseItem(format: HistorySource, value: unknown, key: number, label: string): Exclude<ParsedItem, { kind: 'too_large' }> {
  try {
    return format === 'chatgpt' ? parseChatGptConversation(value, key) : parseClaudeConversation(value, key);
  } catch (error) {
    if (error instanceof MalformedConversation) return { kind: 'malformed', title: error.title, id: error.id, fault: error.fault };
    if (error instanceof ChatExportError) throw new ChatExportError(`${label}: ${error.message}`, error.conversation, error.messageId);
    throw error;
  }
}

function detect(value: unknown, label: string): HistorySource {
  if (looksLikeChatGpt(value)) return 'chatgpt';
  if (looksLikeClaude(value)) return 'claude';
  throw new ChatExportError(
    `${label}: conversation 1 is neither a ChatGPT conversation (with "mapping") nor a Claude one (with "chat_messages"): is this a ChatGPT or Claude export?`,
    'conversation 1',
    null,
  );
}

/** The characters a JSON value can start with. */
const JSON_STARTS = new Set('[{"-0123456789tfn');

const EXPECTED = 'expected the .zip your ChatGPT or Claude export gave you, or its conversations.json';

/** The conversations.json text: the file itself, or the entry of that name in a zip (a byte-order mark before it is passed over: export-items.ts). */
async function openConversations(path: string, label: string): Promise<Readable> {
  const bytes = await firstBytes(path, label);
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return utf8(await zipEntry(path, label));
  const mark = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const first = bytes.subarray(mark).find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  if (first === undefined && bytes.length < FIRST_BYTES) throw new ChatExportError(`${label}: the file holds no text but spaces (${EXPECTED})`, null, null);
  // What no JSON value starts with (a picture, a web page, most tables, a .gz) is not JSON; the rest the reader judges.
  if (first !== undefined && !JSON_STARTS.has(String.fromCharCode(first))) throw new ChatExportError(`${label}: not JSON, nor a zip (${EXPECTED})`, null, null);
  return utf8(createReadStream(path));
}

/** How much of the file's start is read to tell what it is. */
const FIRST_BYTES = 4096;

async function firstBytes(path: string, label: string): Promise<Buffer> {
  const expected = EXPECTED;
  let handle;
  try {
    handle = await openFile(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ChatExportError(code === 'ENOENT' ? `${label}: no such file (${expected})` : code === 'EISDIR' ? `${label}: is a folder, not a file (${expected})` : `${label}: cannot open: ${(error as Error).message}`, null, null);
  }
  try {
    if ((await handle.stat()).isDirectory()) throw new ChatExportError(`${label}: is a folder, not a file (${expected})`, null, null);
    const buffer = Buffer.alloc(FIRST_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, FIRST_BYTES, 0);
    if (bytesRead === 0) throw new ChatExportError(`${label}: the file is empty (${expected})`, null, null);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function zipEntry(path: string, label: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      // The library's words ("End of central directory record signature not found …") say nothing a user can act on.
      const damaged = () => new ChatExportError(`${label}: the zip is damaged or cut short, so it cannot be read: download the export again`, null, null);
      if (error) return reject(damaged());
      let settled = false;
      zip.on('error', () => {
        if (!settled) reject(damaged());
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (name.endsWith('/') || basename(name) !== 'conversations.json') return zip.readEntry();
        settled = true;
        zip.openReadStream(entry, (e, stream) => (e ? reject(new ChatExportError(`${label}: cannot read ${name}: ${e.message}`, null, null)) : resolve(stream)));
      });
      zip.on('end', () => {
        if (!settled) reject(new ChatExportError(`${label}: the zip has no conversations.json (is it a ChatGPT or Claude export?)`, null, null));
      });
      zip.readEntry();
    });
  });
}

/** Bytes → text: setEncoding decodes with a StringDecoder, so no character is split across chunks. */
function utf8(bytes: Readable): Readable {
  return bytes.setEncoding('utf8');
}
