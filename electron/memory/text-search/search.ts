/**
 * Search over the memory: ranked lists from several retrievers (fact text, entity names, source
 * episodes — and vectors, when an index is attached) fused by reciprocal rank fusion, restricted
 * to the requested time axes.
 */
import type { Database } from 'better-sqlite3';
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';
import { factFilter, queryFacts, type FactQuery } from '../temporal/fact-query';
import { FullTextSearch, parseQuery, type ParsedQuery } from './full-text-search';

export type ScorePart = 'text' | 'entity' | 'episode' | 'vector';

export interface SearchHit {
  fact: FactRecord;
  score: number;
  /** Each retriever's rank (1 = best) for this fact, where it found it. */
  parts: Partial<Record<ScorePart, number>>;
}

export interface SearchOptions {
  asOf?: string;
  knownAt?: string;
  history?: boolean;
  limit?: number;
  /** Ranked fact lineages or ids from other retrievers (e.g. vectors), best first. */
  extra?: Partial<Record<ScorePart, string[]>>;
}

export const RRF_K = 60;

/** Rows a scoped search reads: the named entities' own facts (newest first), and facts pointing at them. */
const SCOPED_SUBJECT_ROWS = 2000;
const SCOPED_OBJECT_ROWS = 300;

/**
 * How much each retriever's vote counts. The text and vector lists judge the fact itself; the
 * entity and episode lists only say "about something the question names", and for observed facts
 * the episode repeats the sentence, so their votes weigh less.
 */
export const PART_WEIGHTS: Record<ScorePart, number> = { text: 1, vector: 1, entity: 0.5, episode: 0.5 };

export function fuseRankings(lists: Partial<Record<ScorePart, string[]>>): { id: string; score: number; parts: Partial<Record<ScorePart, number>> }[] {
  const fused = new Map<string, { id: string; score: number; parts: Partial<Record<ScorePart, number>> }>();
  for (const [part, ids] of Object.entries(lists) as [ScorePart, string[]][]) {
    ids.forEach((id, index) => {
      const entry = fused.get(id) ?? { id, score: 0, parts: {} };
      if (entry.parts[part] !== undefined) return;
      entry.parts[part] = index + 1;
      entry.score += PART_WEIGHTS[part] / (RRF_K + index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

export class MemorySearch {
  private readonly text: FullTextSearch;

  constructor(private readonly db: Database) {
    this.text = new FullTextSearch(db);
  }

  search(query: string, options: SearchOptions, now: string): SearchHit[] {
    return this.fuse({ ...this.lists(query, options, now), ...options.extra }, options, now);
  }

  /** The ranked lists of the SQLite retrievers (text, entity, episode), already on the time axes. */
  lists(query: string, options: SearchOptions, now: string): Partial<Record<ScorePart, string[]>> {
    const depth = Math.max((options.limit ?? 10) * 3, 30);
    const terms = parseQuery(query);
    const axes: FactQuery = { asOf: options.asOf, knownAt: options.knownAt, history: options.history };
    const filter = factFilter(axes, now);
    const matched = this.text.entities(terms, 10).map((m) => m.id);
    // "my …" scopes the text search to the user, but the user's every fact is no answer by itself.
    const user = terms.aboutUser ? this.text.userEntityId() : undefined;
    const entityIds = matched.filter((id) => id !== user);
    // Within the entities the question names (the user for "my …"), every word counts: few rows.
    const scoped = this.scopedFacts(matched.slice(0, 2), terms, filter, depth);
    const text = [...new Set([...scoped, ...this.text.facts(terms, filter, depth).map((m) => m.id)])];
    // The messages matter when the facts' own words do not match (a fact extracted in other words);
    // when the fact lists are already full, searching the messages too only repeats the work.
    const episodeIds = text.length < depth ? this.text.episodes(terms, 20).map((m) => m.id) : [];
    return {
      text,
      entity: this.factsOfEntities(entityIds, axes, now, depth),
      episode: this.factsOfEpisodes(episodeIds, filter, depth),
    };
  }

  /**
   * Fuses ranked lists into hits. Lists from outside SQLite (vectors) are first restricted to the
   * time axes, so a closed fact cannot take a place in a search for current facts.
   */
  fuse(lists: Partial<Record<ScorePart, string[]>>, options: SearchOptions, now: string): SearchHit[] {
    const limit = options.limit ?? 10;
    const axes: FactQuery = { asOf: options.asOf, knownAt: options.knownAt, history: options.history };
    if (lists.vector?.length) {
      // Ids only: whole records are read once, below, for the facts that make the cut.
      const { where, params } = factFilter({ ...axes, ids: lists.vector }, now);
      const allowed = new Set(cachedStatement(this.db, `SELECT f.id FROM facts f WHERE ${where.join(' AND ')}`).pluck().all(params) as string[]);
      lists = { ...lists, vector: lists.vector.filter((id) => allowed.has(id)) };
    }
    const fused = fuseRankings(lists).slice(0, limit * 2);
    const records = new Map(queryFacts(this.db, { ...axes, ids: fused.map((f) => f.id) }, now).map((r) => [r.id, r]));
    const hits: SearchHit[] = [];
    for (const entry of fused) {
      const fact = records.get(entry.id);
      if (fact) hits.push({ fact, score: entry.score, parts: entry.parts });
      if (hits.length === limit) break;
    }
    return hits;
  }

  /**
   * Facts of the named entities (the user for "my …") that contain the query's words, every word
   * counting — common ones too ("manager" among one person's facts is telling). An entity has few
   * live facts, so they are scored here by containment rather than through the full-text index.
   */
  private scopedFacts(scope: string[], terms: ParsedQuery, filter: ReturnType<typeof factFilter>, depth: number): string[] {
    if (scope.length === 0 || terms.terms.length + terms.grams.length + terms.short.length === 0) return [];
    const where = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    // Newest first and bounded on each side: an entity many facts point at (coffee: 1,300 likers at
    // 100k) would otherwise cost a row read per fact, for a list whose rows all say the same thing.
    const rows = cachedStatement(
      this.db,
      `SELECT id, fact, predicate FROM (SELECT f.id, f.fact, f.predicate FROM facts f WHERE f.subject_id IN (SELECT value FROM json_each(@scope))${where} ORDER BY f.valid_at DESC LIMIT ${SCOPED_SUBJECT_ROWS})
       UNION ALL
       SELECT id, fact, predicate FROM (SELECT f.id, f.fact, f.predicate FROM facts f WHERE f.object_id IN (SELECT value FROM json_each(@scope)) AND f.subject_id NOT IN (SELECT value FROM json_each(@scope))${where} ORDER BY f.rowid DESC LIMIT ${SCOPED_OBJECT_ROWS})`,
    ).all({ ...filter.params, scope: JSON.stringify(scope) }) as { id: string; fact: string; predicate: string }[];
    const scored: { id: string; score: number }[] = [];
    for (const row of rows) {
      const text = `${row.fact} ${row.predicate}`.normalize('NFKC').toLowerCase();
      let score = 0;
      for (const term of terms.terms) if (text.includes(term)) score += 1;
      for (const term of terms.short) if (text.includes(term)) score += 0.5;
      for (const gram of terms.grams) if (text.includes(gram)) score += gram.length > 1 ? 0.5 : 0.2;
      if (score > 0) scored.push({ id: row.id, score });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, depth).map((s) => s.id);
  }

  /**
   * Facts about the named entities, in the order the entities matched: each one's own facts (by
   * valid time), then the newest facts that point at it. Only ids are read, and the second part
   * stops at `depth`: an entity many facts point at ("coffee") has thousands of them.
   */
  private factsOfEntities(entityIds: string[], axes: FactQuery, now: string, depth: number): string[] {
    const out: string[] = [];
    const { where, params } = factFilter(axes, now);
    const conditions = where.length ? ` AND ${where.join(' AND ')}` : '';
    const own = cachedStatement(this.db, `SELECT f.id FROM facts f WHERE f.subject_id = @entityId${conditions} ORDER BY f.valid_at, f.created_at, f.id LIMIT @depth`).pluck();
    const pointing = cachedStatement(this.db, `SELECT f.id FROM facts f WHERE f.object_id = @entityId AND f.subject_id <> @entityId${conditions} ORDER BY f.rowid DESC LIMIT @depth`).pluck();
    for (const entityId of entityIds) {
      for (const statement of [own, pointing]) {
        for (const id of statement.all({ ...params, entityId, depth }) as string[]) if (!out.includes(id)) out.push(id);
        if (out.length >= depth) return out.slice(0, depth);
      }
    }
    return out;
  }

  private factsOfEpisodes(episodeIds: string[], filter: ReturnType<typeof factFilter>, depth: number): string[] {
    if (episodeIds.length === 0) return [];
    const where = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    const rows = this.db
      .prepare(`SELECT DISTINCT f.id AS id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id
        JOIN json_each(@episodes) j ON j.value = fe.episode_id WHERE 1 = 1${where} ORDER BY j.key LIMIT @depth`)
      .all({ ...filter.params, episodes: JSON.stringify(episodeIds), depth }) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
