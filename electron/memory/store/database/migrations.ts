import type { Database } from 'better-sqlite3';
import { registerCjkGrams0007 } from './frozen/0007-cjk-grams';
import { registerPredicate0009 } from './frozen/0009-normalize-predicate';
import { registerObjectKey0010 } from './frozen/0010-object-key';
import { countTimelineRows0019, TIMELINE_ROW_TABLES_SQL_0019, TIMELINE_ROW_TRIGGERS_SQL_0019 } from './frozen/0019-timeline-rows';
import { registerNaturalKey0022 } from './frozen/0022-natural-key';
import { countTimelineLives0030, TIMELINE_LIFE_TABLES_SQL_0030, TIMELINE_LIFE_TRIGGERS_SQL_0030 } from './frozen/0030-timeline-lives';
import { fillShortNames0041 } from './frozen/0041-short-names';

/**
 * One schema step. Steps run in order, each in its own transaction, and are never edited once released.
 * A step calls no live code (it would change what the step does): the logic it needs is copied into
 * frozen/, one file per step. This file and frozen/ import only better-sqlite3's types, node
 * built-ins and frozen/ files (test/unit/migrations-frozen.test.ts).
 */
export interface Migration {
  name: string;
  up(db: Database): void;
}

export const migrations: Migration[] = [
  {
    name: '0001_core',
    up(db) {
      db.exec(`
        CREATE TABLE conversations (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE episodes (
          id TEXT PRIMARY KEY,
          conversation_id TEXT REFERENCES conversations(id),
          role TEXT NOT NULL,
          content TEXT NOT NULL,
          reference_time TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX episodes_by_conversation ON episodes(conversation_id, reference_time);
        CREATE TABLE entities (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          normalized_name TEXT NOT NULL,
          type TEXT NOT NULL,
          summary TEXT NOT NULL DEFAULT '',
          created_at TEXT NOT NULL
        );
        CREATE INDEX entities_by_name ON entities(normalized_name);
        CREATE TABLE entity_aliases (
          entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          alias TEXT NOT NULL,
          normalized_alias TEXT NOT NULL,
          PRIMARY KEY (entity_id, position)
        );
        CREATE INDEX entity_aliases_by_alias ON entity_aliases(normalized_alias);
        -- One row per fact *version*. Rows are inserted, expired (expired_at set once) or forgotten; never edited.
        CREATE TABLE facts (
          id TEXT PRIMARY KEY,
          lineage_id TEXT NOT NULL,           -- id of the first version of this fact's chain
          subject_id TEXT NOT NULL REFERENCES entities(id),
          predicate TEXT NOT NULL,
          object_id TEXT REFERENCES entities(id),
          object_literal TEXT,
          fact TEXT NOT NULL,
          cardinality TEXT NOT NULL CHECK (cardinality IN ('one', 'many')),
          valid_at TEXT NOT NULL,
          invalid_at TEXT,
          end_kind TEXT NOT NULL CHECK (end_kind IN ('open', 'explicit', 'successor', 'judged')),
          reference_time TEXT NOT NULL,       -- when it was said: breaks ties of equal valid_at (rule 3)
          created_at TEXT NOT NULL,
          expired_at TEXT,
          invalidated_by TEXT,
          supersedes TEXT,
          origin TEXT NOT NULL,
          CHECK ((object_id IS NULL) <> (object_literal IS NULL)),
          CHECK (invalid_at IS NULL OR invalid_at >= valid_at)
        );
        CREATE INDEX facts_live_by_slot ON facts(subject_id, predicate) WHERE expired_at IS NULL;
        CREATE INDEX facts_by_subject_time ON facts(subject_id, valid_at);
        CREATE INDEX facts_by_object ON facts(object_id) WHERE object_id IS NOT NULL;
        CREATE INDEX facts_by_lineage ON facts(lineage_id);
        CREATE INDEX facts_live_by_valid_at ON facts(valid_at) WHERE expired_at IS NULL;
        CREATE TABLE fact_episodes (
          fact_id TEXT NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
          episode_id TEXT NOT NULL REFERENCES episodes(id),
          PRIMARY KEY (fact_id, episode_id)
        ) WITHOUT ROWID;
        CREATE INDEX fact_episodes_by_episode ON fact_episodes(episode_id);
        -- The evidence behind each live fact: every observation (or user edit) placed in its slot.
        -- The temporal rules re-resolve a slot from its claims, which makes the result independent
        -- of arrival order. Internal: not exported (an import makes one claim per live fact).
        CREATE TABLE claims (
          id INTEGER PRIMARY KEY,
          fact_id TEXT NOT NULL REFERENCES facts(id),   -- the live version whose span holds this claim
          subject_id TEXT NOT NULL,
          predicate TEXT NOT NULL,
          object_id TEXT,
          object_literal TEXT,
          fact TEXT NOT NULL,
          cardinality TEXT NOT NULL,
          valid_at TEXT NOT NULL,
          reference_time TEXT NOT NULL,
          end_at TEXT,
          end_kind TEXT CHECK (end_kind IN ('explicit', 'judged')),
          end_by TEXT,
          episode_ids TEXT NOT NULL,                    -- JSON array
          origin TEXT NOT NULL
        );
        CREATE INDEX claims_by_slot ON claims(subject_id, predicate);
        CREATE INDEX claims_by_fact ON claims(fact_id);

        -- Full-text indexes. Trigram tokenisation matches any substring of 3+ characters in any
        -- script; the *_cjk indexes hold the bigrams (and single kanji) of CJK text, so two-character
        -- Japanese words (担当, 大学, 趣味) match too. Rows are indexed in bulk at the end of each
        -- write (fts-index.ts) from fts_queue, which the insert triggers fill: an FTS insert from a
        -- trigger runs in a statement savepoint and flushes FTS5's buffer on every row (~5x slower).
        CREATE TABLE fts_queue (kind TEXT NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (kind, row)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE facts_fts USING fts5(fact, predicate, content='facts', content_rowid='rowid', tokenize='trigram');
        CREATE VIRTUAL TABLE facts_cjk USING fts5(grams, content='', contentless_delete=1, tokenize='unicode61');
        CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN
          INSERT INTO fts_queue (kind, row) VALUES ('fact', new.rowid);
        END;
        CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts BEGIN
          INSERT INTO facts_fts (facts_fts, rowid, fact, predicate) SELECT 'delete', old.rowid, old.fact, old.predicate
            WHERE NOT EXISTS (SELECT 1 FROM fts_queue WHERE kind = 'fact' AND row = old.rowid);
          DELETE FROM facts_cjk WHERE rowid = old.rowid;
          DELETE FROM fts_queue WHERE kind = 'fact' AND row = old.rowid;
        END;
        CREATE VIRTUAL TABLE episodes_fts USING fts5(content, content='episodes', content_rowid='rowid', tokenize='trigram');
        CREATE VIRTUAL TABLE episodes_cjk USING fts5(grams, content='', contentless_delete=1, tokenize='unicode61');
        CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
          INSERT INTO fts_queue (kind, row) VALUES ('episode', new.rowid);
        END;
        CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
          INSERT INTO episodes_fts (episodes_fts, rowid, content) SELECT 'delete', old.rowid, old.content
            WHERE NOT EXISTS (SELECT 1 FROM fts_queue WHERE kind = 'episode' AND row = old.rowid);
          DELETE FROM episodes_cjk WHERE rowid = old.rowid;
          DELETE FROM fts_queue WHERE kind = 'episode' AND row = old.rowid;
        END;
        -- rowid = the entity's rowid, so updates and deletes find their row without a scan.
        CREATE VIRTUAL TABLE entities_fts USING fts5(entity_id UNINDEXED, names, tokenize='trigram');
      `);
    },
  },
  {
    name: '0002_ingestion_jobs',
    up(db) {
      db.exec(`
        -- One persisted job per message to learn from. Stored in the same transaction as its episode,
        -- so a crash loses neither; 'running' jobs found at start-up were interrupted and run again.
        CREATE TABLE ingestion_jobs (
          id TEXT PRIMARY KEY,
          episode_id TEXT NOT NULL UNIQUE REFERENCES episodes(id) ON DELETE CASCADE,
          status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'parked')),
          attempts INTEGER NOT NULL DEFAULT 0,
          last_error TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          model_calls INTEGER NOT NULL DEFAULT 0,
          prompt_tokens INTEGER NOT NULL DEFAULT 0,
          completion_tokens INTEGER NOT NULL DEFAULT 0,
          facts_added INTEGER NOT NULL DEFAULT 0,
          facts_closed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX ingestion_jobs_by_status ON ingestion_jobs(status, created_at);
      `);
    },
  },
  {
    name: '0003_message_facts',
    up(db) {
      db.exec(`
        -- Which facts were in the model's context for an assistant message, so the UI can show them.
        CREATE TABLE message_facts (
          episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
          fact_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          PRIMARY KEY (episode_id, fact_id)
        ) WITHOUT ROWID;
        CREATE INDEX message_facts_by_fact ON message_facts(fact_id);
        ALTER TABLE conversations ADD COLUMN updated_at TEXT;
      `);
    },
  },
  {
    name: '0004_live_fact_lookups',
    up(db) {
      db.exec(`
        -- "Which live facts did this fact close?" (a current fact's predecessors, in every chat turn).
        CREATE INDEX facts_live_by_invalidated_by ON facts(invalidated_by) WHERE expired_at IS NULL AND invalidated_by IS NOT NULL;
        -- The predicates and their cardinality that extraction prompts list as vocabulary.
        CREATE INDEX facts_live_by_predicate ON facts(predicate, cardinality) WHERE expired_at IS NULL;
        -- Term statistics of the CJK indexes: very common pairs (です, さん) are left out of queries.
        CREATE VIRTUAL TABLE facts_cjk_vocab USING fts5vocab(facts_cjk, 'row');
        CREATE VIRTUAL TABLE episodes_cjk_vocab USING fts5vocab(episodes_cjk, 'row');
      `);
    },
  },
  {
    name: '0005_trigram_vocab',
    up(db) {
      db.exec(`
        -- Trigram statistics: a word's rows are at most its rarest trigram's, so searches can tell a
        -- common word ("likes", "manager" at 100k facts) from a distinctive one without scanning.
        CREATE VIRTUAL TABLE facts_fts_vocab USING fts5vocab(facts_fts, 'row');
        CREATE VIRTUAL TABLE episodes_fts_vocab USING fts5vocab(episodes_fts, 'row');
      `);
    },
  },
  {
    name: '0006_fact_end_kind_check',
    up(db) {
      // SQLite checks an IN list of three or more values by building a temporary b-tree for it on
      // every row written: facts' end_kind check cost ~3.5 µs a row, a third of a fact insert. The
      // same check as comparisons costs nothing. Every stored row satisfies both, so the stored CREATE
      // TABLE is edited in place, as SQLite's ALTER TABLE documentation describes for changing a CHECK
      // constraint (writable_schema, then schema_version + 1 so every connection reloads the schema).
      const before = "end_kind TEXT NOT NULL CHECK (end_kind IN ('open', 'explicit', 'successor', 'judged'))";
      const after = "end_kind TEXT NOT NULL CHECK (end_kind = 'open' OR end_kind = 'explicit' OR end_kind = 'successor' OR end_kind = 'judged')";
      const sql = db.prepare<[], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'facts'").pluck().get();
      if (sql === undefined || !sql.includes(before)) throw new Error("migration 0006: the facts table's end_kind check is not the one 0001 created");
      const version = db.pragma('schema_version', { simple: true }) as number;
      db.unsafeMode(true); // better-sqlite3 keeps SQLite's defensive mode on, which forbids writable_schema
      try {
        db.pragma('writable_schema = ON');
        db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'facts'").run(sql.replace(before, after));
        db.pragma(`schema_version = ${version + 1}`);
        db.pragma('writable_schema = RESET'); // OFF, and this connection reloads the schema too
      } finally {
        db.unsafeMode(false);
      }
    },
  },
  {
    name: '0007_cjk_ascii_tokenizer',
    up(db) {
      // The *_cjk indexes hold space-separated CJK terms (fts-index.ts cjkGrams). The ascii
      // tokenizer splits them at the spaces like unicode61 did, without looking up the Unicode
      // category and case folding of every character (~40% of their indexing time). Its terms differ
      // only where unicode61 split a pair at a CJK punctuation mark (ン・ was indexed as ン); queries
      // go through the same tokenizer. The contentless tables cannot be re-tokenized in place: they
      // are rebuilt from their rows, except rows still queued, which the next flush indexes.
      registerCjkGrams0007(db); // cjkGrams as it was (frozen/0007-cjk-grams.ts)
      for (const [table, rows, text, kind] of [
        ['facts_cjk', 'facts', 'fact', 'fact'],
        ['episodes_cjk', 'episodes', 'content', 'episode'],
      ] as const) {
        db.exec(`
          DROP TABLE ${table};
          CREATE VIRTUAL TABLE ${table} USING fts5(grams, content='', contentless_delete=1, tokenize='ascii');
          INSERT INTO ${table} (rowid, grams)
            SELECT rowid, grams FROM (
              SELECT rowid, tempora_0007_cjk_grams(${text}) AS grams FROM ${rows}
              WHERE rowid NOT IN (SELECT row FROM fts_queue WHERE kind = '${kind}') LIMIT -1
            ) WHERE grams <> '';
        `);
      }
    },
  },
  {
    name: '0008_time_precision_and_zones',
    up(db) {
      // How precisely each time was said ("since March" is a month), and the zone each message was
      // written in. Stores from before say nothing of either: their times were instants, their
      // offsets unknown. Checks as comparisons, not IN lists (see 0006).
      const check = (column: string) => `(${column} = 'instant' OR ${column} = 'day' OR ${column} = 'month' OR ${column} = 'year')`;
      db.exec(`
        ALTER TABLE facts ADD COLUMN valid_at_precision TEXT NOT NULL DEFAULT 'instant' CHECK ${check('valid_at_precision')};
        ALTER TABLE facts ADD COLUMN invalid_at_precision TEXT CHECK (invalid_at_precision IS NULL OR ${check('invalid_at_precision')});
        UPDATE facts SET invalid_at_precision = 'instant' WHERE invalid_at IS NOT NULL;
        ALTER TABLE claims ADD COLUMN valid_at_precision TEXT NOT NULL DEFAULT 'instant';
        ALTER TABLE claims ADD COLUMN end_precision TEXT;
        UPDATE claims SET end_precision = 'instant' WHERE end_at IS NOT NULL;
        ALTER TABLE episodes ADD COLUMN utc_offset TEXT;
        ALTER TABLE episodes ADD COLUMN time_zone TEXT;
      `);
    },
  },
  {
    name: '0009_one_predicate_vocabulary',
    up(db) {
      // Imports used to keep predicates as given ("note-3") while observe and ingestion normalise
      // them ("note_3"): the same relation sat in two slots the rules never resolved together. Every
      // predicate is normalised; the full text of a renamed fact is re-indexed (its old terms deleted
      // by value, as FTS5 external content requires); the live slots that were renamed are queued for
      // re-resolution, which the store runs when it opens (temporal/slot-refresh.ts).
      registerPredicate0009(db); // normalizePredicate as it was (frozen/0009-normalize-predicate.ts)
      db.exec(`
        CREATE TABLE slot_refresh_queue (subject_id TEXT NOT NULL, predicate TEXT NOT NULL, PRIMARY KEY (subject_id, predicate)) WITHOUT ROWID;
        CREATE TABLE migration_0009_renamed AS SELECT rowid AS row FROM facts WHERE predicate <> tempora_predicate(predicate);
        INSERT OR IGNORE INTO slot_refresh_queue (subject_id, predicate)
          SELECT DISTINCT subject_id, tempora_predicate(predicate) FROM facts WHERE rowid IN (SELECT row FROM migration_0009_renamed) AND expired_at IS NULL;
        INSERT INTO facts_fts (facts_fts, rowid, fact, predicate)
          SELECT 'delete', rowid, fact, predicate FROM facts
          WHERE rowid IN (SELECT row FROM migration_0009_renamed) AND rowid NOT IN (SELECT row FROM fts_queue WHERE kind = 'fact');
        UPDATE facts SET predicate = tempora_predicate(predicate) WHERE rowid IN (SELECT row FROM migration_0009_renamed);
        INSERT INTO facts_fts (rowid, fact, predicate)
          SELECT rowid, fact, predicate FROM facts
          WHERE rowid IN (SELECT row FROM migration_0009_renamed) AND rowid NOT IN (SELECT row FROM fts_queue WHERE kind = 'fact');
        UPDATE claims SET predicate = tempora_predicate(predicate) WHERE predicate <> tempora_predicate(predicate);
        DROP TABLE migration_0009_renamed; -- a plain table: a TEMP one would leave a temp schema on the connection
      `);
    },
  },
  {
    name: '0010_claims_by_object',
    up(db) {
      // A write to a `many` slot interacts only with the claims about the same object: they are
      // found by index, so learning one more "likes" or "note" does not reload every claim the slot
      // ever had (issue 14: 10,000 notes on one slot ran at 13 observations/s, slower each file).
      // object_key is objectKeyOf (the entity id, or the literal's normalised text).
      registerObjectKey0010(db); // objectKeyOf as it was (frozen/0010-object-key.ts)
      db.exec(`
        ALTER TABLE claims ADD COLUMN object_key TEXT;
        UPDATE claims SET object_key = tempora_object_key(object_id, object_literal);
        CREATE INDEX claims_by_object ON claims(subject_id, predicate, object_key);
        CREATE INDEX claims_one_by_slot ON claims(subject_id, predicate) WHERE cardinality = 'one';
        -- The latest claim of a slot: a one-valued slot told something new reads only its latest fact.
        CREATE INDEX claims_by_slot_time ON claims(subject_id, predicate, valid_at);
      `);
    },
  },
  {
    name: '0011_chat_history_import',
    up(db) {
      // Chat histories imported from ChatGPT and Claude exports: each message keeps where it came
      // from (the export's source, conversation and message ids; a re-import stores only ids not
      // seen), each conversation its source id. Imported messages are learned in a second lane of
      // the queue (lane 1, "backfill"), after live chat (lane 0), in sort_key order (their own time,
      // then their place in the conversation); the backfill can be paused, and that is kept here.
      db.exec(`
        ALTER TABLE episodes ADD COLUMN source TEXT;
        ALTER TABLE episodes ADD COLUMN source_conversation_id TEXT;
        ALTER TABLE episodes ADD COLUMN source_message_id TEXT;
        CREATE UNIQUE INDEX episodes_by_source_message ON episodes(source, source_message_id) WHERE source IS NOT NULL;
        ALTER TABLE conversations ADD COLUMN source TEXT;
        ALTER TABLE conversations ADD COLUMN source_id TEXT;
        CREATE UNIQUE INDEX conversations_by_source ON conversations(source, source_id) WHERE source IS NOT NULL;
        ALTER TABLE ingestion_jobs ADD COLUMN lane INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE ingestion_jobs ADD COLUMN sort_key TEXT;
        CREATE INDEX ingestion_jobs_by_lane ON ingestion_jobs(status, lane, sort_key, created_at, id);
        CREATE INDEX ingestion_jobs_backfill_done ON ingestion_jobs(lane, status, updated_at);
        CREATE TABLE queue_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      `);
    },
  },
  {
    name: '0012_message_learning',
    up(db) {
      // What each message's learning changed (the fact versions it added, closed and confirmed,
      // recorded in the write that applied it), and whether the user undid it (then it is never
      // learned again). Conversations can be kept unremembered (learn = 0: no job for their
      // messages), and say where their title came from: 'default' ("New conversation"), 'message'
      // (its first message), 'given' (named by whoever created it or the user); only 'default' is
      // replaced by the first message. Older conversations still called "New conversation" take
      // their first user message's first line now.
      db.exec(`
        CREATE TABLE message_learning (
          episode_id TEXT PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
          added TEXT NOT NULL,
          closed TEXT NOT NULL,
          confirmed TEXT NOT NULL,
          learned_at TEXT NOT NULL,
          undone_at TEXT,
          undo_report TEXT
        ) WITHOUT ROWID;
        ALTER TABLE conversations ADD COLUMN learn INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE conversations ADD COLUMN title_source TEXT NOT NULL DEFAULT 'given';
        UPDATE conversations SET title_source = 'default' WHERE title = 'New conversation';
      `);
      const first = db.prepare<[string], { content: string }>("SELECT content FROM episodes WHERE conversation_id = ? AND role = 'user' ORDER BY reference_time, created_at, id LIMIT 1");
      const retitle = db.prepare("UPDATE conversations SET title = ?, title_source = 'message' WHERE id = ?");
      // As store/conversation-title.ts did when this was released (a migration never changes).
      const titleFromMessage = (content: string) => {
        const chars = [...(content.trim().split('\n')[0] ?? '').trim().replace(/\s+/g, ' ')];
        return chars.length > 60 ? `${chars.slice(0, 59).join('').trimEnd()}…` : chars.join('');
      };
      for (const { id } of db.prepare<[], { id: string }>("SELECT id FROM conversations WHERE title_source = 'default'").all()) {
        const message = first.get(id);
        if (message) retitle.run(titleFromMessage(message.content), id);
      }
    },
  },
  {
    name: '0013_version_cause',
    up(db) {
      // Why each version was written (JSON, shared/fact-history.ts writeCause): the user's edit of
      // a fact, learning from a message, observing, a forget or a migration re-resolving the slot.
      // The fact page says so per version. Older versions have none (their fields still tell some).
      db.exec('ALTER TABLE facts ADD COLUMN cause TEXT');
    },
  },
  {
    name: '0014_fact_time_lookups',
    up(db) {
      db.exec(`
        -- Every version by valid time (the live ones had facts_live_by_valid_at only): the history
        -- as of a time and the facts overlapping [t1, t2) read a range, not the table; with
        -- invalid_at and expired_at in the index, a list's total is counted from the index alone.
        CREATE INDEX facts_by_valid_at ON facts(valid_at, invalid_at, expired_at);
        -- A page of the history of one predicate ("every manager ever"), in valid time order.
        CREATE INDEX facts_by_predicate_time ON facts(predicate, valid_at);
        -- The timeline's rows (subject + predicate) and their summaries from the index alone, and a
        -- row's facts in a valid-time window; it serves every lookup facts_live_by_slot did.
        CREATE INDEX facts_live_by_slot_time ON facts(subject_id, predicate, valid_at, invalid_at, expired_at) WHERE expired_at IS NULL;
        DROP INDEX facts_live_by_slot;
      `);
    },
  },
  {
    name: '0015_live_counts',
    up(db) {
      // Learning a message must not cost more as the memory grows (issue 14): the extraction
      // prompt's vocabulary counted every live fact by subject and by predicate (~9 ms each at
      // 100k facts), and looked for the names a message mentions by reading every entity.
      // The counts are now kept by triggers (live-counts.ts), and names are found by their first
      // three characters (vocabulary.ts: each run of up to three characters of the message).
      db.exec(`
        CREATE TABLE live_subjects (subject_id TEXT PRIMARY KEY, live INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX live_subjects_by_count ON live_subjects(live DESC, subject_id);
        CREATE TABLE live_predicates (predicate TEXT NOT NULL, cardinality TEXT NOT NULL, live INTEGER NOT NULL, PRIMARY KEY (predicate, cardinality)) WITHOUT ROWID;
        CREATE TRIGGER facts_live_count_insert AFTER INSERT ON facts WHEN new.expired_at IS NULL BEGIN
        INSERT INTO live_subjects (subject_id, live) VALUES (new.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET live = live + 1;
        INSERT INTO live_predicates (predicate, cardinality, live) VALUES (new.predicate, new.cardinality, 1) ON CONFLICT (predicate, cardinality) DO UPDATE SET live = live + 1;
        END;
        CREATE TRIGGER facts_live_count_delete AFTER DELETE ON facts WHEN old.expired_at IS NULL BEGIN
        UPDATE live_subjects SET live = live - 1 WHERE subject_id = old.subject_id;
        DELETE FROM live_subjects WHERE subject_id = old.subject_id AND live <= 0;
        UPDATE live_predicates SET live = live - 1 WHERE predicate = old.predicate AND cardinality = old.cardinality;
        DELETE FROM live_predicates WHERE predicate = old.predicate AND cardinality = old.cardinality AND live <= 0;
        END;
        CREATE TRIGGER facts_live_count_update AFTER UPDATE OF expired_at, subject_id, predicate, cardinality ON facts
        WHEN old.expired_at IS NULL OR new.expired_at IS NULL BEGIN
        UPDATE live_subjects SET live = live - 1 WHERE old.expired_at IS NULL AND subject_id = old.subject_id;
        DELETE FROM live_subjects WHERE old.expired_at IS NULL AND subject_id = old.subject_id AND live <= 0;
        UPDATE live_predicates SET live = live - 1 WHERE old.expired_at IS NULL AND predicate = old.predicate AND cardinality = old.cardinality;
        DELETE FROM live_predicates WHERE old.expired_at IS NULL AND predicate = old.predicate AND cardinality = old.cardinality AND live <= 0;
        INSERT INTO live_subjects (subject_id, live) SELECT new.subject_id, 1 WHERE new.expired_at IS NULL ON CONFLICT (subject_id) DO UPDATE SET live = live + 1;
        INSERT INTO live_predicates (predicate, cardinality, live) SELECT new.predicate, new.cardinality, 1 WHERE new.expired_at IS NULL
          ON CONFLICT (predicate, cardinality) DO UPDATE SET live = live + 1;
        END;
        INSERT INTO live_subjects (subject_id, live) SELECT subject_id, COUNT(*) FROM facts WHERE expired_at IS NULL GROUP BY subject_id;
        INSERT INTO live_predicates (predicate, cardinality, live) SELECT predicate, cardinality, COUNT(*) FROM facts WHERE expired_at IS NULL GROUP BY predicate, cardinality;
      `);
      db.exec('CREATE INDEX entities_by_name_head ON entities(substr(name, 1, 3))');
    },
  },
  {
    name: '0016_review_before_remembering',
    up(db) {
      // Learned messages may wait for the user's review before anything is remembered
      // (pending-reviews.ts): the setting lives in the memory, so every door follows it. A rejected
      // one keeps its row (rejected_at), so the message says it was rejected.
      db.exec(`
        CREATE TABLE memory_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE pending_reviews (
          episode_id TEXT PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
          learning TEXT NOT NULL,
          held_at TEXT NOT NULL,
          rejected_at TEXT
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    name: '0017_forgotten_history',
    up(db) {
      // A message imported from a chat history and then forgotten (or its conversation deleted)
      // stays forgotten: importing the same export again skips it (store/chat-history.ts).
      db.exec(`
        CREATE TABLE forgotten_history (source TEXT NOT NULL, message_id TEXT NOT NULL, PRIMARY KEY (source, message_id)) WITHOUT ROWID;
        CREATE TRIGGER episodes_history_forgotten AFTER DELETE ON episodes WHEN old.source IS NOT NULL AND old.source_message_id IS NOT NULL BEGIN
          INSERT OR IGNORE INTO forgotten_history (source, message_id) VALUES (old.source, old.source_message_id);
        END;
      `);
    },
  },
  {
    name: '0018_conversation_counts',
    up(db) {
      // The conversation list counted every conversation's messages by a join over all messages
      // (~250 ms at a million): each conversation keeps its count and the time of its last message,
      // kept by triggers (a bulk load drops them and counts once: transfer/bulk-load.ts). Forgetting a
      // message lowers the count and leaves the time of the last message as it was.
      db.exec(`
        ALTER TABLE conversations ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE conversations ADD COLUMN last_message_at TEXT;
        UPDATE conversations SET
          message_count = (SELECT COUNT(*) FROM episodes e WHERE e.conversation_id = conversations.id),
          last_message_at = (SELECT MAX(e.created_at) FROM episodes e WHERE e.conversation_id = conversations.id);
        CREATE TRIGGER episodes_count_insert AFTER INSERT ON episodes WHEN new.conversation_id IS NOT NULL BEGIN
          UPDATE conversations SET message_count = message_count + 1, last_message_at = MAX(COALESCE(last_message_at, ''), new.created_at) WHERE id = new.conversation_id;
        END;
        CREATE TRIGGER episodes_count_delete AFTER DELETE ON episodes WHEN old.conversation_id IS NOT NULL BEGIN
          UPDATE conversations SET message_count = message_count - 1 WHERE id = old.conversation_id;
        END;
      `);
    },
  },
  {
    name: '0019_timeline_rows',
    up(db) {
      // The timeline's row list was one pass over every held fact (~0.6 s at a million): its rows,
      // subjects, totals and the starts and ends by the hour are kept by triggers instead
      // (store/timeline-rows.ts; a bulk load drops the triggers and counts once).
      // The tables, count and triggers as they were (frozen/0019-timeline-rows.ts).
      db.exec(TIMELINE_ROW_TABLES_SQL_0019);
      countTimelineRows0019(db);
      db.exec(TIMELINE_ROW_TRIGGERS_SQL_0019);
    },
  },
  {
    name: '0020_vector_changes',
    up(db) {
      // Start-up reconciled the vector index by reading every item's text hash from SQLite and
      // LanceDB (11.8 s at a million facts, also when nothing changed). Triggers now record each
      // item whose embedded text or liveness changes in an outbox, drained after LanceDB has the
      // write, and each table's last sync is recorded (memory/vectors/vector-changes.ts). Nothing is
      // recorded until a vector table has synced once (its first sync reads everything anyway).
      const recording = 'EXISTS (SELECT 1 FROM vector_sync)';
      const record = (id: string, kind: string) => `INSERT INTO vector_changes (item_id, kind) VALUES (${id}, '${kind}');`;
      db.exec(`
        CREATE TABLE vector_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT NOT NULL, kind TEXT NOT NULL);
        CREATE INDEX vector_changes_by_kind ON vector_changes(kind, seq);
        CREATE TABLE vector_sync (table_name TEXT PRIMARY KEY, generation TEXT, schema_version INTEGER NOT NULL, recipe TEXT NOT NULL, model TEXT NOT NULL) WITHOUT ROWID;
        CREATE TRIGGER facts_vector_insert AFTER INSERT ON facts WHEN new.expired_at IS NULL AND ${recording} BEGIN ${record('new.id', 'fact')} END;
        CREATE TRIGGER facts_vector_update AFTER UPDATE OF fact, expired_at ON facts
          WHEN (old.fact IS NOT new.fact OR old.expired_at IS NOT new.expired_at) AND ${recording} BEGIN ${record('new.id', 'fact')} END;
        CREATE TRIGGER facts_vector_delete AFTER DELETE ON facts WHEN old.expired_at IS NULL AND ${recording} BEGIN ${record('old.id', 'fact')} END;
        CREATE TRIGGER entities_vector_insert AFTER INSERT ON entities WHEN ${recording} BEGIN ${record('new.id', 'entity')} END;
        CREATE TRIGGER entities_vector_update AFTER UPDATE OF name, summary ON entities
          WHEN (old.name IS NOT new.name OR old.summary IS NOT new.summary) AND ${recording} BEGIN ${record('new.id', 'entity')} END;
        CREATE TRIGGER entities_vector_delete AFTER DELETE ON entities WHEN ${recording} BEGIN ${record('old.id', 'entity')} END;
        CREATE TRIGGER entity_aliases_vector_insert AFTER INSERT ON entity_aliases WHEN ${recording} BEGIN ${record('new.entity_id', 'entity')} END;
        CREATE TRIGGER entity_aliases_vector_update AFTER UPDATE ON entity_aliases WHEN ${recording} BEGIN ${record('old.entity_id', 'entity')} ${record('new.entity_id', 'entity')} END;
        CREATE TRIGGER entity_aliases_vector_delete AFTER DELETE ON entity_aliases WHEN ${recording} BEGIN ${record('old.entity_id', 'entity')} END;
        CREATE TRIGGER episodes_vector_insert AFTER INSERT ON episodes WHEN new.role IN ('user', 'document') AND ${recording} BEGIN ${record('new.id', 'episode')} END;
        CREATE TRIGGER episodes_vector_update AFTER UPDATE OF role, content ON episodes
          WHEN (old.role IS NOT new.role OR old.content IS NOT new.content) AND ${recording} BEGIN ${record('new.id', 'episode')} END;
        CREATE TRIGGER episodes_vector_delete AFTER DELETE ON episodes WHEN old.role IN ('user', 'document') AND ${recording} BEGIN ${record('old.id', 'episode')} END;
      `);
    },
  },
  {
    name: '0021_message_learning_kept',
    up(db) {
      // The Learning a message's learning applied (plain data: temporal/learn.ts), kept beside what
      // it changed, so that Redo after Undo applies the same learning again without the model.
      // Messages learned before this step have none: they can be undone, not redone.
      db.exec('ALTER TABLE message_learning ADD COLUMN learning TEXT');
    },
  },
  {
    name: '0022_timeline_natural_order',
    up(db) {
      // The timeline's subjects were in string order (Person 1, Person 10, Person 100, Person 2): each
      // keeps a natural sort key (store/natural-order.ts: digit runs by value), set by two triggers
      // on the kept subjects when one is added or renamed, and the order's index walks it.
      registerNaturalKey0022(db); // naturalKey as it was (frozen/0022-natural-key.ts); the triggers call the live one
      db.exec(`
        DROP INDEX timeline_subjects_in_order;
        ALTER TABLE timeline_subjects ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
        UPDATE timeline_subjects SET sort_key = tempora_0022_natural_key(name);
        CREATE INDEX timeline_subjects_in_order ON timeline_subjects(mine DESC, sort_key, name, subject_id);
        CREATE TRIGGER timeline_subjects_sort_insert AFTER INSERT ON timeline_subjects BEGIN
          UPDATE timeline_subjects SET sort_key = tempora_natural_key(new.name) WHERE subject_id = new.subject_id;
        END;
        CREATE TRIGGER timeline_subjects_sort_rename AFTER UPDATE OF name ON timeline_subjects WHEN old.name IS NOT new.name BEGIN
          UPDATE timeline_subjects SET sort_key = tempora_natural_key(new.name) WHERE subject_id = new.subject_id;
        END;
      `);
    },
  },
  {
    name: '0023_change_feed',
    up(db) {
      // "What changed" (temporal/change-feed.ts) pages the held facts newest first by when they
      // began and when a stated end closed them, also about one subject: the live facts of a subject
      // by valid time (facts_by_subject_time holds every version), and the stated ends (explicit or
      // judged, not a successor's: few) by time, also by subject. A page reads a page of each.
      db.exec(`
        CREATE INDEX facts_live_by_subject_valid_at ON facts(subject_id, valid_at) WHERE expired_at IS NULL;
        CREATE INDEX facts_live_stated_ends ON facts(invalid_at) WHERE expired_at IS NULL AND invalid_at IS NOT NULL AND end_kind <> 'successor';
        CREATE INDEX facts_live_stated_ends_by_subject ON facts(subject_id, invalid_at) WHERE expired_at IS NULL AND invalid_at IS NOT NULL AND end_kind <> 'successor';
      `);
    },
  },
  {
    name: '0024_facts_first_recorded',
    up(db) {
      // The Timeline says why it is empty at a known-at before anything was recorded ("the first
      // facts were recorded on 2 Dec 2026"): the earliest created_at, one index step. NOCASE keeps
      // the known-at queries (created_at <= ?, BINARY) off this index, so their plans stay as they are.
      db.exec('CREATE INDEX facts_first_recorded ON facts(created_at COLLATE NOCASE)');
    },
  },
  {
    name: '0025_timeline_filter_and_known_at',
    up(db) {
      // The timeline's row filter finds the facts it keeps by index (temporal/timeline-source.ts):
      // names by the entities' index, predicates by theirs, and a literal value that contains the
      // text by a scan of the literals alone — this index, partial, holds nothing else. Known at a
      // time K, its rows are the kept rows with what changed since K undone (temporal/timeline-known-at.ts):
      // the held versions recorded since K and the versions replaced since K, each a range, covered.
      db.exec(`
        CREATE INDEX facts_literal_values ON facts(object_literal, expired_at, created_at) WHERE object_literal IS NOT NULL;
        CREATE INDEX facts_live_by_created_at ON facts(created_at, subject_id, predicate, valid_at, invalid_at) WHERE expired_at IS NULL;
        CREATE INDEX facts_replaced_by_expired_at ON facts(expired_at, created_at, subject_id, predicate, valid_at, invalid_at) WHERE expired_at IS NOT NULL;
      `);
    },
  },  {
    name: '0026_settings_in_one_store',
    up(db) {
      // Every setting lives here now, one row each, named as in shared/settings-schema.ts, its value
      // as JSON (store/settings.ts); the app's settings.json is carried in when an engine opens the
      // memory (engine/engine-settings.ts). Review before remembering was '1' / '0' under its old name.
      db.exec(`
        INSERT OR REPLACE INTO memory_settings (key, value)
          SELECT 'reviewBeforeRemembering', CASE value WHEN '1' THEN 'true' ELSE 'false' END FROM memory_settings WHERE key = 'review_before_remembering';
        DELETE FROM memory_settings WHERE key = 'review_before_remembering';
      `);
    },
  },
  {
    name: '0027_timeline_rows_by_predicate',
    up(db) {
      // A row filter that names a predicate or a subject keeps whole rows: the window is then read
      // from the kept rows (temporal/timeline-kept-filter.ts) — a predicate's rows by this index, and
      // its held facts' starts and ends counted per span of the density by the two below.
      db.exec(`
        CREATE INDEX timeline_slots_by_predicate ON timeline_slots(predicate);
        CREATE INDEX facts_live_by_predicate_valid_at ON facts(predicate, valid_at) WHERE expired_at IS NULL;
        CREATE INDEX facts_live_by_predicate_invalid_at ON facts(predicate, invalid_at) WHERE expired_at IS NULL AND invalid_at IS NOT NULL;
      `);
    },
  },
  {
    name: '0028_fewer_indexes_written',
    up(db) {
      // Two indexes every learned message wrote and no query needs (issue 29): each is the first
      // columns of another index, which the same lookups use — a slot's claims by claims_by_slot_time
      // (subject_id, predicate, valid_at) or claims_by_object, the jobs of a status by
      // ingestion_jobs_by_lane (status, lane, …). What they still gave, an order by id or created_at
      // over one slot's claims or the parked jobs, is a sort of those few rows.
      db.exec(`
        DROP INDEX IF EXISTS claims_by_slot;
        DROP INDEX IF EXISTS ingestion_jobs_by_status;
      `);
    },
  },
  {
    name: '0029_sync_outbox',
    up(db) {
      // Sync (issue 31, electron/memory/sync/): every claim gets an id that is the same on every
      // device (sync_id), and every write appends what another device needs to the outbox in the
      // same transaction, by trigger — unless the write is a sync applying another device's records
      // (a row in sync_applying), which are never sent again. What is already stored goes in the
      // outbox once, here, so a first sync sends the whole memory.
      const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
      const local = 'NOT EXISTS (SELECT 1 FROM sync_applying)';
      const out = (kind: string, ref: string) => `INSERT INTO sync_outbox (kind, ref, recorded_at) VALUES ('${kind}', ${ref}, ${now});`;
      db.exec(`
        ALTER TABLE claims ADD COLUMN sync_id TEXT;
        UPDATE claims SET sync_id = lower(hex(randomblob(16)));
        CREATE UNIQUE INDEX claims_by_sync_id ON claims(sync_id);
        CREATE TABLE sync_applying (one INTEGER PRIMARY KEY CHECK (one = 1));
        CREATE TABLE sync_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, ref TEXT NOT NULL, recorded_at TEXT NOT NULL);
        CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_cursors (device TEXT PRIMARY KEY, name TEXT NOT NULL, seq INTEGER NOT NULL, applied_at TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_removed (key TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE sync_waiting (uid TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_versions (key TEXT PRIMARY KEY, version TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_segments (seq INTEGER PRIMARY KEY, name TEXT NOT NULL, last_outbox INTEGER NOT NULL, uploaded INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE sync_segment_keys (key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (key, seq)) WITHOUT ROWID;
        INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'conversation', id, created_at FROM conversations ORDER BY created_at, id;
        INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'episode', id, created_at FROM episodes ORDER BY created_at, id;
        INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'claim', c.sync_id, f.created_at FROM claims c JOIN facts f ON f.id = c.fact_id ORDER BY f.created_at, c.id;
        CREATE TRIGGER claims_sync_insert AFTER INSERT ON claims WHEN ${local} BEGIN
          UPDATE claims SET sync_id = lower(hex(randomblob(16))) WHERE id = new.id AND sync_id IS NULL;
          ${out('claim', '(SELECT sync_id FROM claims WHERE id = new.id)')}
        END;
        CREATE TRIGGER claims_sync_delete AFTER DELETE ON claims WHEN ${local} AND old.sync_id IS NOT NULL BEGIN ${out('unclaim', 'old.sync_id')} END;
        CREATE TRIGGER claims_sync_update AFTER UPDATE OF episode_ids, end_at, end_kind, end_precision ON claims
          WHEN ${local} AND (old.episode_ids IS NOT new.episode_ids OR old.end_at IS NOT new.end_at OR old.end_kind IS NOT new.end_kind OR old.end_precision IS NOT new.end_precision) BEGIN
          ${out('unclaim', 'old.sync_id')}
          UPDATE claims SET sync_id = lower(hex(randomblob(16))) WHERE id = new.id;
          ${out('claim', '(SELECT sync_id FROM claims WHERE id = new.id)')}
        END;
        CREATE TRIGGER episodes_sync_insert AFTER INSERT ON episodes WHEN ${local} BEGIN ${out('episode', 'new.id')} END;
        CREATE TRIGGER episodes_sync_move AFTER UPDATE OF conversation_id ON episodes WHEN ${local} AND old.conversation_id IS NOT new.conversation_id BEGIN ${out('episode', 'new.id')} END;
        CREATE TRIGGER episodes_sync_delete AFTER DELETE ON episodes WHEN ${local} BEGIN ${out('episode-forgotten', 'old.id')} END;
        CREATE TRIGGER conversations_sync_insert AFTER INSERT ON conversations WHEN ${local} BEGIN ${out('conversation', 'new.id')} END;
        CREATE TRIGGER conversations_sync_update AFTER UPDATE OF title, learn ON conversations
          WHEN ${local} AND (old.title IS NOT new.title OR old.learn IS NOT new.learn) BEGIN ${out('conversation', 'new.id')} END;
        CREATE TRIGGER conversations_sync_delete AFTER DELETE ON conversations WHEN ${local} BEGIN ${out('conversation-deleted', 'old.id')} END;
      `);
    },
  },
  {
    name: '0030_timeline_lives',
    up(db) {
      // The timeline known at a time far back (issue 26, temporal/timeline-known-far.ts) read every
      // version held then: when each subject and row was held, in system time, and the starts and ends
      // counted per month of system time are kept instead, by triggers (store/timeline-lives.ts, its
      // copy frozen/0030-timeline-lives.ts), and counted once here from the versions.
      registerNaturalKey0022(db);
      db.exec(TIMELINE_LIFE_TABLES_SQL_0030);
      countTimelineLives0030(db);
      db.exec(TIMELINE_LIFE_TRIGGERS_SQL_0030);
    },
  },
  {
    name: '0031_fewer_fact_indexes',
    up(db) {
      // Fewer indexes written per fact version (issue 29): every plan the tests and the screens'
      // queries make was listed against the indexes of facts; two were a second copy of what another
      // holds, written on every insert and every expiry.
      // - facts_live_by_predicate (predicate, cardinality), held versions: the extraction prompt's
      //   predicates are read from live_predicates since 0015 (kept by triggers); its one query left
      //   was the recount after a bulk load (store/live-counts.ts), one pass over the facts anyway.
      // - facts_live_by_predicate_valid_at (predicate, valid_at), held versions: the same entries
      //   as facts_by_predicate_time, less the replaced versions. That index now carries expired_at,
      //   so a predicate's held facts (the timeline's row filter, its density counts, a list by
      //   predicate) are still read and counted from it alone, stepping over the replaced ones.
      db.exec(`
        DROP INDEX IF EXISTS facts_live_by_predicate;
        DROP INDEX IF EXISTS facts_live_by_predicate_valid_at;
        DROP INDEX IF EXISTS facts_by_predicate_time;
        CREATE INDEX facts_by_predicate_time ON facts(predicate, valid_at, expired_at);
      `);
    },
  },
  {
    name: '0032_conversation_last_said',
    up(db) {
      // A conversation is dated by its last message's time as said (reference_time), not by when the
      // message was written here: history imported today (import-chats) kept "today" on every
      // conversation and listed them in the file's order. Counted again from the messages.
      db.exec(`
        DROP TRIGGER IF EXISTS episodes_count_insert;
        UPDATE conversations SET last_message_at = (SELECT MAX(e.reference_time) FROM episodes e WHERE e.conversation_id = conversations.id);
        CREATE TRIGGER episodes_count_insert AFTER INSERT ON episodes WHEN new.conversation_id IS NOT NULL BEGIN
          UPDATE conversations SET message_count = message_count + 1, last_message_at = MAX(COALESCE(last_message_at, ''), new.reference_time) WHERE id = new.conversation_id;
        END;
      `);
    },
  },
  {
    name: '0033_sync_waiting_for',
    up(db) {
      // A claim from another device that cites a message not received yet waits (sync_waiting). Each
      // applied segment read every waiting claim again, so a memory whose claims were queued before
      // their messages (an import queues them so) waited on itself: 41 segments × 100k waiting claims,
      // 2.6k records/s at 100k. The messages each one waits for, indexed: an arriving message
      // (or its forget) wakes only the claims that wait for it.
      db.exec(`
        CREATE TABLE sync_waiting_for (episode_id TEXT NOT NULL, uid TEXT NOT NULL, PRIMARY KEY (episode_id, uid)) WITHOUT ROWID;
        INSERT OR IGNORE INTO sync_waiting_for (episode_id, uid)
          SELECT j.value, w.uid FROM sync_waiting w, json_each(json_extract(w.record, '$.episode_ids')) j
          WHERE NOT EXISTS (SELECT 1 FROM episodes e WHERE e.id = j.value);
        -- One whose messages are all here by now is looked at again at the next apply ('': every apply).
        INSERT OR IGNORE INTO sync_waiting_for (episode_id, uid) SELECT '', uid FROM sync_waiting w
          WHERE NOT EXISTS (SELECT 1 FROM sync_waiting_for f WHERE f.uid = w.uid);
      `);
    },
  },
  {
    name: '0034_conversation_last_said_after_forget',
    up(db) {
      // A conversation is dated by its last message's time as said; forgetting that message left the
      // date behind, so the conversation stayed listed by a message it no longer holds, and a device
      // that synced it later (counting from the messages it received) dated it otherwise.
      db.exec(`
        DROP TRIGGER IF EXISTS episodes_count_delete;
        UPDATE conversations SET last_message_at = (SELECT MAX(e.reference_time) FROM episodes e WHERE e.conversation_id = conversations.id);
        CREATE TRIGGER episodes_count_delete AFTER DELETE ON episodes WHEN old.conversation_id IS NOT NULL BEGIN
          UPDATE conversations SET message_count = message_count - 1,
            last_message_at = CASE WHEN last_message_at = old.reference_time
              THEN (SELECT MAX(e.reference_time) FROM episodes e WHERE e.conversation_id = old.conversation_id) ELSE last_message_at END
            WHERE id = old.conversation_id;
        END;
      `);
    },
  },
  {
    name: '0035_sync_segment_content',
    up(db) {
      // What each of this device's segments holds (the keys a forget looks its segments up by) was one
      // row per record in a table ordered by key: every segment written inserted 5,000 keys at random
      // places, ~18 s of the 115 s a million facts' first upload took. One row per segment now,
      // appended; a forget (rare) reads them all.
      db.exec(`
        CREATE TABLE sync_segment_content (seq INTEGER PRIMARY KEY, keys TEXT NOT NULL);
        INSERT INTO sync_segment_content (seq, keys) SELECT seq, group_concat(key, char(10)) FROM sync_segment_keys GROUP BY seq;
        DROP TABLE sync_segment_keys;
      `);
    },
  },
  {
    name: '0036_claim_episodes',
    up(db) {
      // The claims citing a message (a forget of it, a learning undone, another device's forget) were
      // found by reading every claim's message list: ~100 ms a message at a million claims, so
      // forgetting a long conversation took minutes. Each claim's messages, kept by trigger and indexed;
      // and the claims a fact's judgement ended, by the fact (only judged ends name one).
      db.exec(`
        CREATE TABLE claim_episodes (episode_id TEXT NOT NULL, claim_id INTEGER NOT NULL, PRIMARY KEY (episode_id, claim_id)) WITHOUT ROWID;
        INSERT OR IGNORE INTO claim_episodes (episode_id, claim_id) SELECT j.value, c.id FROM claims c, json_each(c.episode_ids) j ORDER BY 1, 2;
        CREATE TRIGGER claims_episodes_insert AFTER INSERT ON claims BEGIN
          INSERT OR IGNORE INTO claim_episodes (episode_id, claim_id) SELECT value, new.id FROM json_each(new.episode_ids);
        END;
        CREATE TRIGGER claims_episodes_update AFTER UPDATE OF episode_ids ON claims WHEN old.episode_ids IS NOT new.episode_ids BEGIN
          DELETE FROM claim_episodes WHERE claim_id = old.id AND episode_id IN (SELECT value FROM json_each(old.episode_ids));
          INSERT OR IGNORE INTO claim_episodes (episode_id, claim_id) SELECT value, new.id FROM json_each(new.episode_ids);
        END;
        CREATE TRIGGER claims_episodes_delete AFTER DELETE ON claims BEGIN
          DELETE FROM claim_episodes WHERE claim_id = old.id AND episode_id IN (SELECT value FROM json_each(old.episode_ids));
        END;
        -- The claims a forgotten fact had ended (a judged end names it): a whole-table read each time too.
        CREATE INDEX claims_by_end_by ON claims(end_by) WHERE end_by IS NOT NULL;
      `);
    },
  },
  {
    name: '0037_vectors_of_facts_only',
    up(db) {
      // Entities and messages were embedded into a second vector table that no search read (chat and
      // search rank facts by vector; people and messages are found by their text): at a million facts
      // 1.1M vectors, 1.3 GB of disk, and an embedding per learned message. Only facts are embedded
      // now (memory/vectors/vector-source.ts): their outbox triggers and records go.
      db.exec(`
        DROP TRIGGER IF EXISTS entities_vector_insert;
        DROP TRIGGER IF EXISTS entities_vector_update;
        DROP TRIGGER IF EXISTS entities_vector_delete;
        DROP TRIGGER IF EXISTS entity_aliases_vector_insert;
        DROP TRIGGER IF EXISTS entity_aliases_vector_update;
        DROP TRIGGER IF EXISTS entity_aliases_vector_delete;
        DROP TRIGGER IF EXISTS episodes_vector_insert;
        DROP TRIGGER IF EXISTS episodes_vector_update;
        DROP TRIGGER IF EXISTS episodes_vector_delete;
        DELETE FROM vector_changes WHERE kind <> 'fact';
        DELETE FROM vector_sync WHERE table_name = 'others';
      `);
    },
  },
  {
    name: '0038_sync_outbox_once_syncing',
    up(db) {
      // Every write appended each new message and claim to the sync outbox, also on a memory that
      // never syncs: a second copy of every message and claim id (125 MB at a million facts), growing
      // for ever. Those two triggers now note only once the outbox is on (sync_state 'outbox'), which
      // a device's first sync turns on, queueing every message and claim stored then (sync-outgoing.ts
      // startOutbox). The rest (forgets, undos and edits of claims, conversations) are few and still
      // noted from the start: another device may hold the same rows (the same export imported on both).
      // A memory that has drawn a device id keeps its outbox; any other drops the rows it re-queues.
      const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
      const noted = "NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'outbox')";
      db.exec(`
        INSERT INTO sync_state (key, value) SELECT 'outbox', 'on' WHERE EXISTS (SELECT 1 FROM sync_state WHERE key = 'device');
        DELETE FROM sync_outbox WHERE kind IN ('claim', 'episode') AND NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'outbox');
        DROP TRIGGER claims_sync_insert;
        DROP TRIGGER episodes_sync_insert;
        CREATE TRIGGER claims_sync_insert AFTER INSERT ON claims WHEN ${noted} BEGIN
          UPDATE claims SET sync_id = lower(hex(randomblob(16))) WHERE id = new.id AND sync_id IS NULL;
          INSERT INTO sync_outbox (kind, ref, recorded_at) VALUES ('claim', (SELECT sync_id FROM claims WHERE id = new.id), ${now});
        END;
        CREATE TRIGGER episodes_sync_insert AFTER INSERT ON episodes WHEN ${noted} BEGIN INSERT INTO sync_outbox (kind, ref, recorded_at) VALUES ('episode', new.id, ${now}); END;
      `);
    },
  },
  {
    name: '0039_first_recorded_from_created_at_indexes',
    up(db) {
      // The earliest created_at of any version had an index of its own over every version (33 MB at
      // a million facts); the live and the replaced versions each have one by created_at already
      // (facts_live_by_created_at, facts_replaced_by_created_at): the earlier of their two firsts.
      db.exec('DROP INDEX facts_first_recorded');
    },
  },
  {
    name: '0040_one_device_name',
    up(db) {
      // This device's name was kept twice: by `tempora sync --name` in sync_state and by Settings →
      // Sync in the settings, which put its own back (and sent it again) at every sync after the
      // command renamed it. The setting is now the one name both read and write. sync_state's holds
      // the name set last by either (the app wrote it there at each Save and sync), so it wins.
      db.exec(`
        INSERT INTO memory_settings (key, value) SELECT 'syncDeviceName', json_quote(value) FROM sync_state WHERE key = 'deviceName'
          ON CONFLICT (key) DO UPDATE SET value = excluded.value;
        DELETE FROM sync_state WHERE key = 'deviceName';
      `);
    },
  },
  {
    name: '0041_entity_short_names',
    up(db) {
      // A name of one or two characters in a message (ヨガ, Bo, 李さん) was matched against every
      // stored name by LIKE (15 ms at 100k entities) and kept the first eight in stored order, which
      // could hide the one meant. Under entity resolution's bigram Dice, only a name or alias of at
      // most four characters after its honorifics can score for it: each such name is kept here
      // under its bigrams (one character: that character), with its length, shortest found first.
      db.exec(`
        CREATE TABLE entity_short_names (
          pair TEXT NOT NULL,
          length INTEGER NOT NULL,
          entity_id TEXT NOT NULL,
          PRIMARY KEY (pair, length, entity_id)
        ) WITHOUT ROWID;
        CREATE INDEX entity_short_names_by_entity ON entity_short_names(entity_id);
      `);
      fillShortNames0041(db);
    },
  },
];
