/**
 * Undo what one message taught, in one write, keeping the message. The message stops being a
 * source: each claim it made alone goes (also one it made with the assistant's message it confirmed:
 * the assistant's word alone is never learned), a claim other messages also made only loses it as a
 * source, and a claim the user edited stays, the user's word; the live facts stop citing it. A fact chain left
 * with no claim was known only from this message and is forgotten whole (forget.ts: rows, full text,
 * and the caller removes its vectors). Then every slot it touched is re-resolved by the rules, so
 * what it closed opens again as a new version (the closed version stays in history: system time
 * shows both), unless something later closes it too. The message is marked undone and is never
 * learned again. Facts it only confirmed stay, without it as a source.
 */
import type { UndoReport } from '../../../shared/learning-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { learningRow, markUndone } from '../store/message-learning';
import type { WriteContext } from './write-batch';
import { forgetFact, type Forgotten } from './forget';

type Slot = { subject_id: string; predicate: string };

/** Whether some version of a fact, held now or in history, was observed from this message. */
function observedVersionCites(ctx: WriteContext, episodeId: string): boolean {
  return ctx.db.prepare("SELECT 1 FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE fe.episode_id = ? AND f.origin = 'observed' LIMIT 1").get(episodeId) !== undefined;
}

/** Adds the undo to the write; its report is made once the write has resolved the slots (`report`). */
export function undoLearning(ctx: WriteContext, episodeId: string): { report: () => UndoReport; forgotten: Forgotten } {
  if (!ctx.episodes.byId(episodeId)) throw new MemoryInputError(`no message with id ${episodeId}`, 'episodeId', 'not_found');
  const row = learningRow(ctx, episodeId);
  if (row?.undone_at) throw MemoryInputError.at(row.undone_at, (when) => `message ${episodeId} was already undone (at ${when}): there is nothing left to undo`, 'episodeId');
  const job = ctx.jobs.byEpisode(episodeId);
  if (!row && job?.status !== 'done') {
    // Facts given as they are (`tempora observe`, an agent's remember_facts) were never a model's
    // learning: there is no learning to take back, but the message did add and close facts. Told by
    // what it gave, as first given (a version of it stays in history after the user closes or edits
    // the fact: its claims are the user's then).
    if (!job && (ctx.claims.citing(episodeId).some((claim) => claim.origin === 'observed') || observedVersionCites(ctx, episodeId))) {
      throw new MemoryInputError(
        `message ${episodeId} is an observation (given with tempora observe or by an agent), not learned by a model, and undo takes back only what a model learned; ` +
          `to take back what it added and closed, forget it with what it taught (tempora forget --episode ${episodeId}, or in the app Forget on a fact it gave, with its sources), or correct a fact (tempora edit FACT_ID, or Edit on its page)`,
        'episodeId',
      );
    }
    const state = job ? { pending: 'waiting to be learned', running: 'being learned now', parked: 'parked: it could not be learned', done: '' }[job.status] : 'not for learning';
    throw new MemoryInputError(`message ${episodeId} has not been learned (it is ${state}): there is nothing to undo`, 'episodeId');
  }
  const recorded = {
    added: JSON.parse(row?.added ?? '[]') as string[],
    closed: JSON.parse(row?.closed ?? '[]') as string[],
    confirmed: JSON.parse(row?.confirmed ?? '[]') as string[],
  };
  const lineageOf = new Map([...recorded.added, ...recorded.closed, ...recorded.confirmed].flatMap((id) => {
    const r = ctx.rows.byId(id);
    return r ? [[id, r.lineage_id] as const] : [];
  }));
  const before = new Map([...lineageOf.keys()].map((id) => [id, ctx.rows.record(id)!]));
  const linked = ctx.db
    .prepare<[string], { lineage_id: string }>('SELECT DISTINCT f.lineage_id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE fe.episode_id = ?')
    .all(episodeId)
    .map((r) => r.lineage_id);

  // 1. The message stops being a source of any claim.
  const slots: Slot[] = [];
  const edited = new Set<string>();
  // What the assistant said counts only where the user confirmed it: a claim left with only the
  // assistant's message behind it goes too.
  const confirms = (id: string) => ctx.episodes.byId(id)?.role !== 'assistant';
  for (const claim of ctx.claims.citing(episodeId)) {
    const rest = (JSON.parse(claim.episode_ids) as string[]).filter((e) => e !== episodeId);
    if (claim.origin === 'user_edit') edited.add(claim.fact_id);
    if (rest.some(confirms) || claim.origin === 'user_edit') ctx.claims.setEpisodes(claim.id, rest);
    else ctx.claims.delete(claim.id);
    slots.push(claim);
  }
  // 2. Live versions stop citing it (history keeps what it once held).
  ctx.db
    .prepare('DELETE FROM fact_episodes WHERE episode_id = ? AND fact_id IN (SELECT fe.fact_id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE fe.episode_id = ? AND f.expired_at IS NULL)')
    .run(episodeId, episodeId);
  // 3. Chains whose live version has no claim left were known only from this message.
  const forgotten: Forgotten = { factIds: [], entityIds: [], entityNames: [], episodeIds: [] };
  const orphans: { lineage: string; record: FactRecord }[] = [];
  for (const lineage of new Set([...linked, ...recorded.added.map((id) => lineageOf.get(id)).filter((l) => l !== undefined)])) {
    const live = ctx.rows.liveVersionOf(lineage);
    if (!live || ctx.claims.ofFact(live.id).length > 0) continue;
    orphans.push({ lineage, record: ctx.rows.record(live.id)! });
    const gone = forgetFact(ctx, live.id);
    forgotten.factIds.push(...gone.factIds);
    forgotten.entityIds.push(...gone.entityIds);
    forgotten.entityNames.push(...gone.entityNames);
  }
  // 4. The slots it touched are resolved again: what it closed reopens unless something else closes it.
  const unique = new Map(slots.map((s) => [`${s.subject_id}\u0000${s.predicate}`, s]));
  for (const slot of unique.values()) ctx.slots.refresh(slot.subject_id, slot.predicate);

  let report: UndoReport | undefined;
  ctx.slots.afterCommit(() => {
    report = reportOf(ctx, { recorded, lineageOf, before, orphans, edited });
    markUndone(ctx, episodeId, report);
  });
  return {
    report: () => {
      if (!report) throw new Error(`internal: the undo of ${episodeId} was asked for its report before its write resolved`);
      return report;
    },
    forgotten,
  };
}

interface Facts {
  recorded: { added: string[]; closed: string[]; confirmed: string[] };
  lineageOf: Map<string, string>;
  before: Map<string, FactRecord>;
  orphans: { lineage: string; record: FactRecord }[];
  edited: Set<string>;
}

function reportOf(ctx: WriteContext, { recorded, lineageOf, before, orphans, edited }: Facts): UndoReport {
  const liveOf = (id: string) => {
    const lineage = lineageOf.get(id);
    const live = lineage === undefined ? undefined : ctx.rows.liveVersionOf(lineage);
    return live ? ctx.rows.record(live.id) : undefined;
  };
  const report: UndoReport = { at: ctx.clock.now(), forgotten: [], kept: [], reopened: [], stillClosed: [], unconfirmed: [] };
  for (const id of recorded.added) {
    const now = liveOf(id);
    const was = before.get(id);
    if (!now) {
      if (was) report.forgotten.push(was);
    } else {
      report.kept.push({ fact: now, reason: edited.has(now.id) ? 'you edited it, so your edit stays' : 'another message also says it' });
    }
  }
  // Facts known only from this message that its record does not name (learned before 0012).
  const named = new Set(recorded.added.map((id) => lineageOf.get(id)));
  for (const orphan of orphans) if (!named.has(orphan.lineage)) report.forgotten.push(orphan.record);
  for (const id of recorded.closed) {
    const now = liveOf(id);
    if (!now) continue; // forgotten since (by the user, or with what it was known from)
    if (now.invalid_at === null) report.reopened.push(now);
    else report.stillClosed.push({ fact: now, reason: closedReason(ctx, now) });
  }
  for (const id of recorded.confirmed) {
    const now = liveOf(id);
    if (now) report.unconfirmed.push(now);
  }
  return report;
}

function closedReason(ctx: WriteContext, fact: FactRecord): string {
  const closer = fact.invalidated_by ? ctx.rows.record(fact.invalidated_by) : undefined;
  if (closer) return `“${closer.fact}” closes it`;
  return fact.origin === 'user_edit' ? 'you closed it yourself' : 'another message gives it an end';
}
