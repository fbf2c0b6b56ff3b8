/**
 * Full-text search over fact sentences (and predicates), entity names and episodes.
 * - Latin and other spaced scripts: terms of 3+ characters match any substring through the trigram
 *   index (so "manager" finds "managers" and "live" finds "lives_in"); English stop words are
 *   dropped and plurals/-ing/-ed are stemmed; 2-character terms ("AI") fall back to LIKE.
 * - CJK text has no spaces: its runs become bigrams and single kanji, matched in the *_cjk indexes,
 *   so "母の趣味" finds "母は…が趣味です" and two-character words (担当, 大学) need no scan.
 * Each source gives one ranked list; ranks are combined by reciprocal rank fusion.
 */
import type { Database, Statement } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { SqlFilter } from '../temporal/fact-query';
import { cjkGrams } from './fts-index';
import { normalizeName } from '../store/normalize';

export interface TextMatch {
  id: string;
  /** Higher is better; only comparable within one list. */
  score: number;
}

export interface ParsedQuery {
  /** 3+ character terms for the trigram indexes. */
  terms: string[];
  /** 2-character non-CJK terms, matched with LIKE. */
  short: string[];
  /** Bigrams and single kanji of the CJK runs, for the *_cjk indexes. */
  grams: string[];
  /** Strings that may be an entity's whole name or alias (terms, CJK substrings). */
  names: string[];
  /** The question is about the user ("my", "I", 私 …). */
  aboutUser: boolean;
}

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself']);
const FIRST_PERSON_JA = /私|僕|俺|自分|わたし|ぼく/u;

const STOPWORDS = new Set(
  ('a an and are as at be by did do does for from had has have how i in is it its me my of on or our so that the their them they this ' +
    'to was we were what when where which who whom why will with you your am can could would should about any some tell know ' +
    'now these those days day right over time all get got been still currently today there here then than also just really very ' +
    'much many more most ever yet into onto up down out off again please remember remembered say said')
    .split(' '),
);

const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const SEPARATORS = /[\s"'’`()*:^+\-.,!?;、。「」？！・/\\[\]{}<>|~=#@&%$]+/u;

/** English-ish suffix stripping; the trigram index matches the stem inside longer words. */
export function stem(term: string): string {
  let t = term;
  if (t.length > 5 && t.endsWith('ies')) return t.slice(0, -3);
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3);
  if (t.length > 4 && t.endsWith('ed')) return t.slice(0, -2);
  if (t.length > 4 && /(ss|x|ch|sh)es$/.test(t)) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) t = t.slice(0, -1);
  return t;
}

export function parseQuery(query: string): ParsedQuery {
  const text = query.normalize('NFKC').toLowerCase().replace(/['’]s\b/gu, '');
  const terms = new Set<string>();
  const short = new Set<string>();
  const names = new Set<string>();
  const gramSet = new Set<string>();
  for (const run of text.match(CJK_RUNS) ?? []) {
    for (const g of cjkGrams(run).split(' ')) if (g) gramSet.add(g);
    const chars = [...run];
    for (let len = 2; len <= Math.min(8, chars.length); len++) {
      for (let i = 0; i + len <= chars.length; i++) names.add(chars.slice(i, i + len).join(''));
    }
  }
  let aboutUser = FIRST_PERSON_JA.test(text);
  for (const raw of text.replace(CJK_RUNS, ' ').split(SEPARATORS)) {
    const word = raw.trim();
    if (FIRST_PERSON.has(word)) aboutUser = true;
    if (word === '' || STOPWORDS.has(word)) continue;
    names.add(word);
    const stemmed = stem(word);
    if ([...stemmed].length >= 3) terms.add(stemmed);
    else if ([...stemmed].length === 2) short.add(stemmed);
  }
  // Whole multi-word names ("sato kenji") are candidates too.
  const spaced = text.replace(CJK_RUNS, ' ').split(/\s+/).filter((w) => w && !STOPWORDS.has(w.replace(/[^\p{L}\p{N}]/gu, '')));
  for (let i = 0; i + 1 < spaced.length; i++) names.add(`${spaced[i]} ${spaced[i + 1]}`.replace(/[^\p{L}\p{N} ]/gu, ''));
  return { terms: [...terms].slice(0, 16), short: [...short].slice(0, 6), grams: [...gramSet].slice(0, 48), names: [...names].slice(0, 80), aboutUser };
}

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const RRF_K = 20;
/** CJK pairs used per query: the rarest ones. */
const MAX_GRAMS = 8;

interface Target {
  trigram: string;
  cjk: string | null;
  /** fts5vocab table of the CJK index, and the table whose row count is the corpus size. */
  cjkVocab: string | null;
  trigramVocab: string;
  rows: string;
  /** Rows joined to an FTS table's rowid; `@fts` is replaced by the FTS table name. */
  join: (fts: string) => string;
  likeFrom: string;
  likeColumn: string;
  id: string;
}

const FACTS: Target = { trigram: 'facts_fts', cjk: 'facts_cjk', cjkVocab: 'facts_cjk_vocab', trigramVocab: 'facts_fts_vocab', rows: 'facts', join: (fts) => `${fts} JOIN facts f ON f.rowid = ${fts}.rowid`, likeFrom: 'facts f', likeColumn: 'f.fact', id: 'f.id' };
const EPISODES: Target = { trigram: 'episodes_fts', cjk: 'episodes_cjk', cjkVocab: 'episodes_cjk_vocab', trigramVocab: 'episodes_fts_vocab', rows: 'episodes', join: (fts) => `${fts} JOIN episodes e ON e.rowid = ${fts}.rowid`, likeFrom: 'episodes e', likeColumn: 'e.content', id: 'e.id' };

export class FullTextSearch {
  constructor(private readonly db: Database) {}

  /** Fact versions matching the query, restricted by `filter` (time axes etc.), best first. */
  facts(query: ParsedQuery, filter: SqlFilter, limit: number, options: { everyTerm?: boolean } = {}): TextMatch[] {
    return this.match(FACTS, query, filter, limit, options.everyTerm ?? false);
  }

  episodes(query: ParsedQuery, limit: number): TextMatch[] {
    return this.match(EPISODES, query, { where: [], params: {} }, limit);
  }

  /** Entities whose whole name or alias appears in the query, then those whose names share trigrams. */
  entities(query: ParsedQuery, limit: number): TextMatch[] {
    const lists: string[][] = [];
    const exact: string[] = [];
    const user = query.aboutUser ? this.userEntityId() : undefined;
    if (user) exact.push(user);
    const byName = this.stmt('SELECT id FROM entities WHERE normalized_name = ? UNION SELECT entity_id FROM entity_aliases WHERE normalized_alias = ?');
    for (const name of query.names) {
      const key = normalizeName(name);
      for (const row of byName.all(key, key) as { id: string }[]) if (!exact.includes(row.id)) exact.push(row.id);
    }
    lists.push(exact);
    if (query.terms.length) {
      const rows = this.stmt('SELECT entity_id AS id FROM entities_fts WHERE entities_fts MATCH ? ORDER BY bm25(entities_fts) LIMIT ?').all(query.terms.map(quote).join(' OR '), limit) as { id: string }[];
      lists.push(rows.map((r) => r.id));
    }
    return fuse(lists, limit);
  }

  /** The user's own entity ("me"), if the memory has one. */
  userEntityId(): string | undefined {
    return (this.stmt("SELECT id FROM entities WHERE normalized_name = 'me' AND type = 'user' LIMIT 1").get() as { id: string } | undefined)?.id;
  }

  private match(target: Target, query: ParsedQuery, filter: SqlFilter, limit: number, everyTerm = false): TextMatch[] {
    const extra = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    const lists: string[][] = [];
    if (query.terms.length) {
      // bm25 scores every row a word matches: tens of thousands for "likes" at 100k facts. Common
      // words are left out when the query has a distinctive one; when all are common, the newest
      // rows with the rarest word are taken, unranked (FTS5 walks rowids backwards and stops).
      const { rare, rarest } = everyTerm ? { rare: query.terms, rarest: query.terms[0]! } : this.splitCommon(target, query.terms);
      const order = rare.length ? `bm25(${target.trigram})` : `${target.trigram}.rowid DESC`;
      const terms = rare.length ? rare : [rarest];
      const sql = `SELECT ${target.id} AS id FROM ${target.join(target.trigram)} WHERE ${target.trigram} MATCH @query${extra} ORDER BY ${order} LIMIT @limit`;
      lists.push((this.stmt(sql).all({ ...filter.params, query: terms.map(quote).join(' OR '), limit }) as { id: string }[]).map((r) => r.id));
    }
    // CJK pairs are pruned even in a scoped search: common ones (です, さん) have huge posting lists.
    const { grams, common } = query.grams.length && target.cjk ? this.distinctiveGrams(target, query.grams) : { grams: [], common: false };
    if (grams.length && target.cjk) {
      // Only a common pair left (ラー of ラーメン in a memory full of ramen): newest rows, unranked, as above.
      const order = common ? `${target.cjk}.rowid DESC` : `bm25(${target.cjk})`;
      const sql = `SELECT ${target.id} AS id FROM ${target.join(target.cjk)} WHERE ${target.cjk} MATCH @query${extra} ORDER BY ${order} LIMIT @limit`;
      lists.push((this.stmt(sql).all({ ...filter.params, query: grams.map(quote).join(' OR '), limit }) as { id: string }[]).map((r) => r.id));
    }
    for (const term of query.short) {
      const sql = `SELECT ${target.id} AS id FROM ${target.likeFrom} WHERE ${target.likeColumn} LIKE @pattern ESCAPE '\\'${extra} LIMIT @limit`;
      lists.push((this.stmt(sql).all({ ...filter.params, pattern: likePattern(term), limit }) as { id: string }[]).map((r) => r.id));
    }
    return fuse(lists, limit);
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

  private corpusRows(table: string): number {
    const cached = this.corpus.get(table);
    if (cached && Date.now() - cached.at < 30_000) return cached.rows;
    this.termRows.clear();
    const rows = (this.stmt(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    this.corpus.set(table, { rows, at: Date.now() });
    return rows;
  }

  /** Words whose rows (at most those of their rarest trigram) exceed 0.5% of the table are common. */
  private splitCommon(target: Target, terms: string[]): { rare: string[]; rarest: string } {
    const limit = Math.max(500, this.corpusRows(target.rows) * 0.005);
    const estimate = (term: string) => {
      const chars = [...term.toLowerCase()];
      let best = Infinity;
      for (let i = 0; i + 3 <= chars.length; i++) best = Math.min(best, this.termCount(target.trigramVocab, chars.slice(i, i + 3).join('')));
      return best;
    };
    const counts = terms.map((term) => ({ term, rows: estimate(term) }));
    const rare = counts.filter((c) => c.rows <= limit).map((c) => c.term);
    const rarest = counts.reduce((a, b) => (b.rows < a.rows ? b : a)).term;
    return { rare, rarest };
  }

  /**
   * Leaves out pairs found in more than 0.5% of rows (です, さん, ます …): bm25 would score every row
   * they match (tens of thousands at 100k facts) to rank them near zero anyway. Keeps the rarest
   * pair when all are common (`common`: then not worth ranking either).
   */
  private distinctiveGrams(target: Target, grams: string[]): { grams: string[]; common: boolean } {
    if (!target.cjkVocab) return { grams, common: false };
    const limit = Math.max(200, this.corpusRows(target.rows) * 0.005);
    const counts = new Map<string, number>();
    for (const gram of grams) counts.set(gram, this.termCount(target.cjkVocab, gram));
    // The rarest pairs carry the meaning (names, nouns); particles and endings are everywhere.
    const present = grams.filter((g) => counts.get(g)! > 0).sort((a, b) => counts.get(a)! - counts.get(b)!);
    const kept = present.filter((g) => counts.get(g)! <= limit).slice(0, MAX_GRAMS);
    if (kept.length || present.length === 0) return { grams: kept, common: false };
    return { grams: present.slice(0, 1), common: true };
  }

  private stmt(sql: string): Statement {
    return cachedStatement(this.db, sql);
  }
}

function fuse(lists: string[][], limit: number): TextMatch[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score).slice(0, limit);
}

