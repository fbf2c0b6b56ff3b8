/**
 * Applies the temporal rules to the store: reads a slot's live versions back as claims, adds the
 * new claims, resolves the slot, and writes only the differences — an unchanged fact stays as it
 * is; a changed one is expired and replaced by a new version that `supersedes` it (rule 1).
 */
import type { Cardinality, FactOrigin } from '../../shared/memory-schema';
import type { Clock } from './clock';
import { FactRows, objectKeyOf, type FactRow } from './fact-rows';
import { newId } from './ids';
import { resolveSlot, type Claim, type EndKind, type Span } from './temporal-rules';

export interface NewClaim {
  subjectId: string;
  predicate: string;
  objectId: string | null;
  objectLiteral: string | null;
  fact: string;
  cardinality: Cardinality;
  validAt: string;
  referenceTime: string;
  end: { at: string; kind: 'explicit' | 'judged'; by: string | null } | null;
  episodeIds: string[];
  origin: FactOrigin;
  /** A live version this claim replaces (a user edit): the result supersedes it. */
  replaces?: FactRow;
}

type Payload = { kind: 'stored'; row: FactRow } | { kind: 'new'; claim: NewClaim };

export interface SlotChanges {
  /** Ids of versions written. */
  inserted: string[];
  /** Ids of brand-new facts (first versions of new chains). */
  created: string[];
  /** Ids of versions expired. */
  expired: string[];
  /** Versions written that closed a fact that was open before. */
  closed: string[];
  /** Live facts that only gained a source episode. */
  confirmed: string[];
}

export function emptyChanges(): SlotChanges {
  return { inserted: [], created: [], expired: [], closed: [], confirmed: [] };
}

export function mergeChanges(into: SlotChanges, from: SlotChanges): void {
  into.inserted.push(...from.inserted);
  into.created.push(...from.created);
  into.expired.push(...from.expired);
  into.closed.push(...from.closed);
  into.confirmed.push(...from.confirmed);
}

export class SlotResolver {
  constructor(
    private readonly rows: FactRows,
    private readonly clock: Clock,
  ) {}

  /**
   * Re-resolves the slot that `claims` belong to (all must share subject and predicate). A `one`
   * predicate makes the whole (subject, predicate) one slot; otherwise each object is its own slot.
   */
  apply(claims: NewClaim[]): SlotChanges {
    const first = claims[0];
    if (!first) return emptyChanges();
    const allLive = this.rows.liveInSlot(first.subjectId, first.predicate, 'one', null);
    const replaced = new Set(claims.flatMap((c) => (c.replaces ? [c.replaces.id] : [])));
    const cardinality: Cardinality =
      claims.some((c) => c.cardinality === 'one') || allLive.some((r) => r.cardinality === 'one' && !replaced.has(r.id)) ? 'one' : 'many';
    const changes = emptyChanges();
    if (cardinality === 'one') {
      mergeChanges(changes, this.resolve(allLive, claims, 'one'));
    } else {
      const keys = new Set(claims.map((c) => objectKeyOf({ object_id: c.objectId, object_literal: c.objectLiteral })));
      for (const key of keys) {
        const slotClaims = claims.filter((c) => objectKeyOf({ object_id: c.objectId, object_literal: c.objectLiteral }) === key);
        const live = allLive.filter((r) => objectKeyOf(r) === key);
        mergeChanges(changes, this.resolve(live, slotClaims, 'many'));
      }
    }
    return changes;
  }

  /** Re-resolves a slot after something left it (forget, an edit that moved a fact elsewhere). */
  refresh(subjectId: string, predicate: string): SlotChanges {
    const live = this.rows.liveInSlot(subjectId, predicate, 'one', null);
    if (live.length === 0) return emptyChanges();
    if (live.some((r) => r.cardinality === 'one')) return this.resolve(live, [], 'one');
    const changes = emptyChanges();
    const keys = new Set(live.map(objectKeyOf));
    for (const key of keys) mergeChanges(changes, this.resolve(live.filter((r) => objectKeyOf(r) === key), [], 'many'));
    return changes;
  }

  private resolve(live: FactRow[], claims: NewClaim[], cardinality: Cardinality): SlotChanges {
    const replaced = new Set(claims.flatMap((c) => (c.replaces ? [c.replaces.id] : [])));
    const input: Claim<Payload>[] = [];
    for (const row of live) if (!replaced.has(row.id)) input.push(this.claimOfRow(row));
    for (const claim of claims) input.push(claimOfNew(claim));
    const spans = resolveSlot(input);

    const lineages = spans.map((span) => sourcesOf(span)[0]?.lineage_id ?? newId('fct'));
    const plans = spans.map((span, index) => this.plan(span, lineages[index]!, lineages, cardinality));
    const finalIds = plans.map((p) => p.finalId);
    const now = this.clock.now();
    const changes = emptyChanges();

    for (const plan of plans) {
      if (plan.kind === 'unchanged') {
        for (const episodeId of plan.newEpisodes) this.rows.link(plan.finalId, episodeId);
        if (plan.newEpisodes.length) changes.confirmed.push(plan.finalId);
        continue;
      }
      for (const source of plan.sources) {
        this.rows.expire(source.id, now);
        changes.expired.push(source.id);
      }
      const invalidatedBy = plan.end?.kind === 'successor' ? finalIds[plan.end.by]! : plan.end?.by ?? null;
      this.rows.insert({ ...plan.row, invalidated_by: invalidatedBy, created_at: now }, plan.episodes);
      changes.inserted.push(plan.finalId);
      if (plan.sources.length === 0) changes.created.push(plan.finalId);
      const wasOpen = plan.sources.some((s) => s.invalid_at === null);
      if (plan.row.invalid_at !== null && wasOpen) changes.closed.push(plan.finalId);
    }
    return changes;
  }

  private plan(span: Span<Payload>, lineage: string, lineages: string[], cardinality: Cardinality) {
    const sources = sourcesOf(span);
    const head = span.claims[0]!;
    const fresh = span.claims.flatMap((c) => (c.payload.kind === 'new' ? [c.payload.claim] : []));
    const edited = fresh.find((c) => c.replaces !== undefined);
    const headObject = head.payload.kind === 'stored' ? head.payload.row : toObjectColumns(head.payload.claim);
    const end = span.end;
    const endKind: EndKind = end === null ? 'open' : end.kind;
    const invalidatedByLineage = end?.kind === 'successor' ? lineages[end.by]! : end?.by ?? null;
    const origin: FactOrigin = edited ? edited.origin : head.payload.kind === 'stored' ? head.payload.row.origin : head.payload.claim.origin;
    const desired = {
      object_id: headObject.object_id,
      object_literal: headObject.object_literal,
      fact: head.text,
      cardinality,
      valid_at: span.validAt,
      invalid_at: end?.at ?? null,
      end_kind: endKind,
      reference_time: head.referenceTime,
    };
    const only = sources.length === 1 && !edited ? sources[0]! : undefined;
    if (only && sameValues(only, desired) && this.sameInvalidator(only, invalidatedByLineage, end?.kind)) {
      const known = new Set(this.rows.episodesOf(only.id));
      const newEpisodes = [...new Set(fresh.flatMap((c) => c.episodeIds))].filter((e) => !known.has(e));
      return { kind: 'unchanged' as const, finalId: only.id, newEpisodes, sources, end, row: only, episodes: [] as string[] };
    }
    // A span with no stored source is a new fact whose id was drawn as its lineage.
    const id = sources.length ? newId('fct') : lineage;
    const episodes = new Set<string>();
    for (const source of sources) for (const e of this.rows.episodesOf(source.id)) episodes.add(e);
    for (const claim of fresh) for (const e of claim.episodeIds) episodes.add(e);
    const firstFresh = fresh[0]!;
    const row: FactRow = {
      id,
      lineage_id: lineage,
      subject_id: sources[0]?.subject_id ?? firstFresh.subjectId,
      predicate: sources[0]?.predicate ?? firstFresh.predicate,
      ...desired,
      created_at: '',
      expired_at: null,
      invalidated_by: null,
      supersedes: sources[0]?.id ?? null,
      origin,
    };
    return { kind: 'write' as const, finalId: id, newEpisodes: [] as string[], sources, end, row, episodes: [...episodes] };
  }

  private sameInvalidator(row: FactRow, lineage: string | null, kind: string | undefined): boolean {
    if (row.invalidated_by === null || lineage === null) return row.invalidated_by === lineage;
    if (kind !== 'successor') return row.invalidated_by === lineage;
    return this.rows.byId(row.invalidated_by)?.lineage_id === lineage;
  }

  private claimOfRow(row: FactRow): Claim<Payload> {
    // A fact closed by a successor in its own slot is read back open: the successor closes it again.
    const end =
      row.invalid_at === null || row.end_kind === 'successor' || row.end_kind === 'open'
        ? null
        : { at: row.invalid_at, kind: row.end_kind, by: row.invalidated_by };
    return { objectKey: objectKeyOf(row), validAt: row.valid_at, referenceTime: row.reference_time, end, text: row.fact, payload: { kind: 'stored', row } };
  }
}

function claimOfNew(claim: NewClaim): Claim<Payload> {
  return {
    objectKey: objectKeyOf(toObjectColumns(claim)),
    validAt: claim.validAt,
    referenceTime: claim.referenceTime,
    end: claim.end,
    text: claim.fact,
    payload: { kind: 'new', claim },
  };
}

function toObjectColumns(claim: NewClaim): Pick<FactRow, 'object_id' | 'object_literal'> {
  return { object_id: claim.objectId, object_literal: claim.objectId === null ? claim.objectLiteral : null };
}

function sourcesOf(span: Span<Payload>): FactRow[] {
  return span.claims.flatMap((c) => (c.payload.kind === 'stored' ? [c.payload.row] : c.payload.claim.replaces ? [c.payload.claim.replaces] : []));
}

function sameValues(row: FactRow, desired: Omit<FactRow, 'id' | 'lineage_id' | 'subject_id' | 'predicate' | 'created_at' | 'expired_at' | 'invalidated_by' | 'supersedes' | 'origin'>): boolean {
  return (
    row.object_id === desired.object_id &&
    row.object_literal === desired.object_literal &&
    row.fact === desired.fact &&
    row.cardinality === desired.cardinality &&
    row.valid_at === desired.valid_at &&
    row.invalid_at === desired.invalid_at &&
    row.end_kind === desired.end_kind &&
    row.reference_time === desired.reference_time
  );
}
