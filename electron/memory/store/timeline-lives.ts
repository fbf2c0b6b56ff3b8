/**
 * When each subject and each row (subject + predicate) of the timeline was held, in system time, and
 * the starts and ends of the held versions counted per month of system time (issue 26): what the
 * timeline known at a time far back reads (temporal/timeline-known-far.ts) instead of every version
 * held then. Kept by triggers on facts, like the rows held now (store/timeline-rows.ts).
 *
 * A life: `born`, the first created_at of its versions; `last_recorded`, the last; `last_replaced`, the
 * last expired_at (null: none); `held`, how many are held now. It was held at K when born <= K and
 * (held > 0 or last_replaced > K) — exact while its versions' spans [created_at, expired_at) join into
 * one. `gapped` marks a life where they may not: a version recorded after all had been replaced (a row
 * forgotten and said again), one replaced or recorded out of order (an import, a sync), a version
 * deleted or rewritten. A gapped life is checked against its versions by index at K. The flag is never
 * lowered by a trigger (counting again lowers it: recountTimelineLives).
 *
 * timeline_recorded_days: per month of created_at / expired_at and day of valid time, the starts and
 * ends (valid_at, invalid_at) of versions recorded (+1) less those replaced (−1). Summed over the months
 * before K's, they are the starts and ends of the versions held when that month began; what was
 * recorded or replaced in K's month until K is read by index (facts_replaced_by_created_at below,
 * facts_live_by_created_at, facts_replaced_by_expired_at).
 */
import type { Database } from 'better-sqlite3';

/** The triggers that keep the lives (a bulk load drops and re-creates those on facts). */
export const TIMELINE_LIFE_TRIGGERS = ['facts_lives_insert', 'facts_lives_expire', 'facts_lives_delete', 'facts_lives_rewrite', 'entities_lives_rename'] as const;

type Row = 'new' | 'old';

/** The starts and ends of version `r` counted (sign 1) or taken out (-1) in its months. */
function days(r: Row, sign: 1 | -1): string {
  const add = (month: string, day: string, n: string, when: string) =>
    `INSERT INTO timeline_recorded_days (month, day, n) SELECT substr(${month}, 1, 7), substr(${day}, 1, 10), ${n} WHERE ${when} ON CONFLICT (month, day) DO UPDATE SET n = n + excluded.n;`;
  return [
    add(`${r}.created_at`, `${r}.valid_at`, `${sign}`, '1'),
    add(`${r}.created_at`, `${r}.invalid_at`, `${sign}`, `${r}.invalid_at IS NOT NULL`),
    add(`${r}.expired_at`, `${r}.valid_at`, `${-sign}`, `${r}.expired_at IS NOT NULL`),
    add(`${r}.expired_at`, `${r}.invalid_at`, `${-sign}`, `${r}.expired_at IS NOT NULL AND ${r}.invalid_at IS NOT NULL`),
  ].join('\n    ');
}

/** The replaced part of `days`: version `new` replaced now. */
function replacedDays(): string {
  return days('new', 1).split('\n    ').slice(2).join('\n    ');
}

const LATER = (a: string, b: string) => `CASE WHEN ${b} IS NULL THEN ${a} WHEN ${a} IS NULL OR ${a} < ${b} THEN ${b} ELSE ${a} END`;

/** Version `r` joins its subject's and row's lives (gapped: 1 for a rewritten one). */
function enter(r: Row, gapped: 0 | 1): string {
  // Gapped when it neither touches nor overlaps the life's span so far: [born, ∞) while held, else [born, last_replaced].
  const gap = `excluded.gapped = 1 OR gapped = 1 OR excluded.born > CASE WHEN held > 0 THEN excluded.born ELSE COALESCE(last_replaced, '') END
      OR (excluded.last_replaced IS NOT NULL AND excluded.last_replaced < born)`;
  const merge = `born = min(born, excluded.born), last_recorded = max(last_recorded, excluded.last_recorded),
      last_replaced = ${LATER('last_replaced', 'excluded.last_replaced')}, held = held + excluded.held, gapped = ${gap}`;
  return `
    INSERT INTO timeline_slot_lives (subject_id, predicate, born, last_recorded, last_replaced, held, gapped)
      VALUES (${r}.subject_id, ${r}.predicate, ${r}.created_at, ${r}.created_at, ${r}.expired_at, ${r}.expired_at IS NULL, ${gapped})
      ON CONFLICT (subject_id, predicate) DO UPDATE SET ${merge};
    INSERT INTO timeline_subject_lives (subject_id, name, sort_key, mine, born, last_recorded, last_replaced, held, gapped)
      VALUES (${r}.subject_id, (SELECT name FROM entities WHERE id = ${r}.subject_id), '', (SELECT type = 'user' FROM entities WHERE id = ${r}.subject_id),
        ${r}.created_at, ${r}.created_at, ${r}.expired_at, ${r}.expired_at IS NULL, ${gapped})
      ON CONFLICT (subject_id) DO UPDATE SET ${merge};
    UPDATE timeline_subject_lives SET sort_key = tempora_natural_key(name) WHERE subject_id = ${r}.subject_id AND sort_key = '' AND name <> '';`;
}

/** Version `old` leaves its lives (deleted or rewritten): they are marked gapped. */
function leave(): string {
  return `
    UPDATE timeline_slot_lives SET gapped = 1, held = held - (old.expired_at IS NULL) WHERE subject_id = old.subject_id AND predicate = old.predicate;
    UPDATE timeline_subject_lives SET gapped = 1, held = held - (old.expired_at IS NULL) WHERE subject_id = old.subject_id;`;
}

/** Version `new` replaced now: gapped if anything of its lives was recorded or replaced after that. */
function replace(): string {
  const set = `gapped = CASE WHEN last_recorded > new.expired_at OR COALESCE(last_replaced, '') > new.expired_at THEN 1 ELSE gapped END,
      held = held - 1, last_replaced = ${LATER('last_replaced', 'new.expired_at')}`;
  return `
    UPDATE timeline_slot_lives SET ${set} WHERE subject_id = new.subject_id AND predicate = new.predicate;
    UPDATE timeline_subject_lives SET ${set} WHERE subject_id = new.subject_id;`;
}

/** Any change to a version but its one replacement (a migration, a sync applying a record). */
const REWRITTEN = `old.subject_id IS NOT new.subject_id OR old.predicate IS NOT new.predicate OR old.valid_at IS NOT new.valid_at
    OR old.invalid_at IS NOT new.invalid_at OR old.created_at IS NOT new.created_at OR (old.expired_at IS NOT NULL AND old.expired_at IS NOT new.expired_at)`;

/** The triggers' SQL (the migration step has its own frozen copy). */
export const TIMELINE_LIFE_TRIGGERS_SQL = `
  CREATE TRIGGER facts_lives_insert AFTER INSERT ON facts BEGIN ${enter('new', 0)}
    ${days('new', 1)}
  END;
  CREATE TRIGGER facts_lives_expire AFTER UPDATE OF expired_at ON facts WHEN old.expired_at IS NULL AND new.expired_at IS NOT NULL AND NOT (${REWRITTEN}) BEGIN ${replace()}
    ${replacedDays()}
  END;
  CREATE TRIGGER facts_lives_delete AFTER DELETE ON facts BEGIN ${leave()}
    ${days('old', -1)}
  END;
  CREATE TRIGGER facts_lives_rewrite AFTER UPDATE OF subject_id, predicate, valid_at, invalid_at, created_at, expired_at ON facts WHEN ${REWRITTEN} BEGIN ${leave()}
    ${days('old', -1)}
    ${enter('new', 1)}
    ${days('new', 1)}
  END;
  CREATE TRIGGER entities_lives_rename AFTER UPDATE OF name, type ON entities WHEN old.name IS NOT new.name OR old.type IS NOT new.type BEGIN
    UPDATE timeline_subject_lives SET name = new.name, mine = new.type = 'user', sort_key = tempora_natural_key(new.name) WHERE subject_id = new.id;
  END;`;

/** The tables and the indexes that read them. */
export const TIMELINE_LIFE_TABLES_SQL = `
  CREATE TABLE timeline_subject_lives (
    subject_id TEXT PRIMARY KEY, name TEXT NOT NULL, sort_key TEXT NOT NULL, mine INTEGER NOT NULL,
    born TEXT NOT NULL, last_recorded TEXT NOT NULL, last_replaced TEXT, held INTEGER NOT NULL, gapped INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- The timeline's order, with what says whether a subject was held at K: a page is a walk of this index.
  CREATE INDEX timeline_subject_lives_in_order ON timeline_subject_lives(mine DESC, sort_key, name, subject_id, born, held, last_replaced, gapped);
  -- How many were held at K: those born by K, less those that ended by K and the gapped not held then.
  CREATE INDEX timeline_subject_lives_by_born ON timeline_subject_lives(born);
  CREATE INDEX timeline_subject_lives_ended ON timeline_subject_lives(last_replaced) WHERE held = 0 AND gapped = 0;
  CREATE INDEX timeline_subject_lives_gapped ON timeline_subject_lives(born) WHERE gapped = 1;
  CREATE TABLE timeline_slot_lives (
    subject_id TEXT NOT NULL, predicate TEXT NOT NULL, born TEXT NOT NULL, last_recorded TEXT NOT NULL, last_replaced TEXT,
    held INTEGER NOT NULL, gapped INTEGER NOT NULL, PRIMARY KEY (subject_id, predicate)
  ) WITHOUT ROWID;
  CREATE INDEX timeline_slot_lives_by_born ON timeline_slot_lives(born);
  CREATE INDEX timeline_slot_lives_ended ON timeline_slot_lives(last_replaced) WHERE held = 0 AND gapped = 0;
  CREATE INDEX timeline_slot_lives_gapped ON timeline_slot_lives(born) WHERE gapped = 1;
  CREATE TABLE timeline_recorded_days (month TEXT NOT NULL, day TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (month, day)) WITHOUT ROWID;
  -- What was recorded in K's month and replaced since (the held ones: facts_live_by_created_at), and a
  -- day's replaced ends (the last end known at K).
  CREATE INDEX facts_replaced_by_created_at ON facts(created_at, valid_at, invalid_at) WHERE expired_at IS NOT NULL;
  CREATE INDEX facts_replaced_by_invalid_at ON facts(invalid_at, created_at, expired_at) WHERE expired_at IS NOT NULL AND invalid_at IS NOT NULL;`;

/**
 * A life from versions grouped by `keys`: gapped where, in created_at order, one begins after all
 * before it were replaced. The versions are read in table order and sorted once (NOT INDEXED):
 * walking facts_by_subject_time for the partition order read every row by a random seek and still
 * sorted each subject's versions by created_at — at 1M versions 16 s of the import's build against
 * 8 s (docs/benchmarks.md, "The import at a million facts, profiled"). Versions recorded at the same
 * instant may come in any order: the first of them takes the gap, and a life's flag is the same.
 */
function livesOf(keys: string): string {
  return `SELECT ${keys}, min(created_at) AS born, max(created_at) AS last_recorded, max(expired_at) AS last_replaced,
      count(*) - count(expired_at) AS held, COALESCE(max(gap), 0) AS gapped FROM (
        SELECT ${keys}, created_at, expired_at,
          created_at > max(COALESCE(expired_at, '~')) OVER (PARTITION BY ${keys} ORDER BY created_at ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS gap
        FROM facts NOT INDEXED
      ) GROUP BY ${keys}`;
}

/** Counts every life and month again from the versions (after a bulk load, and when the tables are created). */
export function recountTimelineLives(db: Database): void {
  db.exec(`
    DELETE FROM timeline_slot_lives;
    DELETE FROM timeline_subject_lives;
    DELETE FROM timeline_recorded_days;
    INSERT INTO timeline_slot_lives (subject_id, predicate, born, last_recorded, last_replaced, held, gapped) ${livesOf('subject_id, predicate')};
    INSERT INTO timeline_subject_lives (subject_id, name, sort_key, mine, born, last_recorded, last_replaced, held, gapped)
      SELECT l.subject_id, e.name, tempora_natural_key(e.name), e.type = 'user', l.born, l.last_recorded, l.last_replaced, l.held, l.gapped
      FROM (${livesOf('subject_id')}) l JOIN entities e ON e.id = l.subject_id;
    INSERT INTO timeline_recorded_days (month, day, n)
      SELECT month, day, sum(n) FROM (
        SELECT substr(created_at, 1, 7) AS month, substr(valid_at, 1, 10) AS day, 1 AS n FROM facts
        UNION ALL SELECT substr(created_at, 1, 7), substr(invalid_at, 1, 10), 1 FROM facts WHERE invalid_at IS NOT NULL
        UNION ALL SELECT substr(expired_at, 1, 7), substr(valid_at, 1, 10), -1 FROM facts WHERE expired_at IS NOT NULL
        UNION ALL SELECT substr(expired_at, 1, 7), substr(invalid_at, 1, 10), -1 FROM facts WHERE expired_at IS NOT NULL AND invalid_at IS NOT NULL
      ) GROUP BY month, day HAVING sum(n) <> 0;
  `);
}
