/**
 * `tempora import-chats FILE [--format chatgpt|claude] [--dry-run] [--model PATH]`: imports a
 * ChatGPT or Claude export (.zip or conversations.json), streamed, with each message's own date and
 * its provenance; importing again adds only what is new. Your messages join the learning queue's
 * backfill (the app learns them; with --model this command learns them now, showing rate and time
 * left). `tempora queue` shows, pauses, resumes and cancels that backfill. Ctrl-C stops it after the
 * conversation being read: what was read is stored, and a re-run imports the rest. A conversation
 * that cannot be read (its own fault) is skipped whole and listed, and the rest imported; when none
 * can be read the command exits 1, and a refused file creates no memory.
 */
import { existsSync } from 'node:fs';
import type { ChatImportReport } from '../../../shared/chat-import';
import { ChatExportError, EXPORT_FORMATS, FORMAT_NAMES, readChatExport } from '../../assistant/index';
import { ChatImportInterrupted, importChatExport, previewChatImport } from '../../engine/chat-import';
import { databasePath, type HistorySource, type Memory } from '../../memory/index';
import type { CommandContext, CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { InputError, Interrupted } from '../errors';
import { previewIn } from '../preview-memory';
import { formatCount } from '../../../shared/count-words';
import { formatTime, plural, printJson, printLines, progressLine } from '../output';
import { factCounts, learningUsageLines } from './ingest';
import { backfillLine } from './queue';

export const importChatsCommand: CommandSpec = {
  name: 'import-chats',
  summary: 'import your ChatGPT or Claude history, learned with its own dates',
  synopsis: 'import-chats FILE [--format chatgpt|claude] [--dry-run] [--model PATH]',
  description: [
    'FILE: the .zip the ChatGPT or Claude export gave you, or its conversations.json (the format is detected).',
    'ChatGPT: the thread you saw (not regenerated branches), without hidden, system and tool messages,',
    'with what your custom instructions say about you (once per distinct text, not once per conversation);',
    'do-not-remember conversations are skipped and counted. A message over 1 MB is cut there, and counted.',
    'Every message keeps its date and where it came from; importing the same or a newer export again',
    'adds only messages not imported before. Your messages are learned in their order, after live chat;',
    "the app does that in the background ('tempora queue' to see, pause, resume or cancel), or give",
    '--model PATH to learn them now. --dry-run: what it would import, storing nothing.',
    'A conversation that cannot be read (a message without an author, no time anywhere) is skipped whole',
    'and listed with its fault; the rest are imported. Exit 1 when no conversation could be read.',
    'Ctrl-C stops it: what was read is kept, and running the same command again imports the rest.',
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
    const shown = progressLine(ctx.io);
    // Ctrl-C: the import stops after the conversation being read and says what it stored (a second one ends it at once).
    const interrupt = new AbortController();
    const onInterrupt = () => interrupt.abort();
    const options = { format, label: file, timeZone: ctx.timeZone, onProgress: progress(ctx, shown), signal: interrupt.signal };
    const started = performance.now();
    const run = async <T>(work: Promise<T>): Promise<T> => {
      process.once('SIGINT', onInterrupt);
      try {
        return await work;
      } catch (error) {
        if (error instanceof ChatExportError) throw new InputError(error.message);
        if (error instanceof ChatImportInterrupted) {
          shown.clear();
          if (ctx.json) printJson(ctx.io, { ...error.report, seconds: Math.round((performance.now() - started) / 10) / 100 });
          else printReport(ctx, error.report, 0);
          throw new Interrupted(interrupted(error.report));
        }
        throw error;
      } finally {
        process.off('SIGINT', onInterrupt);
        shown.clear();
      }
    };
    // Read up to its first conversation (and no further): a file with none is refused before anything is made.
    const first = await run(firstConversation(path, options));
    if (first === 'none') throw new InputError(`${file}: nothing to import: the file holds no conversations`);
    if (ctx.flag('dry-run')) {
      // Read-only: a missing memory is previewed as an empty one, and nothing is created.
      const preview = (memory: Memory) => run(previewChatImport(memory, path, options));
      const report = await previewIn(ctx, preview);
      return print(ctx, file, report, performance.now() - started);
    }
    // A file that is refused creates no memory: where there is none yet, it is read up to its first readable conversation before one is made.
    if (!existsSync(databasePath(ctx.dataDir)) && first === 'unreadable') {
      // None can be read: what is wrong with each, read as the preview reads them, and nothing created.
      const report = await previewIn(ctx, (memory) => run(previewChatImport(memory, path, options)));
      return print(ctx, file, report, performance.now() - started, 0, true);
    }
    if (ctx.string('model') === undefined) {
      const { report, cancelled } = await ctx.withMemory(async (memory) => ({ report: await run(importChatExport(memory, path, options)), cancelled: memory.history.backfillStatus().cancelled }));
      return print(ctx, file, report, performance.now() - started, cancelled);
    }
    await withEngine(ctx, {}, async (engine) => {
      const report = await run(importChatExport(engine.memory, path, options));
      print(ctx, file, report, performance.now() - started);
      const off = engine.onEvent((event) => {
        if (event.name === 'ingestionProgress' && !ctx.json) shown.show(backfillLine(engine.memory.history.backfillStatus()));
      });
      // Ctrl-C while it learns: the message in hand is finished (the worker's stop), the rest wait queued.
      let stopping: Promise<void> | null = null;
      const stopped = new Promise<void>((done) => {
        const onLearningInterrupt = () => {
          stopping ??= engine.worker.stop().then(done);
        };
        process.once('SIGINT', onLearningInterrupt);
        engine.worker.start();
        void engine.worker.whenIdle().then(() => {
          process.off('SIGINT', onLearningInterrupt);
          done();
        });
      });
      await stopped;
      off();
      if (stopping !== null) {
        const status = engine.memory.history.backfillStatus();
        const left = status.total - status.done;
        shown.clear();
        throw new Interrupted(
          `interrupted: learning stopped after the message in hand: ${formatCount(status.done, 'en-US')} of ${formatCount(status.total, 'en-US')} imported messages learned; ` +
            `the other ${formatCount(left, 'en-US')} wait in the queue and are learned the next time Tempora runs with a model.`,
        );
      }
      await engine.vectors.sync();
      const status = engine.memory.history.backfillStatus();
      if (ctx.json) return printJson(ctx.io, { learning: status });
      ctx.io.stderr('\n');
      // As `tempora ingest` ends: what the imported messages taught, and what the model did for it.
      const totals = engine.memory.history.backfillTotals();
      printLines(ctx.io, [backfillLine(status), `From imported chats: ${factCounts(totals)}.`, ...learningUsageLines(totals)]);
    });
  },
};

/**
 * Reads the export up to its first conversation that can be read (and no further): 'none' when it
 * holds no conversation, 'unreadable' when it holds some and none can be read; a file that is not
 * an export throws, naming why.
 */
async function firstConversation(path: string, options: { format?: HistorySource; label: string }): Promise<'readable' | 'unreadable' | 'none'> {
  const items = readChatExport(path, options);
  let malformed = false;
  try {
    for await (const item of items) {
      if (item.kind !== 'malformed') return 'readable';
      malformed = true;
    }
    return malformed ? 'unreadable' : 'none';
  } catch (error) {
    // As the import itself says of a bad conversation.
    if (error instanceof ChatExportError && error.conversation !== null) throw new ChatExportError(`${error.message} (nothing of it was stored)`, error.conversation, error.messageId);
    throw error;
  } finally {
    await items.return(undefined);
  }
}

/** "stopped: 1,200 conversations read …; run the same command again to import the rest". */
function interrupted(report: ChatImportReport): string {
  const stored = report.stored ? `${plural(report.newMessages, 'new message')} of ${plural(report.conversations, 'conversation')} stored` : `${plural(report.conversations, 'conversation')} read, nothing stored`;
  const again = report.stored ? 'run the same command again to import the rest (nothing is imported twice)' : 'run it again to see the whole export';
  return `interrupted: ${stored}; ${again}.`;
}

function formatOption(ctx: CommandContext): HistorySource | undefined {
  const value = ctx.string('format');
  if (value === undefined) return undefined;
  const name = value.trim().toLowerCase();
  if (!(EXPORT_FORMATS as readonly string[]).includes(name)) throw new InputError(`--format: must be chatgpt or claude, got ${JSON.stringify(value)}`);
  return name as HistorySource;
}

function progress(ctx: CommandContext, shown: ReturnType<typeof progressLine>) {
  return ({ conversations, messages }: { conversations: number; messages: number }) => {
    if (ctx.json || conversations < 200) return;
    shown.show(`reading: ${plural(conversations, 'conversation')}, ${plural(messages, 'message')}`);
  };
}

/** Some conversations were there and none could be read: nothing was (or would be) imported. */
function nothingRead(report: ChatImportReport): boolean {
  return report.malformed.count > 0 && report.conversations === 0 && report.doNotRemember === 0 && !report.skipped.some((s) => s.reason === 'no_messages' || s.reason === 'too_large');
}

/** "  conversation 3 ("Trip", id c-123): message m-9 has no author", one a line, "  … and 5 more" past the list. */
function malformedLines(report: ChatImportReport): string[] {
  const more = report.malformed.count - report.malformed.first.length;
  return [...report.malformed.first.map((m) => `  ${m.label}: ${m.fault}`), ...(more > 0 ? [`  … and ${formatCount(more, 'en-US')} more`] : [])];
}

/**
 * The report, in words or JSON. `cancelled`: imported messages whose learning was cancelled earlier (a
 * re-import does not queue them again). `importing`: an import that read nothing, said as one (not a preview).
 * No conversation readable: exit 1, naming each.
 */
function print(ctx: CommandContext, file: string, report: ChatImportReport, ms: number, cancelled = 0, importing = report.stored): void {
  if (ctx.json) printJson(ctx.io, { ...report, seconds: Math.round(ms / 10) / 100 });
  if (nothingRead(report)) throw new InputError([`${file}: none of its conversations could be read, so nothing ${importing ? 'was' : 'would be'} imported:`, ...malformedLines(report)].join('\n'));
  if (!ctx.json) printReport(ctx, report, cancelled);
}

function printReport(ctx: CommandContext, report: ChatImportReport, cancelled: number): void {
  const count = (n: number) => formatCount(n, 'en-US');
  const name = report.format ? FORMAT_NAMES[report.format] : 'Chat';
  const range = report.from && report.to ? ` from ${formatTime(report.from)} to ${formatTime(report.to)}` : '';
  const skipped = [
    ...(report.doNotRemember ? [`${plural(report.doNotRemember, 'do-not-remember conversation')}`] : []),
    ...report.skipped.filter((s) => s.reason !== 'truncated').map((s) => `${count(s.count)} ${s.why}`),
  ];
  const truncated = report.skipped.find((s) => s.reason === 'truncated')?.count ?? 0;
  const untimed = report.timesFromConversation;
  const verb = report.stored ? 'Imported' : 'Would import';
  printLines(ctx.io, [
    `${name} export: ${plural(report.conversations, 'conversation')}, ${plural(report.messages, 'message')}${range}.`,
    `${verb} ${plural(report.newMessages, 'new message')} (${plural(report.newConversations, 'new conversation')})${report.alreadyImported ? `; ${count(report.alreadyImported)} already imported` : ''}.`,
    `${count(report.toLearn)} of your messages ${report.stored ? 'joined' : 'would join'} the learning queue, learned in their own order after live chat${report.stored ? " ('tempora queue' shows progress)" : ''}.`,
    ...(report.profiles
      ? [
          `Your custom instructions: ${plural(report.profiles, 'distinct text')} about you ${report.stored ? 'imported' : 'to import'} once, dated when ${report.profiles === 1 ? 'it' : 'each'} first appears (not once per conversation); the preamble and your instructions to ChatGPT are not facts and were left out.`,
        ]
      : []),
    ...(skipped.length ? [`Skipped: ${skipped.join('; ')}.`] : []),
    ...(report.malformed.count
      ? [`Not imported: ${plural(report.malformed.count, 'conversation')} could not be read (nothing of ${report.malformed.count === 1 ? 'it' : 'them'} ${report.stored ? 'was' : 'would be'} stored):`, ...malformedLines(report)]
      : []),
    ...(truncated ? [`Cut short: ${plural(truncated, 'message')} over 1 MB, the most a message keeps (the rest of ${truncated === 1 ? 'it' : 'each'} left out).`] : []),
    ...(report.nonTextParts ? [`Left out of kept messages: ${plural(report.nonTextParts, 'image, file or tool part')}.`] : []),
    ...(cancelled ? [`${plural(cancelled, 'imported message')} whose learning was cancelled ${cancelled === 1 ? 'is' : 'are'} not learned: 'tempora queue requeue' learns ${cancelled === 1 ? 'it' : 'them'}.`] : []),
    ...(untimed ? [`${plural(untimed, 'message')} had no time of ${untimed === 1 ? 'its' : 'their'} own and took the time of the message before ${untimed === 1 ? 'it' : 'them'} (or of ${untimed === 1 ? 'its' : 'their'} conversation).`] : []),
  ]);
}
