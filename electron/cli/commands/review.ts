/**
 * `tempora review [list|approve|reject|on|off]`: review before remembering from the terminal — the
 * learned messages waiting (each with the facts it proposes, times in the user's zone), approving or
 * rejecting one (or `--all` of them), and turning the setting on or off. It is the memory's own
 * setting, so the app, `tempora ingest` and an imported chat history all follow it. Corrections
 * before approval are made in the app's Review screen.
 */
import type { PendingReview } from '../../../shared/review-contract';
import type { CommandSpec } from '../command';
import { UsageError } from '../errors';
import { formatSaid } from '../../../shared/time-format';
import { displayFormat, escapeControls, formatTime, formatValidity, plural, printJson, printLines } from '../output';

const ACTIONS = ['list', 'approve', 'reject', 'on', 'off'] as const;
type Action = (typeof ACTIONS)[number];

function lines(reviews: readonly PendingReview[]): string[] {
  const out: string[] = [];
  for (const r of reviews) {
    const from = r.agent === null ? '' : `from agent ${escapeControls(r.agent)}: `;
    out.push(`${r.episodeId}  ${formatTime(r.referenceTime)}  ${from}${escapeControls(r.content.split('\n')[0]!.slice(0, 100))}`);
    if (r.facts.length === 0) out.push('    (nothing to remember)');
    for (const f of r.facts) {
      const when = f.endsExisting
        ? `ends it at ${formatSaid(f.endsExisting, f.endPrecision, displayFormat(), true)}`
        : formatValidity({ valid_at: f.validAt, valid_at_precision: f.validPrecision, invalid_at: f.end, invalid_at_precision: f.end ? f.endPrecision : null });
      out.push(`    ${f.index}. ${escapeControls(`${f.subject} · ${f.predicate} · ${f.object}`)}  ${when}`);
    }
  }
  return out;
}

export const reviewCommand: CommandSpec = {
  name: 'review',
  summary: 'review learned messages before they are remembered',
  synopsis: 'review [list | approve MESSAGE_ID|--all | reject MESSAGE_ID|--all | on | off]',
  description: [
    'list (the default): the messages waiting, each with the facts it proposes.',
    'approve / reject: one message by its id (as listed), or every waiting one with --all.',
    'on / off: whether what the model learns waits for review (off by default). What already waits stays.',
    'To correct a fact before approving it, use the Review screen of the app (`tempora serve`).',
  ],
  options: { all: { type: 'boolean', help: ['--all', 'approve or reject every waiting message'] } },
  positionals: { min: 0, max: 2, name: 'ACTION [MESSAGE_ID]' },
  run(ctx) {
    const action = (ctx.positionals[0] ?? 'list') as Action;
    if (!ACTIONS.includes(action)) throw new UsageError(`review: unknown action ${JSON.stringify(action)} (use ${ACTIONS.join(', ')})`, 'review');
    const id = ctx.positionals[1];
    const all = ctx.values.all === true;
    if ((action === 'approve' || action === 'reject') && !id && !all) throw new UsageError(`review ${action}: give a MESSAGE_ID (see \`tempora review\`) or --all`, 'review');
    if ((action === 'approve' || action === 'reject') && id && all) throw new UsageError(`review ${action}: give a MESSAGE_ID or --all, not both`, 'review');
    if (!(action === 'approve' || action === 'reject') && (id || all)) throw new UsageError(`review ${action}: takes no MESSAGE_ID or --all`, 'review');
    if (action === 'list') {
      const { settings, reviews } = ctx.readMemory((memory) => ({ settings: memory.review.status(), reviews: memory.review.pending() }));
      if (ctx.json) return printJson(ctx.io, { ...settings, reviews });
      const state = `Review before remembering is ${settings.reviewBeforeRemembering ? 'on' : 'off'}`;
      return printLines(ctx.io, reviews.length ? [`${state}; ${plural(reviews.length, 'message')} waiting:`, ...lines(reviews)] : [`${state}; nothing waiting.`]);
    }
    const result = ctx.withMemory((memory) => {
      if (action === 'on' || action === 'off') return { settings: memory.review.setBeforeRemembering(action === 'on'), decided: 0, facts: 0 };
      const ids = all ? memory.review.pending().map((r) => r.episodeId) : [id!];
      let facts = 0;
      for (const episodeId of ids) {
        if (action === 'approve') facts += memory.review.approve(episodeId).inserted.length;
        else memory.review.reject(episodeId);
      }
      return { settings: memory.review.status(), decided: ids.length, facts };
    });
    if (ctx.json) return printJson(ctx.io, result);
    const done =
      action === 'on' || action === 'off'
        ? `Review before remembering is ${action}.`
        : action === 'approve'
          ? `Approved ${plural(result.decided, 'message')}: ${plural(result.facts, 'fact version')} written.`
          : `Rejected ${plural(result.decided, 'message')}: nothing of ${result.decided === 1 ? 'it' : 'them'} is remembered (the messages are kept).`;
    printLines(ctx.io, [done, `${plural(result.settings.waiting, 'message')} waiting.`]);
  },
};
