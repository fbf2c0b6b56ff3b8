/**
 * A question taken apart for full-text search.
 * - Latin and other spaced scripts: terms of 3+ characters match any substring through the trigram
 *   index (so "manager" finds "managers" and "live" finds "lives_in"); English stop words are
 *   dropped and plurals/-ing/-ed are stemmed; 2-character terms ("AI") fall back to LIKE.
 * - CJK text has no spaces: its runs become bigrams and single kanji, matched in the *_cjk indexes,
 *   so "母の趣味" finds "母は…が趣味です" and two-character words (担当, 大学) need no scan.
 * - Names: every word, runs of two and three words ("sato kenji", "zoe k. smith") and CJK
 *   substrings, looked up as whole entity names or aliases.
 * Any text is a question: control characters (a NUL included), lone surrogates and U+FFFD part
 * words, invisible format characters (a soft hyphen, a zero-width space) are dropped, and every
 * term reaches FTS5 only as a quoted string (ftsString, store/normalize.ts), so its syntax —
 * quotes, parentheses, AND / OR / NOT / NEAR, '*', '-', '^', ':' — is never read as syntax.
 */
import { cjkGrams } from './fts-index';

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
/** Sentence punctuation after a name ("… Smith?"), not the dot of an initial inside it ("K."). */
const TRAILING = /[.,!?;:)"'’]+$/u;

const INITIAL = /^\p{L}\.$/u;
/** What parts words but no search could mean: control characters (NUL too), lone surrogates, U+FFFD. */
const UNSEARCHABLE = /[\p{Cc}\p{Cs}\p{Co}\uFFFD]/gu;
/** Invisible inside a word: a soft hyphen, zero-width (non-)joiners and spaces, bidi marks. */
const INVISIBLE = /\p{Cf}/gu;
const MAX_NAMES = 96;

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
  const text = query.replace(UNSEARCHABLE, ' ').replace(INVISIBLE, '').normalize('NFKC').toLowerCase().replace(/['’]s\b/gu, '');
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
  // Whole multi-word names ("sato kenji"; "zoe k. smith" as entities store it, initial and all).
  // An initial ("a." in "yara a. brown") is part of a name even where the letter is a stop word.
  const spaced = text.replace(CJK_RUNS, ' ').split(/\s+/).filter((w) => w && (INITIAL.test(w) || !STOPWORDS.has(w.replace(/[^\p{L}\p{N}]/gu, ''))));
  for (let i = 0; i + 1 < spaced.length; i++) names.add(`${spaced[i]} ${spaced[i + 1]}`.replace(/[^\p{L}\p{N} ]/gu, ''));
  for (let i = 0; i + 2 < spaced.length; i++) names.add(spaced.slice(i, i + 3).join(' ').replace(TRAILING, ''));
  return { terms: [...terms].slice(0, 16), short: [...short].slice(0, 6), grams: [...gramSet].slice(0, 48), names: [...names].slice(0, MAX_NAMES), aboutUser };
}
