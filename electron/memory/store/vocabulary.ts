/**
 * The memory's words for a message's extraction prompt: the entities it already knows (the user,
 * names the message mentions, then the most talked-about) and the predicates in use, so the model
 * reuses them instead of inventing new ones.
 */
import type { Database } from 'better-sqlite3';
import type { Cardinality, EntityType } from '../../../shared/memory-schema';
import { mostTalkedAbout, predicatesInUse } from './live-counts';
import type { StoreContext } from './store-context';
import { cachedStatement } from './database/statement-cache';

/** Each run of one to three characters of `text` (code points), once: a name that occurs in the text begins with one of them. */
export function nameHeads(text: string): string[] {
  const chars = Array.from(text);
  const heads = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    let head = '';
    for (let n = 0; n < 3 && i + n < chars.length; n++) heads.add((head += chars[i + n]!));
  }
  return [...heads];
}

export interface Vocabulary {
  knownEntities: { name: string; type: EntityType; aliases: string[] }[];
  knownPredicates: { predicate: string; cardinality: Cardinality }[];
}

/**
 * The entities whose name `content` says (case as written), first stored first: found by the
 * name's first characters (the index entities_by_name_head), not by reading every entity.
 */
export function mentionedEntities(db: Database, content: string, limit: number): string[] {
  return cachedStatement<[string, string, number], string>(
    db,
    'SELECT id FROM entities WHERE substr(name, 1, 3) IN (SELECT value FROM json_each(?)) AND instr(?, name) > 0 ORDER BY rowid LIMIT ?',
  )
    .pluck()
    .all(JSON.stringify(nameHeads(content)), content, limit);
}

export function vocabularyFor(ctx: Pick<StoreContext, 'db' | 'entities'>, content: string): Vocabulary {
  const mentioned = mentionedEntities(ctx.db, content, 20);
  const frequent = mostTalkedAbout(ctx.db, 15);
  const ids = [...new Set([...mentioned, ...frequent])].slice(0, 25);
  const knownEntities = ctx.entities.byIds(ids).map((e) => ({ name: e.name, type: e.type, aliases: e.aliases.slice(0, 4) }));
  const knownPredicates: { predicate: string; cardinality: Cardinality }[] = predicatesInUse(ctx.db, 40);
  return { knownEntities, knownPredicates };
}
