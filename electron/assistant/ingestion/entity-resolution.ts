/**
 * Which stored entity does a name in a message mean? Exact normalised name or alias first, then the
 * same name without honorifics ("佐藤さん" = "佐藤", "Dr. Sato" = "Sato"), then fuzzy similarity:
 * close enough is the same entity, clearly different is a new one, and only the ambiguous middle
 * is asked of the model (batched into the message's single judgement call).
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord } from '../../../shared/memory-schema';
import type { EntityStore } from '../../memory/store/entity-store';
import { isUserReference, stripHonorifics } from '../../memory/store/normalize';

export type NameResolution =
  | { kind: 'existing'; entity: EntityRecord; addAlias: boolean }
  | { kind: 'new' }
  | { kind: 'ask'; candidate: EntityRecord };

export const SAME_ABOVE = 0.85;
export const ASK_ABOVE = 0.5;

/** Dice coefficient over character bigrams (works for Latin and CJK alike). */
export function nameSimilarity(a: string, b: string): number {
  const x = stripHonorifics(a);
  const y = stripHonorifics(b);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = (s: string) => {
    const chars = [...s];
    const out = new Map<string, number>();
    for (let i = 0; i < chars.length - 1; i++) {
      const g = chars[i]! + chars[i + 1]!;
      out.set(g, (out.get(g) ?? 0) + 1);
    }
    return out;
  };
  const gx = grams(x);
  const gy = grams(y);
  let overlap = 0;
  for (const [g, n] of gx) overlap += Math.min(n, gy.get(g) ?? 0);
  const total = [...gx.values()].reduce((s, n) => s + n, 0) + [...gy.values()].reduce((s, n) => s + n, 0);
  return (2 * overlap) / total;
}

export function resolveName(db: Database, entities: EntityStore, name: string): NameResolution {
  const exact = entities.find(name);
  if (exact) return { kind: 'existing', entity: exact, addAlias: false };
  if (isUserReference(name)) return { kind: 'new' };
  const key = stripHonorifics(name);
  let best: { entity: EntityRecord; score: number } | undefined;
  for (const candidate of candidatesFor(db, entities, key)) {
    const score = Math.max(nameSimilarity(name, candidate.name), ...candidate.aliases.map((a) => nameSimilarity(name, a)));
    if (!best || score > best.score) best = { entity: candidate, score };
  }
  if (!best || best.score < ASK_ABOVE) return { kind: 'new' };
  if (best.score >= SAME_ABOVE) return { kind: 'existing', entity: best.entity, addAlias: true };
  return { kind: 'ask', candidate: best.entity };
}

/** Entities sharing at least a piece of the name (trigram index, or LIKE for short names). */
function candidatesFor(db: Database, entities: EntityStore, key: string): EntityRecord[] {
  if (key === '') return [];
  const chars = [...key];
  let ids: string[];
  if (chars.length >= 3) {
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
    const query = [...grams].map((g) => `"${g.replaceAll('"', '""')}"`).join(' OR ');
    ids = db.prepare<[string], { id: string }>('SELECT entity_id AS id FROM entities_fts WHERE entities_fts MATCH ? ORDER BY bm25(entities_fts) LIMIT 8').all(query).map((r) => r.id);
  } else {
    ids = db
      .prepare<[string], { id: string }>("SELECT entity_id AS id FROM entities_fts WHERE names LIKE ? ESCAPE '\\' LIMIT 8")
      .all(`%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      .map((r) => r.id);
  }
  return ids.flatMap((id) => {
    const entity = entities.byId(id);
    return entity && entity.type !== 'user' ? [entity] : [];
  });
}
