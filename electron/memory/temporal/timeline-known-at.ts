/**
 * The timeline's kept rows as they were at a known-at time K (issue 26), for the window read from
 * them (timeline-kept-window.ts, through timeline-kept-rows.ts). What was held at K is what is held
 * now, less the versions recorded since (held now, created_at > K: "recorded"), plus those replaced
 * since (created_at <= K < expired_at: "replaced") — both found by index (facts_live_by_created_at,
 * facts_replaced_by_expired_at, migration 0025) and read whole, covered. So the rows at K are the
 * kept rows (store/timeline-rows.ts) with that change undone: counts by arithmetic; a changed row's first and last start or end again
 * from its held facts by index (one step, past the ones recorded since); the subjects that did not
 * yet exist taken out of the order and those since gone put back, by comparing their keys; the
 * density the kept hours' with the change's starts and ends taken out and put back.
 *
 * Cost: the change since K and the rows on screen, not the memory: a recent K (what was known
 * yesterday, last week) is about as fast as now. A change of more than MAX_CHANGE versions, or more
 * than MAX_MOVED subjects come or gone, is not undone: the rows are read from the lives kept in system
 * time instead (timeline-known-far.ts), whose cost does not grow with the change.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { densityGrid, keptDensity, timelineDensity, type TimelineDensity } from './timeline-density';
import { keptRowsNow, type KeptRows, type KeptSlot, type KeptSubject } from './timeline-kept-rows';
import { keptRowsKnownFar } from './timeline-known-far';
import { MIN_ISO_TIME, type IsoTime } from '../../../shared/time';

/** The most versions recorded or replaced since K that are undone; more: the lives (timeline-known-far.ts). */
export const MAX_CHANGE = 50_000;
/** The most subjects come or gone since K; more: the lives. */
export const MAX_MOVED = 200;
const HOUR = 3_600_000;
const HELD_AT = 'f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt)';

interface Change {
  subject_id: string;
  predicate: string;
  valid_at: IsoTime;
  invalid_at: IsoTime | null;
  /** -1: recorded since K (not held then); +1: replaced since K (held then). */
  sign: number;
}

interface SlotChange {
  subject_id: string;
  predicate: string;
  dn: number;
  dopen: number;
  /** Versions replaced since K: held then, not now. */
  back: Change[];
}

const SURROGATE = /[\uD800-\uDFFF]/;
/** Strings in SQLite's BINARY order (UTF-8 bytes: UTF-16 order but for characters past U+FFFF). */
const binary = (a: string, b: string) => (SURROGATE.test(a) || SURROGATE.test(b) ? Buffer.compare(Buffer.from(a), Buffer.from(b)) : a < b ? -1 : a > b ? 1 : 0);
/** The timeline's order: the user's first, then sort_key, name, id. */
const order = (a: KeptSubject, b: KeptSubject) => b.mine - a.mine || binary(a.sort_key, b.sort_key) || binary(a.name, b.name) || binary(a.subject_id, b.subject_id);
const lastOf = (c: { valid_at: IsoTime; invalid_at: IsoTime | null }) => (c.invalid_at !== null && c.invalid_at > c.valid_at ? c.invalid_at : c.valid_at);
const minOf = <T extends string>(xs: (T | null | undefined)[]) => xs.reduce<T | null>((m, x) => (x == null ? m : m === null || x < m ? x : m), null);
const maxOf = <T extends string>(xs: (T | null | undefined)[]) => xs.reduce<T | null>((m, x) => (x == null ? m : m === null || x > m ? x : m), null);

/** The kept rows at `knownAt`; when too much changed since, from the lives kept in system time (timeline-known-far.ts). */
export function keptRowsKnownAt(db: Database, knownAt: IsoTime): KeptRows {
  // How much changed since K, counted over the same index ranges before any of it is read.
  const changed = cachedStatement(
    db,
    `SELECT count(*) AS n FROM (
       SELECT 1 FROM facts INDEXED BY facts_live_by_created_at WHERE expired_at IS NULL AND created_at > @knownAt
       UNION ALL SELECT 1 FROM facts INDEXED BY facts_replaced_by_expired_at WHERE expired_at IS NOT NULL AND expired_at > @knownAt AND created_at <= @knownAt
       LIMIT @cap)`,
  ).get({ knownAt, cap: MAX_CHANGE + 1 }) as { n: number };
  if (changed.n > MAX_CHANGE) return keptRowsKnownFar(db, knownAt);
  const now = keptRowsNow(db);
  const changes = cachedStatement(
    db,
    `SELECT subject_id, predicate, valid_at, invalid_at, -1 AS sign FROM facts INDEXED BY facts_live_by_created_at WHERE expired_at IS NULL AND created_at > @knownAt
     UNION ALL
     SELECT subject_id, predicate, valid_at, invalid_at, 1 FROM facts INDEXED BY facts_replaced_by_expired_at WHERE expired_at IS NOT NULL AND expired_at > @knownAt AND created_at <= @knownAt
`,
  ).all({ knownAt }) as Change[];

  // The change by row and by subject, and the rows' and subjects' counts now.
  const slots = new Map<string, SlotChange>();
  for (const c of changes) {
    const key = `${c.subject_id}\u0000${c.predicate}`;
    const slot = slots.get(key) ?? { subject_id: c.subject_id, predicate: c.predicate, dn: 0, dopen: 0, back: [] };
    slot.dn += c.sign;
    if (c.invalid_at === null) slot.dopen += c.sign;
    if (c.sign > 0) slot.back.push(c);
    slots.set(key, slot);
  }
  const slotsNow = new Map(
    (
      cachedStatement(db, `SELECT s.subject_id, s.predicate, s.n FROM json_each(@keys) j JOIN timeline_slots s ON s.subject_id = j.value ->> 0 AND s.predicate = j.value ->> 1`).all({
        keys: JSON.stringify([...slots.values()].map((s) => [s.subject_id, s.predicate])),
      }) as { subject_id: string; predicate: string; n: number }[]
    ).map((s) => [`${s.subject_id}\u0000${s.predicate}`, s.n]),
  );
  const bySubject = new Map<string, { dn: number; dopen: number; dslots: number; slots: SlotChange[] }>();
  for (const [key, slot] of slots) {
    const before = slotsNow.get(key) ?? 0;
    const subject = bySubject.get(slot.subject_id) ?? { dn: 0, dopen: 0, dslots: 0, slots: [] };
    subject.dn += slot.dn;
    subject.dopen += slot.dopen;
    subject.dslots += (before + slot.dn > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
    subject.slots.push(slot);
    bySubject.set(slot.subject_id, subject);
  }
  const subjectNow = cachedStatement(db, 'SELECT subject_id, name, sort_key, mine, slots, n, open_n, first, last FROM timeline_subjects WHERE subject_id = ?');
  const entity = cachedStatement(db, "SELECT id AS subject_id, name, tempora_natural_key(name) AS sort_key, type = 'user' AS mine FROM entities WHERE id = ?");
  /** Subjects that did not exist at K (gone: out of the order) and those gone since (come: back in). */
  const gone: KeptSubject[] = [];
  const come: KeptSubject[] = [];
  for (const [id, change] of bySubject) {
    const held = subjectNow.get(id) as KeptSubject | undefined;
    const n = (held?.n ?? 0) + change.dn;
    if (held && n === 0) gone.push(held);
    if (!held && n > 0) come.push({ ...(entity.get(id) as Pick<KeptSubject, 'subject_id' | 'name' | 'sort_key' | 'mine'>), slots: 0, n: 0, open_n: 0, first: MIN_ISO_TIME, last: MIN_ISO_TIME });
  }
  if (gone.length + come.length > MAX_MOVED) return keptRowsKnownFar(db, knownAt);

  // A changed row's first start and last start or end at K: its facts held now and recorded by K (by index, in order), and those replaced since.
  const firstStart = cachedStatement(db, 'SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_slot_time WHERE subject_id = ? AND predicate = ? AND expired_at IS NULL AND created_at <= ? ORDER BY valid_at LIMIT 1');
  const lastStart = cachedStatement(db, 'SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_slot_time WHERE subject_id = ? AND predicate = ? AND expired_at IS NULL AND created_at <= ? ORDER BY valid_at DESC LIMIT 1');
  const lastEnd = cachedStatement(db, 'SELECT invalid_at AS t FROM facts INDEXED BY facts_live_by_slot_end WHERE subject_id = ? AND predicate = ? AND expired_at IS NULL AND invalid_at IS NOT NULL AND created_at <= ? ORDER BY invalid_at DESC LIMIT 1');
  const at = (statement: typeof firstStart, subject: string, predicate: string) => (statement.get(subject, predicate, knownAt) as { t: IsoTime } | undefined)?.t;
  const slotAt = (slot: KeptSlot): KeptSlot | null => {
    const change = slots.get(`${slot.subject_id}\u0000${slot.predicate}`);
    if (!change) return slot;
    const n = slot.n + change.dn;
    if (n <= 0) return null;
    const s = [slot.subject_id, slot.predicate] as const;
    return {
      ...slot,
      n,
      open_n: slot.open_n + change.dopen,
      first: minOf([at(firstStart, ...s), ...change.back.map((c) => c.valid_at)])!,
      last: maxOf([at(lastStart, ...s), at(lastEnd, ...s), ...change.back.map(lastOf)])!,
    };
  };
  const slotsAt = (subject: KeptSubject): KeptSlot[] => {
    const kept = now.slotsOf(subject, Number.MAX_SAFE_INTEGER, 0);
    const known = new Set(kept.map((s) => s.predicate));
    const added = (bySubject.get(subject.subject_id)?.slots ?? []).filter((c) => !known.has(c.predicate)).map((c) => ({ subject_id: c.subject_id, name: subject.name, predicate: c.predicate, n: 0, open_n: 0, first: MIN_ISO_TIME, last: MIN_ISO_TIME }));
    return [...kept, ...added].map(slotAt).filter((s): s is KeptSlot => s !== null).sort((a, b) => binary(a.predicate, b.predicate));
  };
  /** A subject as it was at K (its counts by arithmetic, its bounds from its rows when it changed). */
  const subjectAt = (subject: KeptSubject): KeptSubject => {
    const change = bySubject.get(subject.subject_id);
    if (!change) return subject;
    const rows = slotsAt(subject);
    return { ...subject, n: subject.n + change.dn, open_n: subject.open_n + change.dopen, slots: subject.slots + change.dslots, first: minOf(rows.map((r) => r.first))!, last: maxOf(rows.map((r) => r.last))! };
  };
  const goneIds = new Set(gone.map((s) => s.subject_id));
  const comeAt = come.map(subjectAt).sort(order);
  gone.sort(order);
  const countBefore = (list: KeptSubject[], s: KeptSubject) => list.filter((x) => order(x, s) < 0).length;
  /** Place at K = place now − gone before + come before. */
  const placeOf = (s: KeptSubject) => now.placeOf(s) - countBefore(gone, s) + countBefore(comeAt, s);

  const totalsNow = now.totals();
  const totals = {
    subjects: totalsNow.subjects - gone.length + come.length,
    slots: totalsNow.slots + [...bySubject.values()].reduce((sum, c) => sum + c.dslots, 0),
  };
  const bounds = () => {
    const back = changes.filter((c) => c.sign > 0);
    const one = (sql: string) => (cachedStatement(db, sql).get({ knownAt }) as { t: IsoTime } | undefined)?.t;
    return {
      first: minOf([one('SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_valid_at WHERE expired_at IS NULL AND created_at <= @knownAt ORDER BY valid_at LIMIT 1'), ...back.map((c) => c.valid_at)]),
      last: maxOf([
        one('SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_valid_at WHERE expired_at IS NULL AND created_at <= @knownAt ORDER BY valid_at DESC LIMIT 1'),
        one('SELECT invalid_at AS t FROM facts INDEXED BY facts_live_by_invalid_at WHERE expired_at IS NULL AND invalid_at IS NOT NULL AND created_at <= @knownAt ORDER BY invalid_at DESC LIMIT 1'),
        ...back.map(lastOf),
      ]),
    };
  };
  const density = (first: string, last: string): TimelineDensity => {
    const grid = densityGrid(first, last);
    if (grid.width < HOUR) return timelineDensity(db, HELD_AT, '', '', { knownAt }, first, last);
    // The kept hours' counts on the same grid (now), with the change undone.
    const kept = keptDensity(db, first, last);
    const counts = [...kept.counts];
    const bucket = (t: string) => Math.floor((Date.parse(t) - grid.from) / grid.width);
    for (const c of changes) {
      for (const t of c.invalid_at === null ? [c.valid_at] : [c.valid_at, c.invalid_at]) {
        const b = bucket(t);
        // Off the grid: a start or end recorded since, which the kept counts on this grid left out too.
        if (b >= 0 && b < counts.length) counts[b]! += c.sign;
      }
    }
    return { ...kept, counts };
  };
  const page = (place: number, limit: number): KeptSubject[] => {
    // Now-places from place − come.length cover K-places from place on (each subject gone skipped, each come put in).
    const start = Math.max(0, place - comeAt.length);
    const placed = now
      .page(start, limit + comeAt.length + gone.length)
      .map((s, i) => ({ s, place: start + i - countBefore(gone, s) + countBefore(comeAt, s) }))
      .filter((p) => !goneIds.has(p.s.subject_id));
    for (const s of comeAt) placed.push({ s, place: placeOf(s) });
    return placed
      .filter((p) => p.place >= place)
      .sort((a, b) => a.place - b.place || order(a.s, b.s))
      .slice(0, limit)
      .map((p) => subjectAt(p.s));
  };
  return {
    held: HELD_AT,
    params: { knownAt },
    totals: () => totals,
    subject: (id) => {
      if (goneIds.has(id)) return undefined;
      const held = now.subject(id);
      return held ? subjectAt(held) : comeAt.find((s) => s.subject_id === id);
    },
    placeOf,
    bounds,
    density,
    page,
    slotsOf: (subject, limit, offset) => slotsAt(subject).slice(offset, offset + limit),
  };
}
