/**
 * What an import asks the store about the document's ids: whether each already exists here (a clash,
 * or a reference to a stored row), and when a stored episode was said. One fixed statement per table.
 */
import type { Database } from 'better-sqlite3';
import type { IsoTime } from '../../../shared/time';

/** True when the store holds no facts and no episodes: an import can then load in bulk. */
export function isEmptyStore(db: Database): boolean {
  return !db.prepare('SELECT 1 FROM facts UNION ALL SELECT 1 FROM episodes LIMIT 1').get();
}

export interface StoreLookups {
  conversation(id: string): boolean;
  episode(id: string): boolean;
  entity(id: string): boolean;
  fact(id: string): boolean;
  /** reference_time of a stored episode. */
  episodeTime(id: string): IsoTime | undefined;
}

const ID_EXISTS = {
  conversations: 'SELECT 1 FROM conversations WHERE id = ?',
  episodes: 'SELECT 1 FROM episodes WHERE id = ?',
  entities: 'SELECT 1 FROM entities WHERE id = ?',
  facts: 'SELECT 1 FROM facts WHERE id = ?',
} as const;

function has(db: Database, table: keyof typeof ID_EXISTS): (id: string) => boolean {
  const stmt = db.prepare<[string], 1>(ID_EXISTS[table]).pluck();
  return (id: string) => stmt.get(id) !== undefined;
}

const none = () => false;

/** Lookups of ids in the store; `factsAndEpisodes` false when the store is known to hold none. */
export function storeLookups(db: Database, factsAndEpisodes: boolean): StoreLookups {
  const episodeTime = db.prepare<[string], IsoTime>('SELECT reference_time FROM episodes WHERE id = ?').pluck();
  return {
    conversation: has(db, 'conversations'),
    entity: has(db, 'entities'),
    episode: factsAndEpisodes ? has(db, 'episodes') : none,
    fact: factsAndEpisodes ? has(db, 'facts') : none,
    episodeTime: factsAndEpisodes ? (id) => episodeTime.get(id) : () => undefined,
  };
}
