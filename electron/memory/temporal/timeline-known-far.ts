/**
 * The timeline's kept rows as they were at a known-at time K far back (issue 26): when so much was
 * recorded or replaced since K that undoing it (timeline-known-at.ts) costs more than reading what
 * was kept of each life in system time (store/timeline-lives.ts). Same meaning as the pass over the
 * versions held at K (created_at <= K < expired_at): a property test compares the two.
 *
 *  - Which subjects and rows were held at K, and how many: their lives (born by K, not yet all
 *    replaced), counted over an index by born; a gapped life is checked against its versions.
 *  - The order and a page: the subjects' lives in the timeline's order, by index (a walk from the
 *    place asked); a subject's place, a count over the same index.
 *  - A subject on the page, its rows and counts: its versions held at K, by index (facts_by_subject_time).
 *  - The density: the starts and ends kept per month of system time (summed over the months before
 *    K's, by day of valid time), with what was recorded or replaced in K's month until K read by
 *    index; the first and last time: the first and last day with a start or an end, then that day's
 *    versions by index. A grid narrower than a day takes the pass over the versions held at K.
 *
 * Cost: the lives before K (counts over covering indexes), the subjects walked to the page, the
 * versions of the subjects shown, the months of the memory × the days they touch, and one month's
 * writing — not the versions held at K.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { densityGrid, timelineDensity, type TimelineDensity } from './timeline-density';
import type { KeptRows, KeptSlot, KeptSubject } from './timeline-kept-rows';
import { HELD_AT_SOURCE } from './timeline-source';
import { isoFromMs, MIN_ISO_TIME, type IsoTime } from '../../../shared/time';

const DAY = 86_400_000;
const HELD_AT = 'f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt)';
/** A life `l` was held at @knownAt (its versions by index when gapped). */
const heldAt = (slot: boolean) =>
  `l.born <= @knownAt AND ((l.gapped = 0 AND (l.held > 0 OR l.last_replaced > @knownAt))
    OR (l.gapped = 1 AND EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = l.subject_id${slot ? ' AND f.predicate = l.predicate' : ''} AND ${HELD_AT})))`;
/**
 * How many lives were held at @knownAt: those born by then, less those that had ended (not gapped,
 * none held now, the last replaced by then) and the gapped ones not held then — three index ranges,
 * the first a count of entries, the others of the few lives that ended or are gapped.
 */
const heldCount = (kind: 'subject' | 'slot') => {
  const table = `timeline_${kind}_lives`;
  const versions = kind === 'slot' ? ' AND f.predicate = l.predicate' : '';
  return `(SELECT count(*) FROM ${table} INDEXED BY ${table}_by_born WHERE born <= @knownAt)
    - (SELECT count(*) FROM ${table} INDEXED BY ${table}_ended WHERE held = 0 AND gapped = 0 AND last_replaced <= @knownAt)
    - (SELECT count(*) FROM ${table} l INDEXED BY ${table}_gapped WHERE l.gapped = 1 AND l.born <= @knownAt
        AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = l.subject_id${versions} AND ${HELD_AT}))`;
};
/** Subjects that come before @id in the timeline's order. */
const BEFORE = `(l.mine > @mine OR (l.mine = @mine AND (l.sort_key < @key OR (l.sort_key = @key AND (l.name < @name OR (l.name = @name AND l.subject_id < @id))))))`;
const LIFE = 'l.subject_id, l.name, l.sort_key, l.mine';

/** Starts (valid_at) and ends (invalid_at) as `t` of the versions in an index range `where`, each counted `sign`. */
const ends = (index: string, where: string, sign: number) => `SELECT substr(t, 1, 10), ${sign} FROM (
    SELECT valid_at AS t FROM facts INDEXED BY ${index} WHERE ${where}
    UNION ALL SELECT invalid_at FROM facts INDEXED BY ${index} WHERE ${where} AND invalid_at IS NOT NULL)`;
/** Starts and ends held at K by day: the months before K's kept, with what was recorded (+1) and replaced (−1) from K's month's start until K. */
const daysForward = `SELECT day, sum(n) AS n FROM (
    SELECT day, n FROM timeline_recorded_days WHERE month < @month
    UNION ALL ${ends('facts_live_by_created_at', 'expired_at IS NULL AND created_at >= @month AND created_at <= @knownAt', 1)}
    UNION ALL ${ends('facts_replaced_by_created_at', 'expired_at IS NOT NULL AND created_at >= @month AND created_at <= @knownAt', 1)}
    UNION ALL ${ends('facts_replaced_by_expired_at', 'expired_at IS NOT NULL AND expired_at >= @month AND expired_at <= @knownAt', -1)}
  ) GROUP BY day HAVING sum(n) <> 0 ORDER BY day`;
/** The same from the next month's start (@month) back: the months up to K's kept, less what was recorded after K, with what was replaced after K put back. */
const daysBack = `SELECT day, sum(n) AS n FROM (
    SELECT day, n FROM timeline_recorded_days WHERE month < @month
    UNION ALL ${ends('facts_live_by_created_at', 'expired_at IS NULL AND created_at > @knownAt AND created_at < @month', -1)}
    UNION ALL ${ends('facts_replaced_by_created_at', 'expired_at IS NOT NULL AND created_at > @knownAt AND created_at < @month', -1)}
    UNION ALL ${ends('facts_replaced_by_expired_at', 'expired_at IS NOT NULL AND expired_at > @knownAt AND expired_at < @month', 1)}
  ) GROUP BY day HAVING sum(n) <> 0 ORDER BY day`;

type Life = Pick<KeptSubject, 'subject_id' | 'name' | 'sort_key' | 'mine'>;
const maxOf = <T extends string>(xs: (T | null | undefined)[]) => xs.reduce<T | null>((m, x) => (x == null ? m : m === null || x > m ? x : m), null);

/** The kept rows at `knownAt`, from the lives kept in system time. */
export function keptRowsKnownFar(db: Database, knownAt: IsoTime): KeptRows {
  const params = { knownAt };
  const rowsOf = (life: Life): KeptSlot[] =>
    (
      cachedStatement(
        db,
        `SELECT f.predicate, count(*) AS n, count(*) - count(f.invalid_at) AS open_n, min(f.valid_at) AS first,
           max(max(f.valid_at), COALESCE(max(f.invalid_at), '')) AS last
         FROM facts f INDEXED BY facts_by_subject_time WHERE f.subject_id = @subject AND ${HELD_AT} GROUP BY f.predicate ORDER BY f.predicate`,
      ).all({ knownAt, subject: life.subject_id }) as Omit<KeptSlot, 'subject_id' | 'name'>[]
    ).map((r) => ({ subject_id: life.subject_id, name: life.name, ...r }));
  const subjectAt = (life: Life): KeptSubject => {
    const rows = rowsOf(life);
    return {
      ...life,
      slots: rows.length,
      n: rows.reduce((sum, r) => sum + r.n, 0),
      open_n: rows.reduce((sum, r) => sum + r.open_n, 0),
      // A life held at K has a fact held at K, so a row: MIN_ISO_TIME is never shown.
      first: rows.reduce((m, r) => (r.first < m ? r.first : m), rows[0]?.first ?? MIN_ISO_TIME),
      last: maxOf(rows.map((r) => r.last)) ?? MIN_ISO_TIME,
    };
  };

  let days: Map<string, number> | undefined;
  /** Starts and ends of the versions held at K, by day of valid time. */
  const daysAt = (): Map<string, number> => {
    if (days) return days;
    // From the start of K's month forward, or from the start of the next one back, whichever is nearer.
    const start = knownAt.slice(0, 7);
    const next = new Date(Date.UTC(Number(start.slice(0, 4)), Number(start.slice(5, 7)), 1)).toISOString().slice(0, 7);
    const back = Date.parse(`${next}-01T00:00:00.000Z`) - Date.parse(knownAt) < Date.parse(knownAt) - Date.parse(`${start}-01T00:00:00.000Z`);
    const found = cachedStatement(db, back ? daysBack : daysForward).all(back ? { knownAt, month: next } : { knownAt, month: start }) as { day: string; n: number }[];
    days = new Map(found.map((d) => [d.day, d.n]));
    return days;
  };
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY).toISOString().slice(0, 10);

  return {
    held: HELD_AT,
    params,
    totals: () => cachedStatement(db, `SELECT (${heldCount('subject')}) AS subjects, (${heldCount('slot')}) AS slots`).get(params) as { subjects: number; slots: number },
    subject: (id) => {
      const life = cachedStatement(db, `SELECT ${LIFE} FROM timeline_subject_lives l WHERE l.subject_id = @id AND ${heldAt(false)}`).get({ knownAt, id }) as Life | undefined;
      return life ? subjectAt(life) : undefined;
    },
    placeOf: (s) =>
      (
        cachedStatement(db, `SELECT count(*) AS place FROM timeline_subject_lives l INDEXED BY timeline_subject_lives_in_order WHERE ${BEFORE} AND ${heldAt(false)}`).get({
          knownAt,
          mine: s.mine,
          key: s.sort_key,
          name: s.name,
          id: s.subject_id,
        }) as { place: number }
      ).place,
    bounds: () => {
      const found = [...daysAt().keys()];
      if (found.length === 0) return { first: null, last: null };
      const [a, z] = [found[0]!, found.at(-1)!];
      const one = (sql: string, day: string) => (cachedStatement(db, sql).get({ knownAt, day, next: nextDay(day) }) as { t: IsoTime | null }).t;
      const first = one(`SELECT min(f.valid_at) AS t FROM facts f INDEXED BY facts_by_valid_at WHERE f.valid_at >= @day AND f.valid_at < @next AND ${HELD_AT}`, a);
      const lastStart = one(`SELECT max(f.valid_at) AS t FROM facts f INDEXED BY facts_by_valid_at WHERE f.valid_at >= @day AND f.valid_at < @next AND ${HELD_AT}`, z);
      const lastEnd = one(
        `SELECT max(f.invalid_at) AS t FROM (
           SELECT invalid_at, created_at, expired_at FROM facts INDEXED BY facts_live_by_invalid_at WHERE expired_at IS NULL AND invalid_at >= @day AND invalid_at < @next
           UNION ALL SELECT invalid_at, created_at, expired_at FROM facts INDEXED BY facts_replaced_by_invalid_at WHERE expired_at IS NOT NULL AND invalid_at >= @day AND invalid_at < @next
         ) f WHERE ${HELD_AT}`,
        z,
      );
      return { first, last: maxOf([lastStart, lastEnd]) };
    },
    density: (first, last): TimelineDensity => {
      const grid = densityGrid(first, last);
      if (grid.width < DAY) return timelineDensity(db, HELD_AT, '', '', params, first, last, HELD_AT_SOURCE);
      // Every width from a day up is whole days, its edges on days since 1970: a day's count falls in one bucket.
      const counts = new Array<number>(grid.buckets).fill(0);
      for (const [day, n] of daysAt()) {
        const b = Math.floor((Date.parse(`${day}T00:00:00.000Z`) - grid.from) / grid.width);
        if (b >= 0 && b < counts.length) counts[b]! += n;
      }
      return { from: isoFromMs(grid.from), to: isoFromMs(grid.from + grid.buckets * grid.width), counts };
    },
    page: (place, limit) =>
      (
        cachedStatement(
          db,
          `SELECT ${LIFE} FROM timeline_subject_lives l INDEXED BY timeline_subject_lives_in_order WHERE ${heldAt(false)}
           ORDER BY l.mine DESC, l.sort_key, l.name, l.subject_id LIMIT @limit OFFSET @place`,
        ).all({ knownAt, limit, place }) as Life[]
      ).map(subjectAt),
    slotsOf: (subject, limit, offset) => rowsOf(subject).slice(offset, offset + limit),
  };
}
