/**
 * The memory's words for a message's extraction prompt: the entities it already knows (the user,
 * names the message mentions, then the most talked-about) and the predicates in use, so the model
 * reuses them instead of inventing new ones.
 */
import type { Cardinality, EntityType } from '../../../shared/memory-schema';
import type { StoreContext } from './store-context';

export interface Vocabulary {
  knownEntities: { name: string; type: EntityType; aliases: string[] }[];
  knownPredicates: { predicate: string; cardinality: Cardinality }[];
}

export function vocabularyFor(ctx: Pick<StoreContext, 'db' | 'entities'>, content: string): Vocabulary {
  const mentioned = ctx.db
    .prepare<[string], { id: string }>("SELECT entity_id AS id FROM entities_fts WHERE instr(?, substr(names, 1, instr(names || char(10), char(10)) - 1)) > 0 LIMIT 20")
    .all(content)
    .map((r) => r.id);
  const frequent = ctx.db
    .prepare<[], { id: string }>('SELECT subject_id AS id FROM facts WHERE expired_at IS NULL GROUP BY subject_id ORDER BY COUNT(*) DESC LIMIT 15')
    .all()
    .map((r) => r.id);
  const ids = [...new Set([...mentioned, ...frequent])].slice(0, 25);
  const knownEntities = ids.flatMap((id) => {
    const e = ctx.entities.byId(id);
    return e ? [{ name: e.name, type: e.type, aliases: e.aliases.slice(0, 4) }] : [];
  });
  const knownPredicates = ctx.db
    .prepare<[], { predicate: string; cardinality: Cardinality }>(
      'SELECT predicate, MIN(cardinality) AS cardinality FROM facts INDEXED BY facts_live_by_predicate WHERE expired_at IS NULL GROUP BY predicate ORDER BY COUNT(*) DESC LIMIT 40',
    )
    .all();
  return { knownEntities, knownPredicates };
}
