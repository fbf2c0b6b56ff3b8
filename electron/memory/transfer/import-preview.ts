/**
 * What an import of a document would do, without writing: whether it passes the shape check, how
 * many records of each kind it holds, and how many of their ids already exist here (an import
 * refuses those unless replacing). References are not checked here; the import checks them.
 */
import type { Database } from 'better-sqlite3';
import { parseExport } from './parse-export';

export interface ImportPreview {
  valid: boolean;
  /** What is wrong with the document, naming the field, when not valid. */
  error: string | null;
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  /** Ids of the document that already exist in the store. */
  clashes: number;
}

/** One fixed statement per table: how many of a JSON array of ids it holds. */
const COUNT_EXISTING = {
  conversations: 'SELECT COUNT(*) AS n FROM conversations WHERE id IN (SELECT value FROM json_each(?))',
  episodes: 'SELECT COUNT(*) AS n FROM episodes WHERE id IN (SELECT value FROM json_each(?))',
  entities: 'SELECT COUNT(*) AS n FROM entities WHERE id IN (SELECT value FROM json_each(?))',
  facts: 'SELECT COUNT(*) AS n FROM facts WHERE id IN (SELECT value FROM json_each(?))',
} as const;

function countExisting(db: Database, table: keyof typeof COUNT_EXISTING, records: readonly { id: string }[]): number {
  if (records.length === 0) return 0;
  return db.prepare<[string], { n: number }>(COUNT_EXISTING[table]).get(JSON.stringify(records.map((r) => r.id)))!.n;
}

/** Never throws: a document that does not parse (or a failing count) gives valid: false and the error's message. */
export function previewImport(db: Database, document: unknown): ImportPreview {
  try {
    const doc = parseExport(document);
    const clashes =
      countExisting(db, 'conversations', doc.conversations) + countExisting(db, 'episodes', doc.episodes) + countExisting(db, 'entities', doc.entities) + countExisting(db, 'facts', doc.facts);
    return { valid: true, error: null, conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length, clashes };
  } catch (error) {
    return { valid: false, error: (error as Error).message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0 };
  }
}
