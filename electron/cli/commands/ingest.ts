/**
 * `tempora ingest FILE.jsonl --model PATH [--embedding-model PATH]`: learns from chat messages with
 * a local model. Every line is checked first; then all messages and their jobs are stored in one
 * transaction (so a crash loses none, and a rerun stores none twice), and the worker learns from
 * them, printing progress. Jobs interrupted by a crash are resumed by the next run.
 */
import { z } from 'zod';
import { describeZodError } from '../../../shared/memory-schema';
import type { LearningTotals } from '../../memory/index';
import type { CommandSpec } from '../command';
import { MODEL_OPTIONS, requireModelOption, withEngine } from '../engine-context';
import { InputError } from '../errors';
import { readTextFile } from '../files';
import { formatCount } from '../../../shared/count-words';
import { escapeControls, plural, printJson, printLines, progressLine } from '../output';
import { parseJsonLines } from './observe';

const messageLine = z.strictObject({
  role: z.enum(['user', 'assistant', 'system', 'document']),
  content: z.string().min(1).max(100_000),
  time: z.string().min(1),
  conversation: z.string().min(1).max(200).optional(),
  id: z.string().min(1).max(200).optional(),
});

export const ingestCommand: CommandSpec = {
  name: 'ingest',
  summary: 'learn facts from chat messages with a local model',
  synopsis: 'ingest FILE.jsonl --model PATH [--embedding-model PATH] [--threads N]',
  description: [
    'One message per line: {"role":"user","content":"…","time":"2026-09-01T10:00:00+09:00","conversation":"c1"}',
    'Prints progress while it works and a summary at the end (--json: messages, facts added, facts closed,',
    'model calls, prompt tokens, completion tokens, seconds). Messages already stored are not stored again;',
    'jobs left unfinished by an interrupted run are resumed. With review before remembering on (`tempora review on`),',
    'what the model read waits for your review instead: the summary says how many messages wait (--json: waiting_for_review).',
  ],
  options: { ...MODEL_OPTIONS },
  positionals: { min: 1, max: 1, name: 'FILE.jsonl' },
  async run(ctx) {
    const started = performance.now();
    requireModelOption(ctx);
    const file = ctx.positionals[0]!;
    const { items, lines } = parseJsonLines(file, readTextFile(file, ctx.io.cwd), 'a message');
    const messages = items.map((item, i) => {
      const parsed = messageLine.safeParse(item);
      if (!parsed.success) throw new InputError(`${file}:${lines[i]}: ${describeZodError(parsed.error, { input: item })}`);
      return parsed.data;
    });
    await withEngine(ctx, { requireModel: true }, async (engine) => {
      const memory = engine.memory;
      // All lines in one transaction: a crash stores none of them, a rerun none twice.
      // As in the chat: an assistant line is learned only through a user line that confirms it.
      const appended = memory.messages.appendAll(
        messages.map((m) => ({ role: m.role, content: m.content, time: m.time, conversation: m.conversation, id: m.id, learn: m.role !== 'assistant' })),
        (i) => `${file}:${lines[i]}`,
      );
      const episodeIds = appended.map((a) => a.episode.id);
      // Review before remembering on: what the model reads waits for the user, nothing is learned yet.
      const reviewing = memory.review.status().reviewBeforeRemembering;
      const total = memory.jobs.counts();
      const todo = total.pending + total.running;
      let done = 0;
      // The count is rewritten in place on a terminal; a failed model call that is retried is a line
      // of its own everywhere (a log file or a pipe gets only those, and the summary).
      const line = progressLine(ctx.io);
      const off = engine.onEvent((event) => {
        if (event.name !== 'ingestionProgress' || ctx.json) return;
        const counts = event.payload.counts;
        done = Math.max(done, todo - counts.pending - counts.running);
        const said = `[${done}/${todo}] ${reviewing ? 'read for review' : 'learned'}`;
        if (!event.payload.lastError) return line.show(said);
        line.clear();
        ctx.io.stderr(`${said} (retrying after: ${escapeControls(event.payload.lastError)})\n`);
      });
      try {
        engine.worker.start();
        await engine.worker.whenIdle();
      } finally {
        off();
        line.clear();
      }
      await engine.vectors.sync();
      const usage = memory.messages.learningTotals(episodeIds);
      const stored = new Set(episodeIds);
      const waiting = memory.review.pending().filter((r) => stored.has(r.episodeId)).length;
      const summary = {
        messages: messages.length,
        facts_added: usage.added,
        facts_closed: usage.closed,
        model_calls: usage.calls,
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        parked: usage.parked ?? 0,
        waiting_for_review: waiting,
        seconds: Math.round((performance.now() - started) / 10) / 100,
      };
      if (ctx.json) return printJson(ctx.io, summary);
      printLines(ctx.io, [
        waiting === 0
          ? `Learned from ${plural(summary.messages, 'message')} in ${summary.seconds} s: ${factCounts(usage)}.`
          : `Read ${plural(summary.messages, 'message')} in ${summary.seconds} s: ${plural(waiting, 'message')} waiting for your review (see them with 'tempora review')${
              summary.facts_added + summary.facts_closed > 0 ? `; ${factCounts(usage)}` : `; nothing of ${waiting === 1 ? 'it' : 'them'} is remembered yet`
            }.`,
        ...learningUsageLines(usage),
      ]);
    });
  },
};

/** "2 facts added, 1 closed". */
export function factCounts(usage: Pick<LearningTotals, 'added' | 'closed'>): string {
  return `${plural(usage.added, 'fact')} added, ${formatCount(usage.closed, 'en-US')} closed`;
}

/** The model's calls and tokens, and the messages parked: the lines `ingest` and `import-chats --model` end with. */
export function learningUsageLines(usage: LearningTotals): string[] {
  const parked = usage.parked ?? 0;
  return [
    `Model: ${plural(usage.calls, 'call')} (${(usage.calls / Math.max(1, usage.jobs)).toFixed(2)} per message), ${formatCount(usage.prompt, 'en-US')} prompt + ${formatCount(usage.completion, 'en-US')} completion tokens.`,
    ...(parked ? [`${plural(parked, 'message')} could not be learned from and ${parked === 1 ? 'was' : 'were'} parked (see 'tempora models' for the model, then retry).`] : []),
  ];
}
