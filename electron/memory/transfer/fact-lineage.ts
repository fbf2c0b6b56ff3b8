/**
 * Internal columns of an imported fact that the format does not carry, derived from the chain of
 * versions: its lineage (the first version of its chain) and how it ended (its end kind).
 */
import type { FactRecord } from '../../../shared/memory-schema';
import type { FactRows } from '../store/fact-rows';
import { MemoryInputError } from '../memory-errors';
import type { EndKind } from '../temporal/temporal-rules';

/** A fact's chain starts at the version that supersedes nothing; cycles are refused. */
export function lineageResolver(facts: ReadonlyMap<string, Pick<FactRecord, 'supersedes'>>, rows: FactRows): (id: string) => string {
  const memo = new Map<string, string>();
  return (start) => {
    const path: string[] = [];
    let id = start;
    for (;;) {
      const known = memo.get(id);
      if (known) return settle(path, known);
      const doc = facts.get(id);
      if (!doc) {
        const stored = rows.byId(id);
        return settle(path, stored ? stored.lineage_id : id);
      }
      // A first version (most facts) is its own lineage: nothing to remember.
      if (doc.supersedes === null) return path.length ? settle(path, id) : id;
      if (path.includes(id)) throw new MemoryInputError(`facts: supersedes forms a cycle through ${id}`, 'facts.supersedes');
      path.push(id);
      id = doc.supersedes;
    }
  };
  function settle(path: string[], lineage: string): string {
    for (const p of path) memo.set(p, lineage);
    return lineage;
  }
}

/**
 * open; closed with a time only (explicit); by its successor in the same one-valued slot (a `many`
 * slot's values never end one another: a fact there closed by another fact was judged); or by
 * another fact (judged).
 */
export function endKindOf(
  f: Pick<FactRecord, 'invalid_at' | 'invalidated_by' | 'cardinality' | 'subject_id' | 'predicate'>,
  facts: ReadonlyMap<string, Pick<FactRecord, 'subject_id' | 'predicate'>>,
  rows: FactRows,
): EndKind {
  if (f.invalid_at === null) return 'open';
  if (f.invalidated_by === null) return 'explicit';
  const closer = facts.get(f.invalidated_by) ?? rows.byId(f.invalidated_by);
  return closer && f.cardinality === 'one' && closer.subject_id === f.subject_id && closer.predicate === f.predicate ? 'successor' : 'judged';
}
