/**
 * The timeline's rows, kept as facts are written (migration 0019): per subject + predicate and per
 * subject, how many facts are held now, how many are still true, the first start and the last start
 * or end; how many subjects and rows there are, and held facts with no end (the Facts list's total:
 * temporal/fact-query.ts); and the starts and ends counted by the hour. The
 * timeline's row list was one pass over every held fact (growing with the memory, on every
 * scroll and every learned message); read from these tables its cost is the rows on screen
 * (temporal/timeline-kept-window.ts).
 *
 * Triggers on facts keep them: a held fact inserted adds to its row and subject; one expired or
 * deleted takes away, and only when it held the row's first or last time is that looked up again
 * (by index, O(log n): facts_live_by_slot_time for starts, facts_live_by_slot_end for ends; a
 * subject's from its rows). An entity renamed renames its subject. A bulk load
 * drops the triggers and counts once after (transfer/bulk-load.ts).
 */
import type { Database } from 'better-sqlite3';
import { recountTimelineLives, TIMELINE_LIFE_TRIGGERS } from './timeline-lives';

/** The triggers that keep the rows and their lives in system time (store/timeline-lives.ts); a bulk load drops and re-creates them. */
export const TIMELINE_ROW_TRIGGERS = ['facts_timeline_insert', 'facts_timeline_expire', 'facts_timeline_delete', 'facts_timeline_move', 'facts_timeline_unexpire', 'entities_timeline_rename', ...TIMELINE_LIFE_TRIGGERS] as const;

/** A held fact `old` leaves its row: counts down, its first / last looked up again only if it held them. */
function leaveRow(): string {
  const slotFacts = 'FROM facts f WHERE f.subject_id = old.subject_id AND f.predicate = old.predicate AND f.expired_at IS NULL';
  const oldLast = "max(old.valid_at, COALESCE(old.invalid_at, ''))";
  const subjectSlots = 'FROM timeline_slots s WHERE s.subject_id = old.subject_id AND s.n > 0';
  const emptySlot = 'EXISTS (SELECT 1 FROM timeline_slots WHERE subject_id = old.subject_id AND predicate = old.predicate AND n = 0)';
  return `
    UPDATE timeline_slots SET n = n - 1, open_n = open_n - (old.invalid_at IS NULL),
      first = CASE WHEN old.valid_at > first THEN first ELSE COALESCE((SELECT min(f.valid_at) ${slotFacts}), first) END,
      last = CASE WHEN ${oldLast} < last THEN last ELSE COALESCE(max(
        (SELECT f.valid_at ${slotFacts} ORDER BY f.valid_at DESC LIMIT 1),
        COALESCE((SELECT f.invalid_at ${slotFacts} AND f.invalid_at IS NOT NULL ORDER BY f.invalid_at DESC LIMIT 1), '')), last) END
      WHERE subject_id = old.subject_id AND predicate = old.predicate;
    UPDATE timeline_subjects SET n = n - 1, open_n = open_n - (old.invalid_at IS NULL), slots = slots - ${emptySlot},
      first = CASE WHEN old.valid_at > first THEN first ELSE COALESCE((SELECT min(s.first) ${subjectSlots}), first) END,
      last = CASE WHEN ${oldLast} < last THEN last ELSE COALESCE((SELECT max(s.last) ${subjectSlots}), last) END
      WHERE subject_id = old.subject_id;
    UPDATE timeline_totals SET open_n = open_n - (old.invalid_at IS NULL), slots = slots - ${emptySlot},
      subjects = subjects - EXISTS (SELECT 1 FROM timeline_subjects WHERE subject_id = old.subject_id AND n = 0) WHERE id = 1;
    DELETE FROM timeline_slots WHERE subject_id = old.subject_id AND predicate = old.predicate AND n = 0;
    DELETE FROM timeline_subjects WHERE subject_id = old.subject_id AND n = 0;
    UPDATE timeline_hours SET n = n - 1 WHERE hour = substr(old.valid_at, 1, 13);
    UPDATE timeline_hours SET n = n - 1 WHERE old.invalid_at IS NOT NULL AND hour = substr(old.invalid_at, 1, 13);
    DELETE FROM timeline_hours WHERE n = 0 AND hour IN (substr(old.valid_at, 1, 13), substr(COALESCE(old.invalid_at, ''), 1, 13));`;
}

/** A held fact `new` enters its row: counts up, its first / last widened. */
function enterRow(): string {
  return `
    UPDATE timeline_totals SET open_n = open_n + (new.invalid_at IS NULL),
      subjects = subjects + NOT EXISTS (SELECT 1 FROM timeline_subjects WHERE subject_id = new.subject_id),
      slots = slots + NOT EXISTS (SELECT 1 FROM timeline_slots WHERE subject_id = new.subject_id AND predicate = new.predicate) WHERE id = 1;
    -- VALUES, not INSERT … SELECT: the latter gives every fact insert a temporary b-tree.
    INSERT OR IGNORE INTO timeline_subjects (subject_id, name, mine, slots, n, open_n, first, last) VALUES (new.subject_id,
      (SELECT name FROM entities WHERE id = new.subject_id), (SELECT type = 'user' FROM entities WHERE id = new.subject_id), 0, 0, 0, new.valid_at, new.valid_at);
    UPDATE timeline_subjects SET n = n + 1, open_n = open_n + (new.invalid_at IS NULL),
      slots = slots + NOT EXISTS (SELECT 1 FROM timeline_slots WHERE subject_id = new.subject_id AND predicate = new.predicate),
      first = min(first, new.valid_at), last = max(last, new.valid_at, COALESCE(new.invalid_at, '')) WHERE subject_id = new.subject_id;
    INSERT OR IGNORE INTO timeline_slots (subject_id, predicate, n, open_n, first, last) VALUES (new.subject_id, new.predicate, 0, 0, new.valid_at, new.valid_at);
    UPDATE timeline_slots SET n = n + 1, open_n = open_n + (new.invalid_at IS NULL),
      first = min(first, new.valid_at), last = max(last, new.valid_at, COALESCE(new.invalid_at, ''))
      WHERE subject_id = new.subject_id AND predicate = new.predicate;
    INSERT INTO timeline_hours (hour, n) VALUES (substr(new.valid_at, 1, 13), 1) ON CONFLICT (hour) DO UPDATE SET n = n + 1;
    INSERT INTO timeline_hours (hour, n) SELECT substr(new.invalid_at, 1, 13), 1 WHERE new.invalid_at IS NOT NULL ON CONFLICT (hour) DO UPDATE SET n = n + 1;`;
}

/** The triggers' SQL (migration 0019 runs it; a bulk load re-creates them from sqlite_master). */
export const TIMELINE_ROW_TRIGGERS_SQL = `
  CREATE TRIGGER facts_timeline_insert AFTER INSERT ON facts WHEN new.expired_at IS NULL BEGIN
${enterRow()}
  END;
  CREATE TRIGGER facts_timeline_expire AFTER UPDATE OF expired_at ON facts WHEN old.expired_at IS NULL AND new.expired_at IS NOT NULL BEGIN ${leaveRow()}
  END;
  CREATE TRIGGER facts_timeline_delete AFTER DELETE ON facts WHEN old.expired_at IS NULL BEGIN ${leaveRow()}
  END;
  -- Facts are versioned, not edited; these keep the rows right should a migration rewrite a held
  -- row in place (as 0009 did the predicates) or bring an expired one back.
  CREATE TRIGGER facts_timeline_move AFTER UPDATE OF subject_id, predicate, valid_at, invalid_at ON facts
    WHEN old.expired_at IS NULL AND new.expired_at IS NULL AND (old.subject_id IS NOT new.subject_id OR old.predicate IS NOT new.predicate
      OR old.valid_at IS NOT new.valid_at OR old.invalid_at IS NOT new.invalid_at) BEGIN ${leaveRow()} ${enterRow()}
  END;
  CREATE TRIGGER facts_timeline_unexpire AFTER UPDATE OF expired_at ON facts WHEN old.expired_at IS NOT NULL AND new.expired_at IS NULL BEGIN ${enterRow()}
  END;
  CREATE TRIGGER entities_timeline_rename AFTER UPDATE OF name, type ON entities BEGIN
    UPDATE timeline_subjects SET name = new.name, mine = new.type = 'user' WHERE subject_id = new.id;
  END;`;

/** The tables (migration 0019). */
export const TIMELINE_ROW_TABLES_SQL = `
  CREATE TABLE timeline_slots (
    subject_id TEXT NOT NULL, predicate TEXT NOT NULL, n INTEGER NOT NULL, open_n INTEGER NOT NULL, first TEXT NOT NULL, last TEXT NOT NULL,
    PRIMARY KEY (subject_id, predicate)
  ) WITHOUT ROWID;
  CREATE TABLE timeline_subjects (
    subject_id TEXT PRIMARY KEY, name TEXT NOT NULL, mine INTEGER NOT NULL, slots INTEGER NOT NULL,
    n INTEGER NOT NULL, open_n INTEGER NOT NULL, first TEXT NOT NULL, last TEXT NOT NULL
  ) WITHOUT ROWID;
  -- The timeline's order (the user's first, then by name) and the bounds of everything, by index.
  CREATE INDEX timeline_subjects_in_order ON timeline_subjects(mine DESC, name COLLATE NOCASE, name, subject_id);
  CREATE INDEX timeline_subjects_by_first ON timeline_subjects(first);
  CREATE INDEX timeline_subjects_by_last ON timeline_subjects(last);
  CREATE TABLE timeline_hours (hour TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  -- open_n: held facts with no end. With those that start or end after a time T (the index below and
  -- facts_by_valid_at) it gives how many are true at T without counting every fact before T.
  CREATE TABLE timeline_totals (id INTEGER PRIMARY KEY CHECK (id = 1), subjects INTEGER NOT NULL, slots INTEGER NOT NULL, open_n INTEGER NOT NULL);
  INSERT INTO timeline_totals (id, subjects, slots, open_n) VALUES (1, 0, 0, 0);
  CREATE INDEX facts_live_by_invalid_at ON facts(invalid_at, valid_at, expired_at) WHERE expired_at IS NULL AND invalid_at IS NOT NULL;
  -- A row's last end looked up again by index when the fact holding it goes (a one-valued slot's
  -- every change): read from the slot's facts it grew with the slot (1,000 values: 2× slower).
  CREATE INDEX facts_live_by_slot_end ON facts(subject_id, predicate, invalid_at) WHERE expired_at IS NULL AND invalid_at IS NOT NULL;`;

/** Counts every row again from the held facts, and their lives from every version (after a bulk load, and when the tables are created). */
export function recountTimelineRows(db: Database): void {
  db.exec(`
    DELETE FROM timeline_slots;
    DELETE FROM timeline_subjects;
    DELETE FROM timeline_hours;
    INSERT INTO timeline_slots (subject_id, predicate, n, open_n, first, last)
      SELECT subject_id, predicate, count(*), count(*) - count(invalid_at), min(valid_at), max(max(valid_at), COALESCE(max(invalid_at), ''))
      FROM facts WHERE expired_at IS NULL GROUP BY subject_id, predicate;
    INSERT INTO timeline_subjects (subject_id, name, mine, slots, n, open_n, first, last)
      SELECT s.subject_id, e.name, e.type = 'user', count(*), sum(s.n), sum(s.open_n), min(s.first), max(s.last)
      FROM timeline_slots s JOIN entities e ON e.id = s.subject_id GROUP BY s.subject_id;
    INSERT INTO timeline_hours (hour, n)
      SELECT h, count(*) FROM (
        SELECT substr(valid_at, 1, 13) AS h FROM facts WHERE expired_at IS NULL
        UNION ALL SELECT substr(invalid_at, 1, 13) FROM facts WHERE expired_at IS NULL AND invalid_at IS NOT NULL
      ) GROUP BY h;
    UPDATE timeline_totals SET subjects = (SELECT count(*) FROM timeline_subjects), slots = (SELECT count(*) FROM timeline_slots),
      open_n = (SELECT count(*) FROM facts WHERE expired_at IS NULL AND invalid_at IS NULL) WHERE id = 1;
  `);
  recountTimelineLives(db);
}
