/**
 * `tempora queue [pause|resume|cancel|requeue]`: the backfill of imported chat histories — how many
 * messages are learned and left, the rate and the time left — and pausing it (kept across
 * restarts: the app and every command see it), resuming, or cancelling what is left (the messages
 * stay stored as history, only their learning is set aside), and requeue to take a cancel back.
 * Live chat is learned either way.
 */
import type { BackfillStatus } from '../../memory/index';
import type { CommandSpec } from '../command';
import { UsageError } from '../errors';
import { formatCount } from '../../../shared/count-words';
import { plural, printJson, printLines } from '../output';

const count = (n: number) => formatCount(n, 'en-US');

const ACTIONS = ['status', 'pause', 'resume', 'cancel', 'requeue'] as const;

export const queueCommand: CommandSpec = {
  name: 'queue',
  summary: 'see, pause, resume, cancel or requeue the learning of imported chats',
  synopsis: 'queue [status|pause|resume|cancel|requeue]',
  description: [
    'status (the default): imported messages learned and left, the rate over the last ten minutes, the time left.',
    'pause: the app stops taking imported messages (after the one in flight) until resumed, also after a restart.',
    'resume: learning continues. cancel: the imported messages not yet learned are not learned (they stay stored).',
    'requeue: takes a cancel back: the cancelled messages wait to be learned again, in their order.',
  ],
  options: {},
  positionals: { min: 0, max: 1, name: 'ACTION' },
  run(ctx) {
    const action = ctx.positionals[0] ?? 'status';
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`queue: unknown action ${JSON.stringify(action)} (use ${ACTIONS.join(', ')})`, 'queue');
    const { status, changed } = ctx.withMemory((memory) => {
      if (action === 'pause' || action === 'resume') memory.history.setBackfillPaused(action === 'pause');
      const changed = action === 'cancel' ? memory.history.cancelBackfill() : action === 'requeue' ? memory.history.requeueBackfill() : undefined;
      return { status: memory.history.backfillStatus(), changed };
    });
    if (ctx.json) return printJson(ctx.io, { ...status, ...(action === 'cancel' ? { cancelledNow: changed } : action === 'requeue' ? { requeued: changed } : {}) });
    const said =
      action === 'cancel'
        ? [`Cancelled the learning of ${plural(changed!, 'imported message')} (they stay stored; 'tempora queue requeue' takes this back).`]
        : action === 'requeue'
          ? [changed ? `Requeued ${plural(changed, 'imported message')}: ${changed === 1 ? 'it waits' : 'they wait'} to be learned again, in ${changed === 1 ? 'its' : 'their'} order.` : 'Nothing was cancelled: nothing to requeue.']
          : [];
    printLines(ctx.io, [...said, backfillLine(status)]);
  },
};

/** "Imported chats: 1,120 of 4,000 learned, 2,880 left · 12.5 a minute · about 3.8 h left (paused)". */
export function backfillLine(status: BackfillStatus): string {
  const cancelled = status.cancelled ? ` · ${count(status.cancelled)} cancelled ('tempora queue requeue' learns them)` : '';
  if (status.total === 0) return `Imported chats: nothing queued for learning${cancelled}.`;
  const left = status.pending + status.running;
  const parts = [`Imported chats: ${count(status.done)} of ${count(status.total)} learned, ${count(left)} left${status.parked ? `, ${count(status.parked)} parked` : ''}`];
  if (status.perMinute !== null && left > 0 && !status.paused) parts.push(`${count(status.perMinute)} a minute`);
  if (status.secondsLeft !== null && !status.paused) parts.push(`about ${duration(status.secondsLeft)} left`);
  return `${parts.join(' · ')}${status.paused ? ' (paused: tempora queue resume)' : ''}${cancelled}.`;
}

function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${count(Math.round(seconds / 360) / 10)} h`;
}
