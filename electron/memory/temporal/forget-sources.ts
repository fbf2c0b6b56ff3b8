/**
 * The messages a fact came from, and what else each one supports: forgetting a fact can also delete
 * the messages that are the source of nothing else (the text is then gone from the export, search,
 * vectors and chat history), and says which stay and why ("also the source of 2 other facts").
 */
import type { Database } from 'better-sqlite3';
import type { EpisodeRecord } from '../../../shared/memory-schema';
import type { IsoTime } from '../../../shared/time';

/** One source message of a fact, and how many other facts it is also the source of. */
export interface FactSource {
  id: string;
  role: EpisodeRecord['role'];
  conversation_id: string | null;
  reference_time: IsoTime;
  /** The start of its text (at most 120 characters). */
  excerpt: string;
  /** Other facts (chains, not versions) this message is also a source of. */
  otherFacts: number;
}

/** What forgetting a fact did with its sources: deleted, or kept with the reason in words. */
export interface ForgetSources {
  deleted: FactSource[];
  kept: (FactSource & { reason: string })[];
}

const EXCERPT = 120;

/** The messages the chain of `factId` came from (every version and claim), oldest first. */
export function sourcesOfFact(ctx: { db: Database }, factId: string): FactSource[] {
  const row = ctx.db.prepare<[string], { lineage_id: string }>('SELECT lineage_id FROM facts WHERE id = ?').get(factId);
  if (!row) return [];
  const lineage = row.lineage_id;
  const episodes = ctx.db
    .prepare<[string, string], EpisodeRecord>(
      `SELECT e.id, e.role, e.conversation_id, e.reference_time, e.content FROM episodes e WHERE e.id IN (
         SELECT fe.episode_id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE f.lineage_id = ?
         UNION SELECT j.value FROM claims c JOIN facts f ON f.id = c.fact_id, json_each(c.episode_ids) j WHERE f.lineage_id = ?)
       ORDER BY e.reference_time, e.created_at, e.id`,
    )
    .all(lineage, lineage);
  const others = ctx.db.prepare<[string, string, string], { n: number }>(
    `SELECT COUNT(DISTINCT lineage_id) AS n FROM facts WHERE lineage_id <> ? AND id IN (
       SELECT fact_id FROM fact_episodes WHERE episode_id = ?
       UNION SELECT c.fact_id FROM claims c, json_each(c.episode_ids) j WHERE j.value = ?)`,
  );
  return episodes.map((e) => ({
    id: e.id,
    role: e.role,
    conversation_id: e.conversation_id,
    reference_time: e.reference_time,
    excerpt: excerptOf(e.content),
    otherFacts: others.get(lineage, e.id, e.id)!.n,
  }));
}

/** Splits sources into those to delete and those kept, each kept one with its reason. */
export function splitSources(sources: readonly FactSource[], withSources: boolean): { deletable: FactSource[]; result: ForgetSources } {
  const deletable: FactSource[] = [];
  const kept: ForgetSources['kept'] = [];
  for (const source of sources) {
    if (source.otherFacts > 0) kept.push({ ...source, reason: `also the source of ${source.otherFacts} other ${source.otherFacts === 1 ? 'fact' : 'facts'}` });
    else if (!withSources) kept.push({ ...source, reason: 'kept as you asked (the message stays in its conversation)' });
    else deletable.push(source);
  }
  return { deletable, result: { deleted: withSources ? deletable : [], kept } };
}

function excerptOf(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT ? flat : `${flat.slice(0, EXCERPT - 1)}…`;
}
