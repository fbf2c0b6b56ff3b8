/**
 * Full-text search over fact sentences, entity names and episodes (FTS5, trigram tokenizer).
 * Trigram matching finds any substring of three or more characters in any script — "担当者" inside
 * "私の担当者はAさん" — and terms shorter than three characters (Japanese words are often two:
 * "担当") fall back to a LIKE scan, so every query length works.
 */
import type { Database } from 'better-sqlite3';
import type { SqlFilter } from './fact-query';

export interface TextMatch {
  id: string;
  /** Higher is better; only comparable within one list. */
  score: number;
}

const TRIGRAM_MIN = 3;

const STOPWORDS = new Set(
  ('a an and are as at be by did do does for from had has have how i in is it its me my of on or our so that the their them they this ' +
    'to was we were what when where which who whom why will with you your am can could would should about any some tell know').split(' '),
);

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/u;

/**
 * Splits a query into terms: whitespace and punctuation separate them, English stop words go, and
 * a run of CJK text (which has no spaces) becomes its overlapping trigrams, so "私の上司は誰" finds
 * "私の上司はBさんです" by shared pieces and bm25 ranks the fullest match first.
 */
export function queryTerms(query: string): string[] {
  const raw = query
    .normalize('NFKC')
    .split(/[\s"'()*:^+\-.,!?;、。「」？！・]+/u)
    .map((t) => t.trim())
    .filter((t) => t.length > 0 && !STOPWORDS.has(t.toLowerCase()));
  const terms: string[] = [];
  for (const term of raw) {
    const chars = [...term];
    if (chars.length > 3 && CJK_RUN.test(term) && chars.every((c) => CJK_RUN.test(c))) {
      for (let i = 0; i + 3 <= chars.length; i++) terms.push(chars.slice(i, i + 3).join(''));
    } else {
      terms.push(term);
    }
  }
  return [...new Set(terms)].slice(0, 24);
}

function phrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface Target {
  fts: string;
  /** SQL joining the FTS table to the rows it indexes; must expose `id`. */
  from: string;
  /** Rows scanned by the LIKE fallback, and their text column. */
  likeFrom: string;
  column: string;
  id: string;
}

const FACTS: Target = { fts: 'facts_fts', from: 'facts_fts JOIN facts f ON f.rowid = facts_fts.rowid', likeFrom: 'facts f', column: 'f.fact', id: 'f.id' };
const EPISODES: Target = { fts: 'episodes_fts', from: 'episodes_fts JOIN episodes e ON e.rowid = episodes_fts.rowid', likeFrom: 'episodes e', column: 'e.content', id: 'e.id' };
const ENTITIES: Target = { fts: 'entities_fts', from: 'entities_fts', likeFrom: 'entities_fts', column: 'entities_fts.names', id: 'entities_fts.entity_id' };

export class FullTextSearch {
  constructor(private readonly db: Database) {}

  /** Fact versions whose sentence matches, restricted by `filter` (time axes etc.). */
  facts(terms: string[], filter: SqlFilter, limit: number): TextMatch[] {
    return this.match(FACTS, terms, filter, limit);
  }

  episodes(terms: string[], limit: number): TextMatch[] {
    return this.match(EPISODES, terms, { where: [], params: {} }, limit);
  }

  entities(terms: string[], limit: number): TextMatch[] {
    return this.match(ENTITIES, terms, { where: [], params: {} }, limit);
  }

  private match(target: Target, terms: string[], filter: SqlFilter, limit: number): TextMatch[] {
    const long = terms.filter((t) => [...t].length >= TRIGRAM_MIN);
    const short = terms.filter((t) => [...t].length < TRIGRAM_MIN);
    const scores = new Map<string, number>();
    const extra = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
    if (long.length) {
      const rows = this.db
        .prepare(`SELECT ${target.id} AS id, bm25(${target.fts}) AS rank FROM ${target.from} WHERE ${target.fts} MATCH @query${extra} ORDER BY rank LIMIT @limit`)
        .all({ ...filter.params, query: long.map(phrase).join(' OR '), limit }) as { id: string; rank: number }[];
      for (const row of rows) scores.set(row.id, -row.rank);
    }
    for (const term of short) {
      // The LIKE fallback ranks by how early the term appears: a cheap stand-in for relevance.
      const rows = this.db
        .prepare(`SELECT ${target.id} AS id, instr(${target.column}, @term) AS pos FROM ${target.likeFrom} WHERE ${target.column} LIKE @pattern ESCAPE '\\'${extra} LIMIT @limit`)
        .all({ ...filter.params, term, pattern: likePattern(term), limit }) as { id: string; pos: number }[];
      for (const row of rows) scores.set(row.id, (scores.get(row.id) ?? 0) + 1 / (1 + row.pos));
    }
    return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
