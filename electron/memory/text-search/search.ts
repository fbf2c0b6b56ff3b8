/**
 * Search over the memory: ranked lists from several retrievers (fact text, entity names, source
 * episodes — and vectors, when an index is attached) fused by reciprocal rank fusion, restricted
 * to the requested time axes. Every list, and the fusion, breaks equal scores by the fixed key of
 * stable-order.ts (valid time, sentence, id), never by id alone: the same question over the same
 * memory gives the same top 10, also over a copy built again with other ids.
 */
import type { Database } from 'better-sqlite3';
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';
import { factFilter, queryFacts, type FactQuery } from '../temporal/fact-query';
import { FullTextSearch, parseQuery, type ParsedQuery } from './full-text-search';
import { askedRelations, PredicateVocabulary } from './asked-relations';
import { alikeAcross, entityEvidence } from './entity-evidence';
import { secondHop, type HopFact } from './second-hop';
import { agreementWeight, fuseRankings, type RankedLists, type ScorePart, type SearchLists } from './fusion';
import { TIE_ORDER_SQL } from './stable-order';
import { containmentScore, foldText, hasTerms, type QueryWeights } from './term-weights';
import type { IsoTime } from '../../../shared/time';

export { fuseRankings, PART_WEIGHTS, RRF_K, type Fused, type ScorePart, type SearchLists } from './fusion';

export interface SearchHit {
  fact: FactRecord;
  score: number;
  /** Each retriever's rank (1 = best) for this fact, where it found it. */
  parts: Partial<Record<ScorePart, number>>;
}

export interface SearchOptions {
  asOf?: IsoTime;
  knownAt?: IsoTime;
  history?: boolean;
  limit?: number;
  /** Narrows every list and the fusion to facts about this entity (as subject or object): a filter never changes what the search means. */
  entityId?: string;
  /** Narrows every list and the fusion to facts with this predicate. */
  predicate?: string;
  /** Ranked fact lineages or ids from other retrievers (e.g. vectors), best first. */
  extra?: Partial<Record<ScorePart, string[]>>;
}

/** Rows a scoped search reads: the named entities' own facts (newest first), and facts pointing at them. */
const SCOPED_SUBJECT_ROWS = 2000;
const SCOPED_OBJECT_ROWS = 300;
const SCOPED_COLUMNS = 'f.id, f.fact, f.predicate, f.subject_id, f.object_id, COALESCE(f.object_id, lower(f.object_literal)) AS object_key';
const CJK_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
type ScopedRow = { id: string; fact: string; predicate: string; subject_id: string; object_id: string | null; object_key: string };

/** The time axes and filters of a search, as a fact query: the same for every list and the fusion. */
function axesOf(options: SearchOptions): FactQuery {
  return { asOf: options.asOf, knownAt: options.knownAt, history: options.history, entityId: options.entityId, predicate: options.predicate };
}

export class MemorySearch {
  private readonly text: FullTextSearch;
  private readonly vocabulary: PredicateVocabulary;

  constructor(private readonly db: Database) {
    this.text = new FullTextSearch(db);
    this.vocabulary = new PredicateVocabulary(db);
  }

  /** The memory was written (after the commit): what is kept of it between searches is read again. */
  wrote(): void {
    this.vocabulary.wrote();
  }

  search(query: string, options: SearchOptions, now: IsoTime): SearchHit[] {
    return this.fuse({ ...this.lists(query, options, now), ...options.extra }, options, now);
  }

  /** The ranked lists of the SQLite retrievers (text, entity, episode), already on the time axes. */
  lists(query: string, options: SearchOptions, now: IsoTime): SearchLists {
    const limit = options.limit ?? 10;
    const depth = Math.max(limit * 3, 30);
    const terms = parseQuery(query);
    const weights = this.text.factWeights(terms);
    const axes = axesOf(options);
    const filter = factFilter(axes, now);
    const named = this.text.namedEntities(terms);
    const matched = this.text.entities(terms, 10, named).map((m) => m.id);
    // "my …" scopes the text search to the user, but the user's every fact is no answer by itself.
    const user = terms.aboutUser ? this.text.userEntityId() : undefined;
    const entityIds = matched.filter((id) => id !== user);
    // "where … work" asks for works_at, not for every sentence with "work" in it.
    const relations = askedRelations(terms.terms, terms.grams, this.vocabulary.predicates());
    // Within the entities the question names (the user for "my …"), every word counts: few rows.
    const scope = matched.slice(0, 2);
    const scoped = this.scopedFacts(terms, scope, scope.every((id) => named.includes(id) && id !== user && this.isPerson(id)), weights, relations, filter, depth);
    // "Where does Owen's partner work?": Ruth, whom Owen's partner fact names, brings her own facts.
    const hop = scope.some((id) => named.includes(id)) ? this.hopFacts(scoped, scope, weights, relations, filter) : [];
    // An entity named whole has had every word scored over its facts (scoped): the text search only
    // adds the rows of rarer words ("thomas" AND "clark" would be that entity's rows again).
    const rareOnly = named.some((id) => id !== user);
    // Both lists are scored by the same weighted words: merged by score, the scoped one first among
    // equals (a stable sort), so "Aaron R. Williams works at …" found by the index is not left
    // below the named Aarons' facts that hold only "aaron".
    const found = this.text.facts(terms, filter, depth, { rareOnly });
    const merged = [...scoped, ...hop, ...found].sort((a, b) => b.score - a.score);
    const text = [...new Set(merged.map((m) => m.id))].slice(0, depth + scoped.length);
    // The messages matter when the facts' own words do not match (a fact extracted in other words);
    // when the fact lists are already full, searching the messages too only repeats the work — and
    // for an entity named whole, the entity list brings its facts anyway: then only when the text
    // list cannot fill the answer.
    const episodeIds = text.length < (rareOnly ? limit : depth) ? this.text.episodes(terms, 20).map((m) => m.id) : [];
    return {
      text,
      entity: withHops(this.factsOfEntities(entityIds, named, weights, relations, filter, depth), hop),
      episode: this.factsOfEpisodes(episodeIds, filter, depth),
      ...(hop.length ? { reachedThrough: Object.fromEntries(hop.map((h) => [h.id, h.via])) } : {}),
    };
  }

  /**
   * Fuses ranked lists into hits. Lists from outside SQLite (vectors) are first restricted to the
   * time axes, so a closed fact cannot take a place in a search for current facts.
   */
  fuse(given: SearchLists, options: SearchOptions, now: IsoTime): SearchHit[] {
    const { reachedThrough, ...ranked } = given;
    let lists: RankedLists = ranked;
    const limit = options.limit ?? 10;
    const axes = axesOf(options);
    const weights: Partial<Record<ScorePart, number>> = {};
    if (lists.vector?.length) {
      // Ids only: whole records are read once, below, for the facts that make the cut.
      const { where, params } = factFilter({ ...axes, ids: lists.vector }, now);
      const allowed = new Set(cachedStatement(this.db, `SELECT f.id FROM facts f WHERE ${where.join(' AND ')}`).pluck().all(params) as string[]);
      const ranked = lists.vector.length;
      lists = { ...lists, vector: lists.vector.filter((id) => allowed.has(id)) };
      // The facts the vector list was drawn from, on these axes: the live ones, in the share of its
      // ranks the axes kept (counting them under the filter would cost more than the search).
      const universe = this.liveFacts() * (lists.vector!.length / ranked);
      weights.vector = agreementWeight(lists, 'vector', universe);
      // After its weight is judged (a hop is not agreement): a hop and the fact it was reached through
      // are one piece of evidence, both at the better place of the two.
      if (reachedThrough) lists = { ...lists, vector: withHopPairs(lists.vector!, reachedThrough) };
    }
    // The top of the fusion, with every entry tied with the last one kept: the records read for them
    // give the tie key, and the order is settled before the cut.
    const all = fuseRankings(lists, undefined, weights);
    const cut = all[limit * 2 - 1]?.score;
    const top = cut === undefined ? all : all.filter((f) => f.score >= cut);
    const records = new Map(queryFacts(this.db, { ...axes, ids: top.map((f) => f.id) }, now).map((r) => [r.id, r]));
    const fused = fuseRankings(lists, records, weights).filter((f) => records.has(f.id)).slice(0, limit * 2);
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
  private scopedFacts(query: ParsedQuery, scope: string[], people: boolean, weights: QueryWeights, relations: ReadonlyMap<string, string>, filter: ReturnType<typeof factFilter>, depth: number): (ScopedRow & { score: number })[] {
    if (scope.length === 0 || !hasTerms(weights)) return [];
    const where = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    // Newest first and bounded on each side: an entity many facts point at (coffee: 1,300 likers at
    // 100k) would otherwise cost a row read per fact, for a list whose rows all say the same thing.
    // The rows come in a fixed order — the entities' own facts by valid time (newest first, equal
    // ones newest stored first), then the facts pointing at them, newest stored first — and a
    // stable sort keeps it among equal scores: "Zoe's manager is …" before "… manager is Zoe".
    const rows = cachedStatement(
      this.db,
      `SELECT * FROM (SELECT ${SCOPED_COLUMNS} FROM facts f WHERE f.subject_id IN (SELECT value FROM json_each(@scope))${where} ORDER BY f.valid_at DESC, f.rowid DESC LIMIT ${SCOPED_SUBJECT_ROWS})
       UNION ALL
       SELECT * FROM (SELECT ${SCOPED_COLUMNS} FROM facts f WHERE f.object_id IN (SELECT value FROM json_each(@scope)) AND f.subject_id NOT IN (SELECT value FROM json_each(@scope))${where} ORDER BY f.rowid DESC LIMIT ${SCOPED_OBJECT_ROWS})`,
    ).all({ ...filter.params, scope: JSON.stringify(scope) }) as ScopedRow[];
    const scored: (ScopedRow & { score: number })[] = [];
    const texts = rows.map((row) => foldText(row.fact, row.predicate));
    // A question word none of their facts holds ("Which dance lessons does Owen go to?") is bridged
    // through WordNet among their facts, as the text search bridges a word no fact holds.
    const related: QueryWeights = { ...this.text.relatedWithin(query, texts), short: [] };
    for (const [i, row] of rows.entries()) {
      const folded = texts[i]!;
      const score = containmentScore(folded, weights) + containmentScore(folded, related) + relationBonus(row.predicate, folded, weights, relations);
      if (score > 0) scored.push({ ...row, score });
    }
    if (!people || scope.length < 2) return scored.sort((a, b) => b.score - a.score).slice(0, depth);
    // Two people named: among equal scores, what concerns both or what they share first, then each in turn.
    const alike = alikeAcross(rows, this.people(scope));
    const scores = new Map(scored.map((x) => [x.id, x.score]));
    const turns = new Map<string, number>();
    const turn = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.subject_id}\u0000${scores.get(row.id) ?? 0}`;
      turn.set(row.id, turns.get(key) ?? 0);
      turns.set(key, (turns.get(key) ?? 0) + 1);
    }
    const rank = (id: string) => (alike.get(id)?.both ?? 0) * 2 + (alike.get(id)?.shared ?? 0);
    return scored.sort((a, b) => b.score - a.score || rank(b.id) - rank(a.id) || turn.get(a.id)! - turn.get(b.id)!).slice(0, depth);
  }

  /** The second hop (second-hop.ts): facts of the entities the best scoped facts point at. */
  private hopFacts(scoped: readonly (ScopedRow & { score: number })[], scope: string[], weights: QueryWeights, relations: ReadonlyMap<string, string>, filter: ReturnType<typeof factFilter>): HopFact[] {
    const names = this.people(scope).flatMap((p) => p.names);
    return secondHop(this.db, scoped, scope, names, weights, (predicate, folded, left) => relationBonus(predicate, folded, left, relations, true), filter);
  }

  /**
   * Facts about the entities the question names, by their own evidence (entity-evidence.ts): the
   * people named whole together (a question about two people draws from both), then each entity
   * whose name only shares words with the question, in the order they matched.
   */
  private factsOfEntities(entityIds: string[], named: string[], weights: QueryWeights, relations: ReadonlyMap<string, string>, filter: ReturnType<typeof factFilter>, depth: number): string[] {
    // Only people are drawn from together: a place named beside a person ("Mia in Lisbon") is no
    // second person, and the facts of others pointing at it come after the person's own.
    const whole = entityIds.filter((id) => named.includes(id) && this.isPerson(id));
    const groups = [whole, ...entityIds.filter((id) => !whole.includes(id)).map((id) => [id])].filter((g) => g.length > 0);
    const out: string[] = [];
    for (const group of groups) {
      for (const id of entityEvidence(this.db, this.people(group), weights, relations, filter, depth)) if (!out.includes(id)) out.push(id);
      if (out.length >= depth) return out.slice(0, depth);
    }
    return out;
  }

  /**
   * Whether an entity counts as a person for the two-people rule: a person (or the user) by its
   * kind; of no known kind ('other'), when it is the subject of some fact of its own (one indexed
   * read). A place, an organisation, a thing is none.
   */
  private isPerson(id: string): boolean {
    const type = cachedStatement(this.db, 'SELECT type FROM entities WHERE id = ?').pluck().get(id) as string | undefined;
    if (type === 'person' || type === 'user') return true;
    if (type !== 'other') return false;
    return cachedStatement(this.db, 'SELECT 1 FROM facts WHERE subject_id = ? LIMIT 1').pluck().get(id) !== undefined;
  }

  /** Entities with their names and aliases, case folded (for a sentence that names one). */
  private people(ids: string[]): { id: string; names: string[] }[] {
    const names = cachedStatement(this.db, 'SELECT name FROM entities WHERE id = @id UNION SELECT alias FROM entity_aliases WHERE entity_id = @id').pluck();
    return ids.map((id) => ({ id, names: (names.all({ id }) as string[]).map((n) => foldText(n)) }));
  }

  /** Facts the memory holds now (any valid time), from the counts the triggers keep. */
  private liveFacts(): number {
    return (cachedStatement(this.db, 'SELECT COALESCE(SUM(live), 0) FROM live_predicates').pluck().get() as number) ?? 0;
  }

  private factsOfEpisodes(episodeIds: string[], filter: ReturnType<typeof factFilter>, depth: number): string[] {
    if (episodeIds.length === 0) return [];
    const where = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    const rows = this.db
      .prepare(`SELECT DISTINCT f.id AS id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id
        JOIN json_each(@episodes) j ON j.value = fe.episode_id WHERE 1 = 1${where} ORDER BY j.key, ${TIE_ORDER_SQL('f')} LIMIT @depth`)
      .all({ ...filter.params, episodes: JSON.stringify(episodeIds), depth }) as { id: string }[];
    return rows.map((r) => r.id);
  }
}

/**
 * A fact of the relation asked for counts its word once more: "works at" above "said work was
 * tiring" (twice when the sentence says it otherwise: "employed by" for "work"). `only`: when the
 * question word is among `weights` (a second hop's words left), else nothing.
 */
function relationBonus(predicate: string, folded: string, weights: QueryWeights, relations: ReadonlyMap<string, string>, only = false): number {
  const asked = relations.get(predicate);
  if (asked === undefined || (only && !holdsWeight(weights, asked))) return 0;
  const holds = containmentScore(folded, CJK_WORD.test(asked) ? { terms: [], short: [], grams: [[asked, 1]] } : { terms: [[asked, 1]], short: [[asked, 1]], grams: [] }) > 0;
  return weightOf(weights, asked) * (holds ? 1 : 2);
}

/** The entity list with each second-hop fact right after the first hit it was reached through (an outside list: withHopPairs). */
function withHops(entity: string[], hops: readonly HopFact[]): string[] {
  if (hops.length === 0) return entity;
  const out: string[] = [];
  for (const id of entity) {
    if (!out.includes(id)) out.push(id);
    for (const h of hops) if (h.via === id && !out.includes(h.id)) out.push(h.id);
  }
  return out;
}

/**
 * An outside list (vectors) that ranks one of a hop's two facts votes for the pair: the hop fact
 * right after the fact it was reached through, placed where the better-ranked of the two is.
 */
function withHopPairs(list: readonly string[], reachedThrough: Readonly<Record<string, string>>): string[] {
  const reached = new Map<string, string[]>();
  for (const [id, via] of Object.entries(reachedThrough)) reached.set(via, [...(reached.get(via) ?? []), id]);
  const out = new Set<string>();
  for (const id of list) {
    const via = reachedThrough[id];
    if (via !== undefined) out.add(via);
    out.add(id);
    for (const hop of reached.get(via ?? id) ?? []) out.add(hop);
  }
  return [...out];
}

function holdsWeight(weights: QueryWeights, word: string): boolean {
  return [weights.terms, weights.short, weights.grams].some((list) => list.some(([w]) => w === word));
}

/** The weight of one question word (a term, a short term or a CJK piece); 1 when no row holds it. */
function weightOf(weights: QueryWeights, word: string): number {
  for (const list of [weights.terms, weights.short, weights.grams]) for (const [w, weight] of list) if (w === word) return weight;
  return 1;
}
