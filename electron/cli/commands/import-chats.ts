/**
 * `tempora import-chats FILE [--format chatgpt|claude] [--dry-run] [--model PATH]`: imports a
 * ChatGPT or Claude export (.zip or conversations.json), streamed, with each message's own date and
 * its provenance; importing again adds only what is new. Your messages join the learning queue's
 * backfill (the app learns them; with --model this command learns them now, showing rate and time
 * left). `tempora queue` shows, pauses, resumes and cancels that backfill.
 */
import { existsSync } from 'node:fs';
import type { ChatImportReport } from '../../../shared/chat-import';
import { ChatExportError, EXPORT_FORMATS, FORMAT_NAMES } from '../../assistant/index';
import { importChatExport, previewChatImport } from '../../engine/chat-import';
import { databasePath, openMemory, type HistorySource, type Memory } from '../../memory/index';
import type { CommandContext, CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { InputError } from '../errors';
import { formatTime, plural, printJson, printLines } from '../output';
import { backfillLine } from './queue';

export const importChatsCommand: CommandSpec = {
  name: 'import-chats',
  summary: 'import your ChatGPT or Claude history, learned with its own dates',
  synopsis: 'import-chats FILE [--format chatgpt|claude] [--dry-run] [--model PATH]',
  description: [
    'FILE: the .zip the ChatGPT or Claude export gave you, or its conversations.json (the format is detected).',
    'ChatGPT: the thread you saw (not regenerated branches), without hidden, system and tool messages,',
    'with your custom instructions; do-not-remember conversations are skipped and counted.',
    'Every message keeps its date and where it came from; importing the same or a newer export again',
    'adds only messages not imported before. Your messages are learned in their order, after live chat;',
    "the app does that in the background ('tempora queue' to see, pause, resume or cancel), or give",
    '--model PATH to learn them now. --dry-run: what it would import, storing nothing.',
  ],
  options: {
    format: { type: 'string', help: ['--format NAME', 'chatgpt or claude (default: detected)'] },
    'dry-run': { type: 'boolean', help: ['--dry-run', 'show what would be imported and skipped, store nothing'] },
    ...MODEL_OPTIONS,
  },
  positionals: { min: 1, max: 1, name: 'FILE' },
  async run(ctx) {
    const file = ctx.positionals[0]!;
    const path = ctx.resolvePath(file);
    const format = formatOption(ctx);
    const shown = { progress: false };
    const options = { format, label: file, timeZone: ctx.timeZone, onProgress: progress(ctx, shown) };
    const started = performance.now();
    const run = async (report: Promise<ChatImportReport>) => {
      try {
        return await report;
      } catch (error) {
        if (error instanceof ChatExportError) throw new InputError(error.message);
        throw error;
      } finally {
        if (shown.progress) ctx.io.stderr('\r\x1b[K');
      }
    };
    if (ctx.flag('dry-run')) {
      // Read-only: a missing memory is previewed as an empty one, and nothing is created.
      const preview = (memory: Memory) => run(previewChatImport(memory, path, options));
      const report = await (existsSync(databasePath(ctx.dataDir)) ? ctx.readMemory(preview) : withEmptyMemory(preview));
      return print(ctx, report, performance.now() - started);
    }
    if (ctx.string('model') === undefined) {
      const report = await ctx.withMemory((memory) => run(importChatExport(memory, path, options)));
      return print(ctx, report, performance.now() - started);
    }
    await withEngine(ctx, {}, async (engine) => {
      const report = await run(importChatExport(engine.memory, path, options));
      print(ctx, report, performance.now() - started);
      const off = engine.onEvent((event) => {
        if (event.name === 'ingestionProgress' && !ctx.json) ctx.io.stderr(`\r${backfillLine(engine.memory.backfillStatus())}\x1b[K`);
      });
      engine.worker.start();
      await engine.worker.whenIdle();
      off();
      await engine.vectors.sync();
      const status = engine.memory.backfillStatus();
      if (ctx.json) return printJson(ctx.io, { learning: status });
      ctx.io.stderr('\n');
      printLines(ctx.io, [backfillLine(status)]);
    });
  },
};

async function withEmptyMemory<T>(fn: (memory: Memory) => Promise<T>): Promise<T> {
  const memory = openMemory({ dataDir: ':memory:' });
  try {
    return await fn(memory);
  } finally {
    memory.close();
  }
}

function formatOption(ctx: CommandContext): HistorySource | undefined {
  const value = ctx.string('format');
  if (value === undefined) return undefined;
  const name = value.trim().toLowerCase();
  if (!(EXPORT_FORMATS as readonly string[]).includes(name)) throw new InputError(`--format: must be chatgpt or claude, got ${JSON.stringify(value)}`);
  return name as HistorySource;
}

function progress(ctx: CommandContext, shown: { progress: boolean }) {
  return ({ conversations, messages }: { conversations: number; messages: number }) => {
    if (ctx.json || conversations < 200) return;
    shown.progress = true;
    ctx.io.stderr(`\rreading: ${plural(conversations, 'conversation')}, ${plural(messages, 'message')}\x1b[K`);
  };
}

function print(ctx: CommandContext, report: ChatImportReport, ms: number): void {
  if (ctx.json) return printJson(ctx.io, { ...report, seconds: Math.round(ms / 10) / 100 });
  const name = report.format ? FORMAT_NAMES[report.format] : 'Chat';
  const range = report.from && report.to ? ` from ${formatTime(report.from)} to ${formatTime(report.to)}` : '';
  const skipped = [
    ...(report.doNotRemember ? [`${plural(report.doNotRemember, 'do-not-remember conversation')}`] : []),
    ...report.skipped.map((s) => `${s.count} ${s.why}`),
  ];
  const verb = report.stored ? 'Imported' : 'Would import';
  printLines(ctx.io, [
    `${name} export: ${plural(report.conversations, 'conversation')}, ${plural(report.messages, 'message')}${range}.`,
    `${verb} ${plural(report.newMessages, 'new message')} (${report.newConversations} new conversation${report.newConversations === 1 ? '' : 's'}); ${report.alreadyImported} already imported.`,
    `${report.toLearn} of your messages ${report.stored ? 'joined' : 'would join'} the learning queue, learned in their own order after live chat${report.stored ? " ('tempora queue' shows progress)" : ''}.`,
    ...(skipped.length ? [`Skipped: ${skipped.join('; ')}.`] : []),
    ...(report.nonTextParts ? [`Left out of kept messages: ${plural(report.nonTextParts, 'image, file or tool part')}.`] : []),
    ...(report.timesFromConversation ? [`${plural(report.timesFromConversation, 'message')} had no time of its own and took its conversation's.`] : []),
  ]);
}
