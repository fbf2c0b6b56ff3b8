/** `tempora export` and `tempora import`: the versioned JSON document (format tempora.memory, version 3). */
import { closeSync, openSync, readSync } from 'node:fs';
import { MemoryInputError, NotJsonError, type ImportPreview, type ImportProgress, type ImportSummary } from '../../memory/index';
import { importOutcome } from '../../../shared/import-outcome';
import type { CommandContext, CommandSpec } from '../command';
import { formatBytes } from '../../../shared/format-bytes';
import { InputError } from '../errors';
import { describeFsError, writeFileAtomic } from '../files';
import { plural, printJson, printLines, progressLine } from '../output';
import { previewIn } from '../preview-memory';

export const exportCommand: CommandSpec = {
  name: 'export',
  summary: 'write the whole memory as one JSON document',
  synopsis: 'export [--out FILE]',
  description: [
    'Prints the document (pretty JSON) on standard output, or writes it to FILE all at once',
    '(through a temporary file, so a failure never leaves half a file). Vectors are not exported.',
  ],
  options: {
    out: { type: 'string', short: 'o', help: ['-o, --out FILE', 'write to FILE instead of standard output'] },
  },
  positionals: { min: 0, max: 0, name: '' },
  run(ctx) {
    const out = ctx.string('out');
    // Streamed from one snapshot of the memory, a record at a time: a memory of a million facts is a
    // document longer than one string can hold, and never held whole (memory-export.ts).
    const { counts, exportedAt } = ctx.readMemory((memory) => {
      const stream = memory.transfer.openExport();
      // A long export says how far it is (on stderr, from its second second on, at most twice a second).
      const started = Date.now();
      let told = 0;
      const line = progressLine(ctx.io);
      const tell = () => {
        const now = Date.now();
        if (now - started < 1_000 || now - told < 500) return;
        told = now;
        const share = Math.floor((stream.records / Math.max(1, stream.totalRecords)) * 100);
        line.show(`exporting: ${stream.records.toLocaleString('en-US')} of ${stream.totalRecords.toLocaleString('en-US')} records (${share}%)`);
      };
      try {
        const pieces = function* () {
          for (let piece = stream.next(); piece !== null; piece = stream.next()) {
            yield piece;
            tell();
          }
          line.clear();
          yield '\n';
        };
        if (out === undefined) for (const piece of pieces()) ctx.io.stdout(piece);
        else writeFileAtomic(out, pieces(), ctx.io.cwd);
        return { counts: stream.counts, exportedAt: stream.exportedAt };
      } finally {
        stream.close();
      }
    });
    if (out === undefined) return;
    const { conversations, episodes, entities, facts } = counts;
    if (ctx.json) return printJson(ctx.io, { out, exported_at: exportedAt, conversations, episodes, entities, facts });
    printLines(ctx.io, [
      `Exported ${plural(facts, 'fact version')}, ${plural(entities, 'entity', 'entities')}, ` +
        `${plural(episodes, 'message')} and ${plural(conversations, 'conversation')} to ${out}.`,
    ]);
  },
};

export const importCommand: CommandSpec = {
  name: 'import',
  summary: 'add an exported document to the memory',
  synopsis: 'import FILE [--replace] [--dry-run]',
  description: [
    'The document is checked whole (shape, times, references) before anything is written, then',
    'imported in one transaction. Ids that already exist are refused unless --replace.',
    'A file of any size is read record by record, twice (checked, then written), never whole;',
    'a long import says how far it is on standard error. Ctrl-C stops it, and nothing is written.',
    '--dry-run: the same checks, then what importing would add and join, writing nothing.',
  ],
  options: {
    replace: { type: 'boolean', help: ['--replace', 'overwrite records whose ids already exist'] },
    'dry-run': { type: 'boolean', help: ['--dry-run', 'check the file and say what importing it would do; import nothing'] },
  },
  positionals: { min: 1, max: 1, name: 'FILE' },
  run(ctx) {
    const file = ctx.positionals[0]!;
    const path = ctx.resolvePath(file);
    // Readable before the memory is opened (a missing file creates nothing), and by its first bytes
    // no chat history (a file for import-chats), which is said before anything is read whole.
    const head = firstBytes(file, path);
    const notAnExport = nothingInWords(file, head) ?? chatHistoryWords(file, head);
    if (notAnExport !== null) throw new InputError(notAnExport);
    const progress = importProgress(ctx);
    if (ctx.flag('dry-run')) return preview(ctx, file, path, progress);
    try {
      // All at once: a Ctrl-C ends the process, and the import, one transaction not committed, writes nothing.
      const summary = ctx.withMemory((memory) => memory.transfer.importFileNow(path, { label: file, replace: ctx.flag('replace'), onProgress: progress.tell }));
      progress.clear();
      printSummary(ctx, file, summary);
    } catch (error) {
      progress.clear();
      if (error instanceof NotJsonError) throw new InputError(`${file}: not JSON (${error.detail})`);
      if (error instanceof MemoryInputError) {
        // A chat history whose first bytes did not say so (a long first title): the engine saw it whole.
        const chats = /^looks like a (ChatGPT|Claude) chat history/.exec(error.message);
        if (chats !== null) throw new InputError(chatHistorySentence(file, chats[1]!));
        throw new MemoryInputError(`${file}: ${error.message}`, `${file}: ${error.where}`);
      }
      if (isFsError(error)) throw new InputError(`cannot read ${file}: ${describeFsError(error)}`);
      throw error;
    }
  },
};

/**
 * What importing the file would do, by the import's own first pass (the Import screen's preview),
 * writing nothing: a fault is refused as the import would refuse it (exit 1).
 */
async function preview(ctx: CommandContext, file: string, path: string, progress: ReturnType<typeof importProgress>): Promise<void> {
  let result: ImportPreview;
  try {
    result = await previewIn(ctx, (memory) => memory.transfer.previewFile(path, { label: file, onProgress: (p) => progress.tell({ ...p, phase: 'checking' }) }));
  } finally {
    progress.clear();
  }
  if (!result.valid) throw new InputError(`${file}: ${result.error ?? 'not a Tempora memory export'}`);
  if (ctx.json) return printJson(ctx.io, result);
  printLines(ctx.io, [
    `${file} holds ${plural(result.facts, 'fact version')}, ${plural(result.entities, 'entity', 'entities')}, ` +
      `${plural(result.episodes, 'message')} and ${plural(result.conversations, 'conversation')}. ${importOutcome(result)}`,
    'Dry run: nothing imported.',
  ]);
}

/** Progress on standard error from the import's second second on, at most twice a second. */
function importProgress(ctx: CommandContext) {
  const started = Date.now();
  let told = 0;
  const line = progressLine(ctx.io);
  return {
    tell: ({ phase, records, bytes, totalBytes }: ImportProgress) => {
      const now = Date.now();
      if (ctx.json || now - started < 1_000 || now - told < 500) return;
      told = now;
      const share = Math.floor((bytes / Math.max(1, totalBytes)) * 100);
      line.show(`${phase === 'checking' ? 'checking' : 'importing'}: ${records.toLocaleString('en-US')} records, ${share}% of ${formatBytes(totalBytes)}`);
    },
    clear: () => line.clear(),
  };
}

/** How much of a file's start is looked at to tell a chat history from an export. */
const HEAD_BYTES = 64 * 1024;

/** The file's first bytes (at most HEAD_BYTES); refused in words when it cannot be read. */
function firstBytes(file: string, path: string): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    return head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${describeFsError(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What to say of a file with nothing in it (or only spaces), rather than where its JSON ends; null otherwise. */
function nothingInWords(file: string, head: Buffer): string | null {
  const expected = '(expected a Tempora memory export, one JSON document as tempora export writes it)';
  if (head.length === 0) return `${file}: the file is empty ${expected}`;
  const whole = head.length < HEAD_BYTES;
  return whole && head.toString('utf8').replace(/^\uFEFF/, '').trim() === '' ? `${file}: the file holds no text but spaces ${expected}` : null;
}

/**
 * What to say when a file's first bytes show it is what `tempora import-chats` reads, not an export:
 * a zip (the download of a ChatGPT or Claude data export), or their conversations.json — a list of
 * conversations (or one) with ChatGPT's `mapping` or Claude's `chat_messages`. Null otherwise.
 */
function chatHistoryWords(file: string, head: Buffer): string | null {
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    return `${file} is a zip archive, not a Tempora memory export (one JSON file): a ChatGPT or Claude data export's .zip is imported with \`tempora import-chats ${file}\``;
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const start = /^\s*(\[\s*)?\{/.exec(text);
  if (start === null || text.includes('"tempora.memory"')) return null;
  const key = /"(mapping|chat_messages)"\s*:/.exec(text);
  if (key === null) return null;
  return chatHistorySentence(file, key[1] === 'mapping' ? 'ChatGPT' : 'Claude');
}

function chatHistorySentence(file: string, source: string): string {
  return `${file} looks like a ${source} chat history, not a Tempora memory export: import it with \`tempora import-chats ${file}\``;
}

function isFsError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function printSummary(ctx: CommandContext, file: string, summary: ImportSummary): void {
  if (ctx.json) return printJson(ctx.io, summary);
  printLines(ctx.io, [
    `Imported ${plural(summary.facts, 'fact version')}, ${plural(summary.entities, 'entity', 'entities')}, ` +
      `${plural(summary.episodes, 'message')} and ${plural(summary.conversations, 'conversation')} from ${file}` +
      `${summary.replaced ? ` (${summary.replaced} replaced)` : ''}` +
      `${summary.merged ? `; ${plural(summary.merged, 'entity', 'entities')} joined the ones already here (you, and the same names)` : ''}.`,
    ...(summary.queued ? [`${plural(summary.queued, 'message')} still being learned where this memory was exported ${summary.queued === 1 ? 'is' : 'are'} queued here: the app learns ${summary.queued === 1 ? 'it' : 'them'} in the background ('tempora queue' shows how far).`] : []),
  ]);
}
