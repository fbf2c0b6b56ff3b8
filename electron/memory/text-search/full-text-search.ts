/**
 * Full-text search over fact sentences (and predicates), entity names and episodes, in two passes,
 * so that no word that decides the answer is dropped and a common word is never scored whole:
 * 1. Candidates through the indexes (bounded): the rows of the query's rarer words, ranked by bm25;
 *    and, when two or more words are common, the rows holding the two least common of them together
 *    ("zoe" AND "smith", newest first). A common word's posting list — "work" is in tens of
 *    thousands of rows at 100k facts — is only walked, never ranked.
 * 2. Every candidate is scored by every query word its text contains, common ones included, each
 *    weighted by its rarity (term-weights.ts): among Zoe's facts, "work" picks the one about work.
 *    Ties keep the first pass's order, then the fixed key of stable-order.ts.
 * CJK pairs go the same way through the *_cjk indexes; 2-character Latin terms through LIKE.
 */
import type { Database, Statement } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { SqlFilter } from '../temporal/fact-query';
import { ftsString, normalizeName } from '../store/normalize';
import type { ParsedQuery } from './query-terms';
import { fuseIds, rescore, type Candidate, type TextMatch } from './candidate-ranking';
import { containmentScore, foldText, idf, SHORT_TERM_WEIGHT, SINGLE_GRAM_FACTOR, type QueryWeights } from './term-weights';
import { holdsWord, indexForm, termsOfWord } from './word-forms';
import { japaneseWordsIn, relatedJapanese, relatedThroughGlosses, translations } from './ja-lexicon';
import { relatedWords } from './word-net';

export { parseQuery, type ParsedQuery } from './query-terms';
export type { TextMatch } from './candidate-ranking';

const quote = ftsString;
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A word related in WordNet counts this much of its rarity. */
const RELATED_FACTOR = 0.3;
/**
 * A word of the question in the other language (大阪 for "Osaka") counts this much of its rarity:
 * nearly the word itself, below it, so the rows saying the word as asked come first among equals.
 */
const TRANSLATED_FACTOR = 0.8;
/** Related terms looked up per question, at most (each is a few vocabulary reads). */
const MAX_RELATED = 16;
/** Entity names read per one wanted from the trigram index, some of which hold a question's word only inside another word. */
const ENTITY_OVERFETCH = 4;
/** Japanese question words bridged through the lexicon, at most. */
const MAX_ASKED_JA = 4;
/** Rare CJK pairs used per query to find candidates: the rarest ones. */
const MAX_GRAMS = 8;
/** Rows a candidate query reads for the second pass: about one person's facts. */
const CANDIDATES = 60;
/** A term in at most this share of the rows is rare: its rows are ranked (bm25) to find candidates … */
const RARE_SHARE = 0.005;
/**
 * … up to this many rows, whatever the memory's size. Ranking an OR of rare terms scores every row
 * each holds (and reads each row for the time axes): with the share alone a rare pair meant 5,000
 * rows at 1M, and the CJK pairs' ranking took 19 ms a question (docs/benchmarks.md). Below 200k rows
 * the share decides, as it always did; above, a term this common is weighed in the second pass on
 * the rarer terms' candidates, or found with the next least common (their AND).
 */
const RARE_ROWS_MAX = 1_000;

/** Rows a term may hold and still count as rare, in a corpus of `corpusRows` (at least `floor`). */
export function rareRows(corpusRows: number, floor: number): number {
  return Math.min(Math.max(floor, corpusRows * RARE_SHARE), Math.max(floor, RARE_ROWS_MAX));
}

interface Target {
  trigram: string;
  cjk: string | null;
  /** fts5vocab table of the CJK index, and the table whose row count is the corpus size. */
  cjkVocab: string | null;
  trigramVocab: string;
  /** The table of the rows (its rowid is the FTS rowid), and the alias a filter refers to it by. */
  rows: string;
  alias: string;
  /** What the second pass reads of a row: its text, more text (the predicate), its time for the tie key. */
  text: string;
  extra: string | null;
  time: string;
}

const FACTS: Target = { trigram: 'facts_fts', cjk: 'facts_cjk', cjkVocab: 'facts_cjk_vocab', trigramVocab: 'facts_fts_vocab', rows: 'facts', alias: 'f', text: 'fact', extra: 'predicate', time: 'valid_at' };
const EPISODES: Target = { trigram: 'episodes_fts', cjk: 'episodes_cjk', cjkVocab: 'episodes_cjk_vocab', trigramVocab: 'episodes_fts_vocab', rows: 'episodes', alias: 'e', text: 'content', extra: null, time: 'reference_time' };

/** The columns the second pass reads, from the rows table under alias `a`. */
const candidateColumns = (t: Target, a: string) => `${a}.id AS id, ${a}.${t.text} AS text, ${t.extra === null ? "''" : `${a}.${t.extra}`} AS extra, ${a}.${t.time} AS at`;

/** A word (or pair) of the query, what the index is searched by for it, and the rows that may hold it. */
interface Counted {
  term: string;
  /** The word start every form of the term begins with ("hik" for hike: hiking); a pair itself. */
  match: string;
  rows: number;
}

interface CountedQuery {
  terms: Counted[];
  grams: Counted[];
  /** Words WordNet relates to a question word no row holds, weighed low. */
  related: Counted[];
  /** Japanese words the lexicon relates to a Japanese question word no row holds, weighed low. */
  relatedJa: Counted[];
  /** The question's words in the other language (ja-lexicon.ts `translations`): English terms, Japanese words. */
  translated: { terms: Counted[]; grams: Counted[] };
  weights: QueryWeights;
  rows: number;
}

/** A Japanese word's pairs of characters (a single character is its own). */
function pairsOf(word: string): string[] {
  const chars = [...word];
  if (chars.length < 2) return chars;
  return chars.slice(1).map((c, i) => chars[i]! + c);
}

/** The pair of a Japanese word that fewest rows hold: what the CJK index is asked for. */
function rarestPair(word: string, rows: (pair: string) => number): string {
  return pairsOf(word).reduce((best, pair) => (rows(pair) < rows(best) ? pair : best));
}

export class FullTextSearch {
  constructor(private readonly db: Database) {}

  /**
   * Fact versions matching the query, restricted by `filter` (time axes etc.), best first.
   * `rareOnly`: only the rows of the rarer words — for a caller that scores every word over the
   * facts of an entity the question names, which are what common words together would find.
   */
  facts(query: ParsedQuery, filter: SqlFilter, limit: number, options: { rareOnly?: boolean } = {}): TextMatch[] {
    return this.match(FACTS, query, filter, limit, options.rareOnly ?? false);
  }

  episodes(query: ParsedQuery, limit: number): TextMatch[] {
    return this.match(EPISODES, query, { where: [], params: {} }, limit);
  }

  /** The query's words weighted by their rarity among the facts (for scoring facts found otherwise). */
  factWeights(query: ParsedQuery): QueryWeights {
    return this.counted(FACTS, query).weights;
  }

  /** Entities whose whole name or alias appears in the query, then those whose names share trigrams. */
  entities(query: ParsedQuery, limit: number, named = this.namedEntities(query)): TextMatch[] {
    const lists: string[][] = [named];
    if (query.terms.length) {
      // Equal scores in creation order (the FTS rowid is the entity's): not by id, which is random.
      const rows = this.stmt('SELECT entity_id AS id, names FROM entities_fts WHERE entities_fts MATCH ? ORDER BY bm25(entities_fts), rowid LIMIT ?').all(query.terms.map(quote).join(' OR '), limit * ENTITY_OVERFETCH) as { id: string; names: string }[];
      // The trigram index finds "hot" inside "film photography": a name counts where it holds a word
      // of the question as a word (or its start, or a CJK run), as a fact's text is scored.
      const holding = rows.filter((r) => {
        const folded = foldText(r.names);
        return query.terms.some((term) => holdsWord(folded, term));
      });
      lists.push(holding.slice(0, limit).map((r) => r.id));
    }
    return fuseIds(lists, limit);
  }

  /** Entities whose whole name or alias appears in the query (the user first, for "my …"). */
  namedEntities(query: ParsedQuery): string[] {
    const exact: string[] = [];
    const user = query.aboutUser ? this.userEntityId() : undefined;
    if (user) exact.push(user);
    // One statement for every name, in the query's order; entities sharing a name in creation
    // order (rowid), not by id, which is random.
    const byName = this.stmt(
      `SELECT id FROM (
         SELECT n.key AS k, e.rowid AS r, e.id AS id FROM json_each(@names) n JOIN entities e ON e.normalized_name = n.value
         UNION ALL
         SELECT n.key, e.rowid, e.id FROM json_each(@names) n JOIN entity_aliases a ON a.normalized_alias = n.value JOIN entities e ON e.id = a.entity_id
       ) ORDER BY k, r`,
    ).pluck();
    if (query.names.length) for (const id of byName.all({ names: JSON.stringify(query.names.map(normalizeName)) }) as string[]) if (!exact.includes(id)) exact.push(id);
    return exact;
  }

  /** The user's own entity ("me"), if the memory has one. */
  userEntityId(): string | undefined {
    return (this.stmt("SELECT id FROM entities WHERE normalized_name = 'me' AND type = 'user' ORDER BY rowid LIMIT 1").get() as { id: string } | undefined)?.id;
  }

  private match(target: Target, query: ParsedQuery, filter: SqlFilter, limit: number, rareOnly = false): TextMatch[] {
    const extra = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    const { terms, grams, weights, rows } = this.counted(target, query);
    // The index query picks rowids (and filters on the time axes); only the rows it keeps are read
    // whole: a sorter holding every matched row's text would cost more than the ranking itself.
    const select = (fts: string, ranked: boolean) => {
      const from = extra ? `${fts} JOIN ${target.rows} ${target.alias} ON ${target.alias}.rowid = ${fts}.rowid` : fts;
      const pick = `SELECT ${fts}.rowid AS r, ${ranked ? `bm25(${fts})` : '0'} AS s FROM ${from} WHERE ${fts} MATCH @query${extra} ORDER BY ${ranked ? 's, r DESC' : `${fts}.rowid DESC`} LIMIT @limit`;
      return `SELECT ${candidateColumns(target, 'c')} FROM (${pick}) x JOIN ${target.rows} c ON c.rowid = x.r ORDER BY x.s, x.r DESC`;
    };
    // Ranked: bm25, equal ones newest first (rowid). Unranked: newest first.
    const run = (fts: string, ranked: boolean, match: string, rowsWanted = CANDIDATES) => this.stmt(select(fts, ranked)).all({ ...filter.params, query: match, limit: Math.max(limit, rowsWanted) }) as Candidate[];
    const lists: Candidate[][] = [];
    for (const [fts, counted, cap, maxRare] of [
      [target.trigram, terms, rareRows(rows, 500), Infinity],
      // CJK pairs are pruned even in a scoped search: common ones (です, さん) have huge posting lists.
      // A single kanji inside a pair of the query (東 of 東京) finds no row the pair does not: it
      // is weighed in the second pass, not used to find candidates.
      [target.cjk, grams.filter((g) => g.term.length > 1 || !grams.some((p) => p.term.length > 1 && p.term.includes(g.term))), rareRows(rows, 200), MAX_GRAMS],
    ] as const) {
      if (fts === null || counted.length === 0) continue;
      const rare = counted.filter((c) => c.rows <= cap).slice(0, maxRare);
      const common = counted.filter((c) => c.rows > cap);
      if (rare.length) {
        const anyRare = rare.map((c) => quote(c.match)).join(' OR ');
        // Every word of this index among the rare ones: bm25 has weighed them all, the first rows
        // are the answer. Otherwise more rows, for the second pass to weigh the others on.
        const ranked = run(fts, true, anyRare, rare.length < counted.length ? CANDIDATES : limit);
        lists.push(ranked);
        // More rows than were read (a first name of 150 facts): the rows that also hold the least
        // common of the common words, which the cut may have left out ("aaron" AND "work").
        if (ranked.length >= Math.max(limit, CANDIDATES) && common.length && !rareOnly) lists.push(run(fts, false, `(${anyRare}) AND ${quote(common[0]!.match)}`));
      }
      // Every word common ("Where does Zoe work?" at 100k facts: zoe, work): the rows holding the
      // two least common together, found by walking both posting lists (FTS5 skips through them),
      // newest first; the second pass then scores them by every word. With a rare word, its rows
      // are the candidates, and the common words are scored on them.
      else if (rareOnly) continue;
      else if (common.length >= 2) lists.push(run(fts, false, `${quote(common[0]!.match)} AND ${quote(common[1]!.match)}`));
      // One word, and common: its newest rows (all score the same), no more than asked.
      else if (common.length === 1) lists.push(run(fts, false, quote(common[0]!.match), limit));
    }
    const related = this.counted(target, query).related.filter((c) => c.rows <= rareRows(rows, 500));
    if (related.length && !rareOnly) lists.push(run(target.trigram, true, related.map((c) => quote(c.match)).join(' OR ')));
    const relatedJa = this.counted(target, query).relatedJa.filter((c) => c.rows <= rareRows(rows, 200));
    if (target.cjk && relatedJa.length && !rareOnly) lists.push(run(target.cjk, true, relatedJa.map((c) => quote(c.match)).join(' OR ')));
    // The words in the other language: their rows, when rare, as candidates (a common one is weighed on the others').
    const translated = this.counted(target, query).translated;
    const rareTerms = translated.terms.filter((c) => c.rows <= rareRows(rows, 500));
    if (rareTerms.length) lists.push(run(target.trigram, true, rareTerms.map((c) => quote(c.match)).join(' OR ')));
    const rareGrams = translated.grams.filter((c) => c.rows <= rareRows(rows, 200));
    if (target.cjk && rareGrams.length) lists.push(run(target.cjk, true, rareGrams.map((c) => quote(c.match)).join(' OR ')));
    for (const term of query.short) {
      const a = target.alias;
      const sql = `SELECT ${candidateColumns(target, a)} FROM ${target.rows} ${a} WHERE ${a}.${target.text} LIKE @pattern ESCAPE '\\'${extra} LIMIT @limit`;
      lists.push(this.stmt(sql).all({ ...filter.params, pattern: likePattern(term), limit }) as Candidate[]);
    }
    return rescore(lists, weights, limit);
  }

  /** Each query's counts, per target, for as long as the query object lives (one search). */
  private readonly countedFor = new WeakMap<ParsedQuery, Map<Target, CountedQuery>>();

  /** The query's words and pairs that some row holds, rarest first, with their weights. */
  private counted(target: Target, query: ParsedQuery): CountedQuery {
    let perTarget = this.countedFor.get(query);
    if (!perTarget) this.countedFor.set(query, (perTarget = new Map()));
    let counted = perTarget.get(target);
    if (!counted) perTarget.set(target, (counted = this.count(target, query)));
    return counted;
  }

  private count(target: Target, query: ParsedQuery): CountedQuery {
    const rows = this.corpusRows(target.rows);
    const byRows = (a: Counted, b: Counted) => a.rows - b.rows || (a.term < b.term ? -1 : 1);
    const terms = query.terms.map((term) => ({ term, match: indexForm(term), rows: this.trigramRows(target, indexForm(term)) })).filter((c) => c.rows > 0).sort(byRows);
    const grams = target.cjkVocab ? query.grams.map((term) => ({ term, match: term, rows: this.termCount(target.cjkVocab!, term) })).filter((c) => c.rows > 0).sort(byRows) : [];
    const related = this.relatedCounted(target, query);
    const relatedJa = target.cjkVocab ? this.relatedJapaneseCounted(target, query) : [];
    const translated = this.translatedCounted(target, query);
    const weigh = (factor: number) => (c: Counted): [string, number] => [c.term, idf(rows, c.rows) * factor];
    const weights: QueryWeights = {
      terms: [...terms.map(weigh(1)), ...related.map(weigh(RELATED_FACTOR)), ...translated.terms.map(weigh(TRANSLATED_FACTOR))],
      grams: [...grams.map((c): [string, number] => [c.term, idf(rows, c.rows) * ([...c.term].length > 1 ? 1 : SINGLE_GRAM_FACTOR)]), ...relatedJa.map(weigh(RELATED_FACTOR)), ...translated.grams.map(weigh(TRANSLATED_FACTOR))],
      short: query.short.map((t) => [t, SHORT_TERM_WEIGHT]),
    };
    return { terms, grams, related, relatedJa, translated, weights, rows };
  }

  /**
   * The question's words in the other language, held by some row (大阪 → osaka, tokyo → 東京), held
   * or not in their own: a memory written in both languages says one place or thing both ways, and
   * the rows of both are the answer's. Not asked within an entity's facts (relatedWithin): those
   * are scored by every word already.
   */
  private translatedCounted(target: Target, query: ParsedQuery): CountedQuery['translated'] {
    const own = new Set(query.terms);
    const terms = new Map<string, Counted>();
    const grams = new Map<string, Counted>();
    for (const word of (query.runs ?? []).flatMap(japaneseWordsIn).slice(0, MAX_ASKED_JA)) {
      for (const t of translations(word).flatMap((w) => termsOfWord(w))) {
        if (t.length < 3 || own.has(t) || terms.has(t)) continue;
        const rows = this.trigramRows(target, indexForm(t));
        if (rows > 0) terms.set(t, { term: t, match: indexForm(t), rows });
      }
    }
    // English into Japanese only where some row holds Japanese: an English memory's first question
    // would otherwise read the word list (0.3–0.5 s) for nothing.
    if (target.cjkVocab && this.holdsCjk(target.cjkVocab)) {
      for (const { word } of query.words ?? []) {
        for (const ja of translations(word)) {
          if (grams.has(ja)) continue;
          const rows = this.cjkRows(target, ja);
          if (rows > 0) grams.set(ja, { term: ja, match: rarestPair(ja, (pair) => this.termCount(target.cjkVocab!, pair)), rows });
        }
      }
    }
    return { terms: [...terms.values()], grams: [...grams.values()] };
  }

  /**
   * Terms of the words WordNet relates to a question word that no row holds ("partner" → spouse,
   * wife; "dog" → puppy): the paraphrase bridge when no embedding model is loaded. A word some row
   * holds is not expanded: its own rows are the answer's.
   */
  private relatedCounted(target: Target, query: ParsedQuery, unmatched = (term: string) => this.trigramRows(target, indexForm(term)) === 0): Counted[] {
    const own = new Set(query.terms);
    const related = new Map<string, Counted>();
    const asked = (query.words ?? []).filter(({ term }) => unmatched(term));
    // Each word its share of the look-ups: "vehicle" (two dozen related words) must not use up "purchase"'s.
    const share = Math.ceil(MAX_RELATED / Math.max(1, asked.length));
    for (const { word } of asked) {
      let looked = 0;
      for (const other of [...relatedWords(word), ...relatedThroughGlosses(word)]) {
        for (const t of termsOfWord(other)) {
          if (t.length < 3 || own.has(t) || related.has(t) || looked++ >= share) continue;
          const rows = this.trigramRows(target, indexForm(t));
          if (rows > 0) related.set(t, { term: t, match: indexForm(t), rows });
        }
      }
    }
    return [...related.values()];
  }

  /**
   * Japanese words the lexicon relates to a Japanese word of the question that no row holds (踊り →
   * サルサ; ja-lexicon.ts), each counted by its rarest pair: the Japanese side of the same bridge.
   */
  private relatedJapaneseCounted(target: Target, query: ParsedQuery, unmatched = (word: string) => this.cjkRows(target, word) === 0): Counted[] {
    const asked = (query.runs ?? []).flatMap(japaneseWordsIn).filter(unmatched).slice(0, MAX_ASKED_JA);
    const related = new Map<string, Counted>();
    const share = Math.ceil(MAX_RELATED / Math.max(1, asked.length));
    for (const word of asked) {
      let looked = 0;
      for (const other of relatedJapanese(word)) {
        if (related.has(other) || looked++ >= share) continue;
        const rows = this.cjkRows(target, other);
        if (rows > 0) related.set(other, { term: other, match: rarestPair(other, (pair) => this.termCount(target.cjkVocab!, pair)), rows });
      }
    }
    return [...related.values()];
  }

  /** Rows a Japanese word may be in: at most those of its rarest pair (0: in none). */
  private cjkRows(target: Target, word: string): number {
    let best = Infinity;
    for (const pair of pairsOf(word)) best = Math.min(best, this.termCount(target.cjkVocab!, pair));
    return best === Infinity ? 0 : best;
  }

  /**
   * Fact terms WordNet relates to the question words no text of `texts` holds (a named person's own
   * facts: "purchase" when none of Owen's facts says it, though others' may), weighed low.
   */
  relatedWithin(query: ParsedQuery, texts: readonly string[]): Pick<QueryWeights, 'terms' | 'grams'> {
    const unmatched = (term: string) => !texts.some((t) => containmentScore(t, { terms: [[term, 1]], short: [], grams: [] }) > 0);
    const rows = this.corpusRows(FACTS.rows);
    const weigh = (c: Counted): [string, number] => [c.term, idf(rows, c.rows) * RELATED_FACTOR];
    return {
      terms: this.relatedCounted(FACTS, query, unmatched).map(weigh),
      grams: this.relatedJapaneseCounted(FACTS, query, (word) => !texts.some((t) => t.includes(word))).map(weigh),
    };
  }

  private corpus = new Map<string, { rows: number; at: number }>();

  /** Document counts from the vocab tables, kept as long as the corpus size they belong to. */
  private readonly termRows = new Map<string, number>();

  private termCount(vocab: string, term: string): number {
    const key = `${vocab}\u0000${term}`;
    let n = this.termRows.get(key);
    if (n === undefined) {
      n = (this.stmt(`SELECT doc FROM ${vocab} WHERE term = ?`).get(term) as { doc: number } | undefined)?.doc ?? 0;
      if (this.termRows.size > 20_000) this.termRows.clear();
      // An absent term is not remembered: the next write may add it, and it must be found at once.
      if (n > 0) this.termRows.set(key, n);
    }
    return n;
  }

  /** Rows a word may be in: at most those of its rarest trigram (0: in none). */
  private trigramRows(target: Target, term: string): number {
    const chars = [...term.toLowerCase()];
    let best = Infinity;
    for (let i = 0; i + 3 <= chars.length && best > 0; i++) best = Math.min(best, this.termCount(target.trigramVocab, chars.slice(i, i + 3).join('')));
    return best === Infinity ? 0 : best;
  }

  private readonly cjkHeld = new Map<string, { held: boolean; at: number }>();

  /** Whether the CJK index holds any term (a row with Japanese or other CJK text), kept as the corpus size is. */
  private holdsCjk(vocab: string): boolean {
    const cached = this.cjkHeld.get(vocab);
    if (cached && Date.now() - cached.at < 30_000) return cached.held;
    const held = this.stmt(`SELECT 1 FROM ${vocab} LIMIT 1`).get() !== undefined;
    this.cjkHeld.set(vocab, { held, at: Date.now() });
    return held;
  }

  private corpusRows(table: string): number {
    const cached = this.corpus.get(table);
    if (cached && Date.now() - cached.at < 30_000) return cached.rows;
    this.termRows.clear();
    const rows = (this.stmt(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    this.corpus.set(table, { rows, at: Date.now() });
    return rows;
  }

  private stmt(sql: string): Statement {
    return cachedStatement(this.db, sql);
  }
}
