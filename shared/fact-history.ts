/**
 * A fact's history as a person reads it: for each version, what changed from the one before
 * (field: before → after, times at the precision they were said) and why (your edit; closed by
 * another fact; re-resolved because another fact was edited; imported; learned from a message).
 * Pure: the fact page and `tempora show` both use it. The why comes from the version's fields and
 * the cause its write recorded (the memory keeps one per version it writes).
 */
import { z } from 'zod';
import { isoTime, precision, type FactRecord, type Precision } from './memory-schema';
import { formatSaid, isPast, type Now, type TimeFormat } from './time-format';

/** What a write that wrote versions was doing (recorded on each version it wrote). */
export const writeCause = z.discriminatedUnion('kind', [
  /**
   * The user edited (or closed) fact `fact` (the version they edited); `end`: the end they gave
   * (null: they took it away), absent when the edit left the end alone. A one-valued fact keeps an
   * end given past the next value's start without moving (shared/end-held-back.ts), so the version
   * says it: no field of its own shows it.
   */
  z.strictObject({ kind: z.enum(['edit', 'close']), fact: z.string(), end: z.strictObject({ at: isoTime, precision }).nullable().optional() }),
  z.strictObject({ kind: z.literal('learned'), episode: z.string() }),
  z.strictObject({ kind: z.literal('observed'), episodes: z.array(z.string()) }),
  z.strictObject({ kind: z.enum(['forget', 'migrated', 'undo']) }),
]);
export type WriteCause = z.infer<typeof writeCause>;

type TimeValue = { at: string; precision: Precision };

export type FieldChange =
  | { field: 'fact' | 'object'; before: string; after: string }
  | { field: 'valid_at' | 'invalid_at'; before: TimeValue | null; after: TimeValue | null }
  | { field: 'episode_ids'; added: string[]; removed: string[] }
  /** An end the user gave (or took away) that the next value's start holds back: the version's own end stays. */
  | { field: 'end_given'; before: TimeValue | null; after: TimeValue | null };

export type VersionReason =
  | { kind: 'first'; origin: FactRecord['origin']; episode: string | null }
  | { kind: 'edit' | 'close' }
  | { kind: 'closed_by'; fact: string; episode: string | null }
  | { kind: 'reopened' }
  | { kind: 'reresolved_edit'; fact: string }
  | { kind: 'learned' | 'observed'; episode: string | null }
  | { kind: 'imported' | 'forget' | 'migrated' | 'undo' | 'unknown' };

export interface VersionChange {
  id: string;
  /** The version this one follows (null for the first). */
  previous: string | null;
  changes: FieldChange[];
  reason: VersionReason;
}

type Version = Pick<
  FactRecord,
  'id' | 'fact' | 'object' | 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision' | 'episode_ids' | 'invalidated_by' | 'supersedes' | 'origin'
>;

/** The difference between two consecutive versions, field by field (nothing when they are equal). */
export function diffVersions(before: Version, after: Version): FieldChange[] {
  const changes: FieldChange[] = [];
  if (before.fact !== after.fact) changes.push({ field: 'fact', before: before.fact, after: after.fact });
  if (before.object !== after.object) changes.push({ field: 'object', before: before.object, after: after.object });
  if (before.valid_at !== after.valid_at || before.valid_at_precision !== after.valid_at_precision) {
    changes.push({ field: 'valid_at', before: { at: before.valid_at, precision: before.valid_at_precision }, after: { at: after.valid_at, precision: after.valid_at_precision } });
  }
  if (before.invalid_at !== after.invalid_at || (before.invalid_at !== null && before.invalid_at_precision !== after.invalid_at_precision)) {
    changes.push({ field: 'invalid_at', before: endOf(before), after: endOf(after) });
  }
  const added = after.episode_ids.filter((e) => !before.episode_ids.includes(e));
  const removed = before.episode_ids.filter((e) => !after.episode_ids.includes(e));
  if (added.length || removed.length) changes.push({ field: 'episode_ids', added, removed });
  return changes;
}

/** Each version (oldest first) with what changed from the one it follows, and why. */
export function versionChanges(versions: readonly Version[], causes: Readonly<Record<string, WriteCause>>): VersionChange[] {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const ids = new Set(byId.keys());
  let given: TimeValue | null = null;
  return versions.map((version, index) => {
    const previous = (version.supersedes !== null ? byId.get(version.supersedes) : undefined) ?? (index > 0 ? versions[index - 1] : undefined);
    const cause = causes[version.id];
    if (!previous) return { id: version.id, previous: null, changes: [], reason: firstReason(version, cause) };
    const changes = diffVersions(previous, version);
    if ((cause?.kind === 'edit' || cause?.kind === 'close') && cause.end !== undefined) {
      if (heldBack(version, cause.end)) changes.push({ field: 'end_given', before: given, after: cause.end });
      given = cause.end;
    }
    return { id: version.id, previous: previous.id, changes, reason: laterReason(previous, version, cause, ids) };
  });
}

/** The end given is not the version's own: the next value's start holds it back (or, taken away, still closes it). */
function heldBack(version: Version, end: TimeValue | null): boolean {
  if (version.invalid_at === null || version.invalidated_by === null) return false;
  return end === null || end.at !== version.invalid_at;
}

function firstReason(version: Version, cause: WriteCause | undefined): VersionReason {
  const episode = cause?.kind === 'learned' ? cause.episode : (version.episode_ids[0] ?? null);
  return { kind: 'first', origin: version.origin, episode };
}

function laterReason(previous: Version, version: Version, cause: WriteCause | undefined, lineage: Set<string>): VersionReason {
  const episode = cause?.kind === 'learned' ? cause.episode : cause?.kind === 'observed' ? (cause.episodes[0] ?? null) : null;
  if (cause?.kind === 'edit' || cause?.kind === 'close') return lineage.has(cause.fact) ? { kind: cause.kind } : { kind: 'reresolved_edit', fact: cause.fact };
  if (version.invalidated_by !== null && version.invalidated_by !== previous.invalidated_by) return { kind: 'closed_by', fact: version.invalidated_by, episode };
  if (previous.invalid_at !== null && version.invalid_at === null && previous.invalidated_by !== null) return { kind: 'reopened' };
  if (cause?.kind === 'learned' || cause?.kind === 'observed') return { kind: cause.kind, episode };
  if (cause) return { kind: cause.kind };
  if (version.origin === 'import') return { kind: 'imported' };
  if (version.origin === 'user_edit') return { kind: 'edit' };
  return { kind: 'unknown' };
}

const endOf = (v: Version): TimeValue | null => (v.invalid_at === null ? null : { at: v.invalid_at, precision: v.invalid_at_precision ?? 'instant' });

const FIELD_WORDS: Record<FieldChange['field'], string> = {
  fact: 'sentence',
  object: 'value',
  valid_at: 'true from',
  invalid_at: 'true until',
  episode_ids: 'sources',
  end_given: 'end you gave',
};

/** "true until: still true → 15 Sep 2026", in the user's zone at the precision each time was said. */
export function describeChange(change: FieldChange, format: TimeFormat): string {
  const name = FIELD_WORDS[change.field];
  switch (change.field) {
    case 'fact':
    case 'object':
      return `${name}: “${change.before}” → “${change.after}”`;
    case 'end_given': {
      const after = change.after === null ? 'none' : formatSaid(change.after.at, change.after.precision, format, true);
      const before = change.before === null || change.after !== null ? '' : `${formatSaid(change.before.at, change.before.precision, format, true)} → `;
      return `${name}: ${before}${after} (${change.after === null ? '' : 'kept: '}it still ends where the next value begins)`;
    }
    case 'valid_at':
    case 'invalid_at': {
      const word = (t: TimeValue | null) => (t === null ? (change.field === 'invalid_at' ? 'still true' : 'none') : formatSaid(t.at, t.precision, format, change.field === 'invalid_at'));
      return `${name}: ${word(change.before)} → ${word(change.after)}`;
    }
    case 'episode_ids': {
      const parts = [change.added.length ? `+${change.added.length} message${change.added.length === 1 ? '' : 's'}` : '', change.removed.length ? `−${change.removed.length} message${change.removed.length === 1 ? '' : 's'}` : ''];
      return `${name}: ${parts.filter(Boolean).join(', ')}`;
    }
  }
}

/**
 * Why a version exists, in words, with the fact or message it points at (for a link). `version`: the
 * version it explains — "you closed it" only for an end that has come; one still to come is an end
 * you set.
 */
export function describeReason(reason: VersionReason, version?: Pick<FactRecord, 'invalid_at'>, now: Now = Date.now()): { text: string; link: { kind: 'fact' | 'message'; id: string } | null } {
  const message = (id: string | null, text: string) => ({ text, link: id === null ? null : { kind: 'message' as const, id } });
  switch (reason.kind) {
    case 'first':
      if (reason.origin === 'import') return { text: 'imported', link: null };
      if (reason.origin === 'user_edit') return { text: 'entered by you', link: null };
      if (reason.origin === 'observed') return message(reason.episode, 'observed (structured input)');
      return message(reason.episode, 'learned from a message');
    case 'edit':
      return { text: 'your edit', link: null };
    case 'close':
      return { text: version?.invalid_at && !isPast(version.invalid_at, now) ? 'you set its end' : 'you closed it', link: null };
    case 'closed_by':
      return { text: 'closed by another fact', link: { kind: 'fact', id: reason.fact } };
    case 'reopened':
      return { text: 'reopened: what had closed it is gone', link: null };
    case 'reresolved_edit':
      return { text: 're-resolved because another fact was edited', link: { kind: 'fact', id: reason.fact } };
    case 'learned':
      return message(reason.episode, 'learned from a message');
    case 'observed':
      return message(reason.episode, 'observed (structured input)');
    case 'imported':
      return { text: 'imported', link: null };
    case 'forget':
      return { text: 're-resolved because a fact was forgotten', link: null };
    case 'migrated':
      return { text: 're-resolved when the memory was upgraded', link: null };
    case 'undo':
      return { text: 're-resolved because a learning was undone', link: null };
    default:
      return { text: 'rewritten by the memory', link: null };
  }
}
