/**
 * Which stored entity does a name in a message mean? Exact normalised name or alias first, then the
 * same name without honorifics ("佐藤さん" = "佐藤", "Dr. Sato" = "Sato"), then fuzzy similarity:
 * close enough is the same entity, clearly different is a new one, and only the ambiguous middle
 * is asked of the model (batched into the message's single judgement call).
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import { isUserReference, stripHonorifics, type Memory } from '../../memory/index';

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
  // Characters are code points (an astral one is two UTF-16 units): a name of one has no bigram.
  const [cx, cy] = [[...x], [...y]];
  if (cx.length < 2 || cy.length < 2) return 0;
  const grams = (chars: string[]) => {
    const out = new Map<string, number>();
    for (let i = 0; i < chars.length - 1; i++) {
      const g = chars[i]! + chars[i + 1]!;
      out.set(g, (out.get(g) ?? 0) + 1);
    }
    return out;
  };
  const gx = grams(cx);
  const gy = grams(cy);
  let overlap = 0;
  for (const [g, n] of gx) overlap += Math.min(n, gy.get(g) ?? 0);
  const total = [...gx.values()].reduce((s, n) => s + n, 0) + [...gy.values()].reduce((s, n) => s + n, 0);
  return (2 * overlap) / total;
}

export function resolveName(memory: Pick<Memory, 'entities' | 'facts'>, name: string): NameResolution {
  const exact = memory.entities.find(name);
  if (exact) return { kind: 'existing', entity: exact, addAlias: false };
  if (isUserReference(name)) return { kind: 'new' };
  let best: { entity: EntityRecord; score: number } | undefined;
  for (const candidate of memory.facts.entityCandidates(name)) {
    const score = Math.max(nameSimilarity(name, candidate.name), ...candidate.aliases.map((a) => nameSimilarity(name, a)));
    if (!best || score > best.score) best = { entity: candidate, score };
  }
  if (!best || best.score < ASK_ABOVE) return { kind: 'new' };
  if (best.score >= SAME_ABOVE) return { kind: 'existing', entity: best.entity, addAlias: true };
  return { kind: 'ask', candidate: best.entity };
}
