/**
 * A question taken apart for full-text search.
 * - Latin and other spaced scripts: each word's stem (Snowball; irregular verbs by their forms:
 *   word-forms.ts) counts where a word of the fact begins with it ("manager" finds "managers",
 *   "live" finds "lives_in"), never inside another word; the trigram index finds the candidates.
 *   English stop words (stopwords-iso) are dropped; 2-character terms ("AI") fall back to LIKE.
 * - CJK text has no spaces: its runs become bigrams and single kanji, matched anywhere in the
 *   *_cjk indexes, so "母の趣味" finds "母は…が趣味です" and two-character words (担当, 大学) need no
 *   scan.
 * - Names: every word, runs of two and three words ("sato kenji", "zoe k. smith") and CJK
 *   substrings, looked up as whole entity names or aliases.
 * Any text is a question: control characters (a NUL included), lone surrogates and U+FFFD part
 * words, invisible format characters (a soft hyphen, a zero-width space) are dropped, and every
 * term reaches FTS5 only as a quoted string (ftsString, store/normalize.ts), so its syntax —
 * quotes, parentheses, AND / OR / NOT / NEAR, '*', '-', '^', ':' — is never read as syntax.
 */
import { cjkGrams } from './fts-index';
import { isStopWord, termsOfWord } from './word-forms';

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
  /** Each English word of the question with its first term: what WordNet is asked about when no row holds the term. */
  words: { word: string; term: string }[];
  /** The question's CJK runs, where the lexicon finds the Japanese words to bridge (ja-lexicon.ts). */
  runs?: string[];
}

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself']);
const FIRST_PERSON_JA = /私|僕|俺|自分|わたし|ぼく/u;

const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const SEPARATORS = /[\s"'’`()*:^+\-.,!?;、。「」？！・/\\[\]{}<>|~=#@&%$]+/u;
/** Sentence punctuation after a name ("… Smith?"), not the dot of an initial inside it ("K."). */
const TRAILING = /[.,!?;:)"'’]+$/u;

const INITIAL = /^\p{L}\.$/u;
/** What parts words but no search could mean: control characters (NUL too), lone surrogates, U+FFFD. */
const UNSEARCHABLE = /[\p{Cc}\p{Cs}\p{Co}\uFFFD]/gu;
/** Invisible inside a word: a soft hyphen, zero-width (non-)joiners and spaces, bidi marks. */
const INVISIBLE = /\p{Cf}/gu;
const MAX_NAMES = 96;

export function parseQuery(query: string): ParsedQuery {
  const text = query.replace(UNSEARCHABLE, ' ').replace(INVISIBLE, '').normalize('NFKC').toLowerCase().replace(/['’]s\b/gu, '');
  const terms = new Set<string>();
  const short = new Set<string>();
  const names = new Set<string>();
  const gramSet = new Set<string>();
  const words: { word: string; term: string }[] = [];
  const runs = text.match(CJK_RUNS) ?? [];
  for (const run of runs) {
    for (const g of cjkGrams(run).split(' ')) if (g) gramSet.add(g);
    const chars = [...run];
    for (let len = 2; len <= Math.min(8, chars.length); len++) {
      for (let i = 0; i + len <= chars.length; i++) names.add(chars.slice(i, i + len).join(''));
    }
  }
  let aboutUser = FIRST_PERSON_JA.test(text);
  const spacedWords = text.replace(CJK_RUNS, ' ').split(SEPARATORS).map((raw) => raw.trim());
  // A query of common words alone ("clear", "what about it") still searches them: any text searches.
  const onlyStopWords = spacedWords.every((word) => word === '' || FIRST_PERSON.has(word) || isStopWord(word));
  for (const word of spacedWords) {
    if (FIRST_PERSON.has(word)) aboutUser = true;
    if (word === '' || (isStopWord(word) && !(onlyStopWords && !FIRST_PERSON.has(word)))) continue;
    names.add(word);
    for (const term of termsOfWord(word, onlyStopWords)) {
      if ([...term].length >= 3) terms.add(term);
      else if ([...term].length === 2) short.add(term);
    }
    const first = termsOfWord(word, onlyStopWords)[0];
    if (first !== undefined && first.length >= 3 && words.length < 8) words.push({ word, term: first });
  }
  // Whole multi-word names ("sato kenji"; "zoe k. smith" as entities store it, initial and all).
  // An initial ("a." in "yara a. brown") is part of a name even where the letter is a stop word.
  const spaced = text.replace(CJK_RUNS, ' ').split(/\s+/).filter((w) => w && (INITIAL.test(w) || !isStopWord(w.replace(/[^\p{L}\p{N}]/gu, ''))));
  for (let i = 0; i + 1 < spaced.length; i++) names.add(`${spaced[i]} ${spaced[i + 1]}`.replace(/[^\p{L}\p{N} ]/gu, ''));
  for (let i = 0; i + 2 < spaced.length; i++) names.add(spaced.slice(i, i + 3).join(' ').replace(TRAILING, ''));
  return { terms: [...terms].slice(0, 16), short: [...short].slice(0, 6), grams: [...gramSet].slice(0, 48), names: [...names].slice(0, MAX_NAMES), aboutUser, words, runs: runs.slice(0, 8) };
}
