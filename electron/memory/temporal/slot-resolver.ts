/**
 * Resolves one slot, once per write (write-batch.ts): the slot's stored claims plus the write's new
 * ones go through the rules (temporal-rules.ts) and only the differences are written: an unchanged
 * fact stays as it is (perhaps citing one more episode); a changed one is expired and replaced by a
 * new version that `supersedes` it (rule 1); a new span becomes a new fact.
 *
 * Which stored claims are read is one policy (claimsToRead): only those the new claims can meet.
 */
import type { Cardinality, FactOrigin, Precision } from '../../../shared/memory-schema';
import type { ClaimRow, ClaimRows } from '../store/claim-rows';
import { objectKeyOf, type FactRow, type FactRows } from '../store/fact-rows';
import { newId } from '../store/ids';
import { resolveSlot, type Claim, type EndKind, type Span } from './temporal-rules';
import { emptyChanges, mergeChanges, type SlotChanges } from '../store/slot-changes';
import { MIN_ISO_TIME, type IsoTime } from '../../../shared/time';

export { emptyChanges, mergeChanges, type SlotChanges };

export interface NewClaim {
  subjectId: string;
  predicate: string;
  objectId: string | null;
  objectLiteral: string | null;
  fact: string;
  cardinality: Cardinality;
  validAt: IsoTime;
  /** How precisely validAt was said. */
  validPrecision: Precision;
  referenceTime: IsoTime;
  /**
   * `by`: the fact whose judgement ended it (judged ends), or a claim of the same write (the fact
   * that holds it once its slot is resolved: write-batch.ts).
   */
  end: { at: IsoTime; kind: 'explicit' | 'judged'; by: string | { claim: NewClaim } | null; precision: Precision } | null;
  episodeIds: string[];
  origin: FactOrigin;
  /** A live version this claim replaces (a user edit): its claims are dropped, the result supersedes it. */
  replaces?: FactRow;
  /** The claim's id on every device, when another device made it (memory/sync/); else one is drawn. */
  syncId?: string;
}

/** A claim on its way through resolution: stored (has an id) or new. */
interface Evidence {
  id?: number;
  /** The live fact it belongs to now (stored claims), or the one it replaces (edits). */
  sourceFactId: string | null;
  row: Omit<ClaimRow, 'id' | 'fact_id'>;
  edit: boolean;
  /** The new claim it came from. */
  claim?: NewClaim;
}

export interface SlotResolution {
  changes: SlotChanges;
  /** The fact each new claim is held by. */
  holders: Map<NewClaim, string>;
}

export class SlotResolver {
  /** The stored facts of the group being resolved, by id. */
  private known = new Map<string, FactRow>();
  private holders = new Map<NewClaim, string>();

  constructor(
    private readonly facts: FactRows,
    private readonly claims: ClaimRows,
  ) {}

  /**
   * Resolves a slot with the write's new claims (all of this subject and predicate) at system time
   * `now`; `whole`: something left the slot, read all of it; `nothingStored`: the store holds none
   * of the slot's claims or facts (write-batch.ts assumeNothingStored), read nothing.
   */
  resolveSlot(subjectId: string, predicate: string, newClaims: NewClaim[], options: { whole: boolean; now: IsoTime; nothingStored?: boolean }): SlotResolution {
    this.holders = new Map();
    if (options.nothingStored && (options.whole || newClaims.some((c) => c.replaces))) throw new Error('internal: a slot said to hold nothing stored was changed as if it did');
    for (const claim of newClaims) if (claim.replaces) for (const old of this.claims.ofFact(claim.replaces.id)) this.claims.delete(old.id);
    const fresh = newClaims.map(evidenceOfNew);
    const read = options.nothingStored ? { window: [], known: null } : options.whole || newClaims.length === 0 ? { window: null, known: null } : this.claimsToRead(subjectId, predicate, newClaims);
    const changes = this.resolveAll(subjectId, predicate, fresh, options.now, read.window, read.known);
    return { changes, holders: this.holders };
  }

  /**
   * The stored claims new ones can meet (null: the whole slot), and the slot's cardinality when
   * those cannot tell it. A `many` slot's claims interact only with claims about the same object:
   * only those are read (by index), so a write costs the same however many objects the slot holds.
   * In a slot already one-valued, the spans before the latest claim before the earliest new one end
   * at or before it and cannot change: only the facts holding claims from that one on are read (the
   * usual "now it is B" reads the latest fact only). A slot turning one-valued now, or an edit of a
   * one-valued fact (which may move it anywhere), is read whole.
   */
  private claimsToRead(subjectId: string, predicate: string, newClaims: NewClaim[]): { window: ClaimRow[] | null; known: Cardinality | null } {
    const storedOne = this.claims.hasOneValued(subjectId, predicate);
    if (!storedOne && newClaims.every((c) => c.cardinality === 'many')) {
      const objects = [...new Set(newClaims.flatMap((c) => [objectKeyOf({ object_id: c.objectId, object_literal: c.objectLiteral }), ...(c.replaces ? [objectKeyOf(c.replaces)] : [])]))];
      return { window: this.claims.inSlotAbout(subjectId, predicate, objects), known: null };
    }
    if (!storedOne || newClaims.some((c) => c.replaces)) return { window: null, known: null };
    const earliest = newClaims.reduce((t, c) => (c.validAt < t ? c.validAt : t), newClaims[0]!.validAt);
    const window = this.claims.fromLatestBefore(subjectId, predicate, earliest);
    return window ? { window, known: 'one' } : { window: null, known: null };
  }

  /**
   * `window`: the stored claims that can interact with the fresh ones (default: the whole slot);
   * `known`: the slot's cardinality when the window cannot tell it.
   */
  private resolveAll(subjectId: string, predicate: string, fresh: Evidence[], now: IsoTime, window: ClaimRow[] | null, known: Cardinality | null): SlotChanges {
    const rows = window ?? this.claims.inSlot(subjectId, predicate);
    const stored: Evidence[] = rows.map((c) => {
      const { id, fact_id, ...row } = c;
      return { id, sourceFactId: fact_id, row, edit: false };
    });
    const all = [...stored, ...fresh];
    // A `one` predicate makes (subject, predicate) one slot; otherwise every object is its own slot.
    const cardinality: Cardinality = known ?? (all.some((e) => e.row.cardinality === 'one') ? 'one' : 'many');
    const groups = new Map<string, Evidence[]>();
    for (const evidence of all) {
      const key = cardinality === 'one' ? '' : objectKeyOf(evidence.row);
      const group = groups.get(key);
      if (group) group.push(evidence);
      else groups.set(key, [evidence]);
    }
    const changes = emptyChanges();
    for (const group of groups.values()) mergeChanges(changes, this.resolve(group, cardinality, now));
    return changes;
  }

  private resolve(evidence: Evidence[], cardinality: Cardinality, writeTime: IsoTime): SlotChanges {
    const spans = resolveSlot(evidence.map(toClaim));
    const claimsPerFact = new Map<string, number>();
    for (const e of evidence) if (e.sourceFactId && !e.edit) claimsPerFact.set(e.sourceFactId, (claimsPerFact.get(e.sourceFactId) ?? 0) + 1);

    // Each stored fact continues in the first span that holds its claims; later spans are new facts.
    const assigned = new Set<string>();
    // Every stored fact of the group in one query (a `one` slot may hold thousands of spans).
    this.known = this.facts.byIds([...new Set(evidence.flatMap((e) => (e.sourceFactId ? [e.sourceFactId] : [])))]);
    const sources = spans.map((span) => {
      const ids: string[] = [];
      for (const claim of span.claims) {
        const id = claim.payload.sourceFactId;
        if (id && !assigned.has(id)) {
          assigned.add(id);
          ids.push(id);
        }
      }
      return ids.map((id) => this.known.get(id) ?? this.facts.byId(id)!);
    });
    const lineages = sources.map((s) => s[0]?.lineage_id ?? newId('fct'));
    const plans = spans.map((span, i) => this.plan(span, spans, sources[i]!, lineages[i]!, lineages, claimsPerFact, cardinality));
    const finalIds = plans.map((p) => p.finalId);
    // A version is never expired before it was recorded: a memory whose clock is behind its data
    // (imported from a machine whose clock ran ahead) records this write at the latest of them.
    let now = writeTime;
    for (const source of sources.flat()) if (source.created_at > now) now = source.created_at;
    const changes = emptyChanges();

    spans.forEach((span, i) => {
      const plan = plans[i]!;
      if (plan.kind === 'write') {
        for (const source of sources[i]!) {
          this.facts.expire(source.id, now);
          changes.expired.push(source.id);
        }
        const invalidatedBy = span.end?.kind === 'successor' ? finalIds[span.end.by]! : (span.end?.by ?? null);
        this.facts.insert({ ...plan.row, invalidated_by: invalidatedBy, created_at: now }, plan.episodes);
        changes.inserted.push(plan.finalId);
        if (sources[i]!.length === 0) changes.created.push(plan.finalId);
        if (plan.row.invalid_at !== null && sources[i]!.some((s) => s.invalid_at === null)) changes.closed.push(plan.finalId);
      } else {
        for (const episodeId of plan.episodes) this.facts.link(plan.finalId, episodeId);
        if (plan.episodes.length) changes.confirmed.push(plan.finalId);
      }
      for (const claim of span.claims) {
        const e = claim.payload;
        if (e.id !== undefined) {
          if (e.sourceFactId !== plan.finalId) this.claims.move(e.id, plan.finalId);
        } else {
          this.claims.insert({ ...e.row, fact_id: plan.finalId, sync_id: e.claim?.syncId ?? null });
          if (e.claim) this.holders.set(e.claim, plan.finalId);
        }
      }
    });
    return changes;
  }

  private plan(span: Span<Evidence>, spans: Span<Evidence>[], sources: FactRow[], lineage: string, lineages: string[], claimsPerFact: Map<string, number>, cardinality: Cardinality) {
    const head = span.claims[0]!.payload.row;
    const edit = span.claims.find((c) => c.payload.edit)?.payload;
    const end = span.end;
    const endKind: EndKind = end === null ? 'open' : end.kind;
    const desired = {
      object_id: head.object_id,
      object_literal: head.object_id === null ? head.object_literal : null,
      fact: head.fact,
      cardinality,
      valid_at: span.validAt,
      valid_at_precision: head.valid_at_precision,
      invalid_at: end?.at ?? null,
      invalid_at_precision: endPrecision(span, spans),
      end_kind: endKind,
      reference_time: head.reference_time,
    };
    const only = sources.length === 1 ? sources[0]! : undefined;
    // A span made only of its fact's stored claims cites nothing new: its episodes need no reading.
    const untouched = only !== undefined && span.claims.every((c) => c.payload.id !== undefined && c.payload.sourceFactId === only.id);
    const episodesOfSpan = () => [...new Set(span.claims.flatMap((c) => JSON.parse(c.payload.row.episode_ids) as string[]))];
    const holdsAllItsClaims = only !== undefined && span.claims.filter((c) => c.payload.sourceFactId === only.id && !c.payload.edit).length === claimsPerFact.get(only.id);
    const invalidatorLineage = end?.kind === 'successor' ? lineages[end.by]! : (end?.by ?? null);
    if (only && !edit && holdsAllItsClaims && sameValues(only, desired) && this.sameInvalidator(only, invalidatorLineage, end?.kind)) {
      if (untouched) return { kind: 'keep' as const, finalId: only.id, episodes: [], row: only };
      const known = new Set(this.facts.episodesOf(only.id));
      return { kind: 'keep' as const, finalId: only.id, episodes: episodesOfSpan().filter((e) => !known.has(e)), row: only };
    }
    // A span with no stored source is a new fact: its id is the lineage drawn for it.
    const id = sources.length ? newId('fct') : lineage;
    const origin: FactOrigin = edit ? edit.row.origin : (sources[0]?.origin ?? head.origin);
    const row: FactRow = {
      id,
      lineage_id: lineage,
      subject_id: head.subject_id,
      predicate: head.predicate,
      ...desired,
      created_at: MIN_ISO_TIME, // a placeholder: the write stamps it (resolve)
      expired_at: null,
      invalidated_by: null,
      supersedes: sources[0]?.id ?? null,
      origin,
    };
    return { kind: 'write' as const, finalId: id, episodes: episodesOfSpan(), row };
  }

  private sameInvalidator(row: FactRow, lineage: string | null, kind: string | undefined): boolean {
    if (row.invalidated_by === null || lineage === null) return row.invalidated_by === lineage;
    if (kind !== 'successor') return row.invalidated_by === lineage;
    return (this.known.get(row.invalidated_by) ?? this.facts.byId(row.invalidated_by))?.lineage_id === lineage;
  }
}

/**
 * How precisely the span's end was said: a successor's end is its start; a stated end is that of
 * the claim whose end the span took (mergeEnds keeps the claim's own end object).
 */
function endPrecision(span: Span<Evidence>, spans: Span<Evidence>[]): Precision | null {
  const end = span.end;
  if (end === null) return null;
  if (end.kind === 'successor') return spans[end.by]!.claims[0]!.payload.row.valid_at_precision;
  return span.claims.find((c) => c.end === end)?.payload.row.end_precision ?? 'instant';
}

function evidenceOfNew(claim: NewClaim): Evidence {
  const by = claim.end?.by;
  return {
    claim,
    sourceFactId: claim.replaces?.id ?? null,
    edit: claim.replaces !== undefined,
    row: {
      subject_id: claim.subjectId,
      predicate: claim.predicate,
      object_id: claim.objectId,
      object_literal: claim.objectId === null ? claim.objectLiteral : null,
      fact: claim.fact,
      cardinality: claim.cardinality,
      valid_at: claim.validAt,
      valid_at_precision: claim.validPrecision,
      reference_time: claim.referenceTime,
      end_at: claim.end?.at ?? null,
      end_precision: claim.end?.precision ?? null,
      end_kind: claim.end?.kind ?? null,
      end_by: typeof by === 'string' ? by : null,
      episode_ids: JSON.stringify(claim.episodeIds),
      origin: claim.origin,
    },
  };
}

function toClaim(evidence: Evidence): Claim<Evidence> {
  const r = evidence.row;
  return {
    objectKey: objectKeyOf(r),
    validAt: r.valid_at,
    referenceTime: r.reference_time,
    end: r.end_at === null ? null : { at: r.end_at, kind: r.end_kind ?? 'explicit', by: r.end_by },
    text: r.fact,
    payload: evidence,
  };
}

type Compared = 'object_id' | 'object_literal' | 'fact' | 'cardinality' | 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision' | 'end_kind' | 'reference_time';

function sameValues(row: FactRow, desired: Pick<FactRow, Compared>): boolean {
  return (
    row.object_id === desired.object_id &&
    row.object_literal === desired.object_literal &&
    row.fact === desired.fact &&
    row.cardinality === desired.cardinality &&
    row.valid_at === desired.valid_at &&
    row.valid_at_precision === desired.valid_at_precision &&
    row.invalid_at === desired.invalid_at &&
    row.invalid_at_precision === desired.invalid_at_precision &&
    row.end_kind === desired.end_kind &&
    row.reference_time === desired.reference_time
  );
}
