/**
 * A bridge for words a question and a fact do not share, through EDICT's common entries
 * (resources/lexicon/edict-common.tsv, written by scripts/build-ja-lexicon.ts; CC BY-SA 4.0, the
 * EDRDG): no Japanese WordNet is to be had, so a Japanese question word is read as its English
 * glosses, related there (the glosses' own words, then WordNet: word-net.ts), and read back as the
 * Japanese words glossed so — 踊り → dance → サルサ ("salsa (dance)"); オーブン → oven → bake → 焼く.
 * The same list relates English words through what qualifies a gloss: dance → salsa, and gives a
 * word's one-word translations for a memory written in both languages: 大阪 ↔ Osaka.
 *
 * Read once, lazily, on the first Japanese question (1.3 MB; 0.3–0.5 s and ~35 MB of heap on the
 * 2-core machine, docs/benchmarks.md); absent or
 * unreadable, nothing is bridged and search goes on without it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relatedWords } from './word-net';

const FILE = join('resources', 'lexicon', 'edict-common.tsv');
/** Japanese words a question word is bridged to, at most. */
const MAX_RELATED = 24;
/** Japanese words read back per English word: "dance" is the gloss of a dozen. */
const PER_ENGLISH = 12;
const MAX_HEAD = 8;
/** Words of the other language a word translates to, at most (写真: photograph, photo, picture …). */
const MAX_TRANSLATIONS = 4;
const SKIP = new Set(['a', 'an', 'the', 'to', 'of', 'e.g.', 'i.e.', 'etc.', 'etc', 'one', 'something', 'someone', 'in', 'on', 'at', 'for', 'with', 'by', 'and', 'or']);

interface Reading {
  /** English head word of a gloss ("instrument" of "musical instrument"). */
  word: string;
  /** The words in its parentheses ("dance" of "salsa (dance)"). */
  qualifiers: string[];
  /** Words in the gloss: a long one ("to make (charcoal, pottery, …)") relates nothing. */
  length: number;
}

interface Lexicon {
  /** Japanese word → readings of its glosses. */
  glosses: Map<string, Reading[]>;
  /** Japanese word → its glosses of one English word, in order (translations). */
  english: Map<string, string[]>;
  /** English word → Japanese words whose first gloss is it, in one word (translations). */
  japanese: Map<string, string[]>;
  /** English word → Japanese words with a gloss of it (head word, or qualifier), and that gloss's head word. */
  byEnglish: Map<string, { ja: string; word: string }[]>;
}

let loaded: Lexicon | null | undefined;
const cache = new Map<string, string[]>();
/** Kana-only words of grammar (って, では, もの) bridge to noise: a word needs a kanji or katakana. */
const CONTENT = /[\p{Script=Han}\p{Script=Katakana}]/u;
/** English words of a Japanese word that WordNet is asked about (each look-up reads its files). */
const WORDNET_WORDS = 2;

/** The file beside the sources (electron/memory/text-search) or the bundle (out/main, its chunks), or in the packaged app. */
function locate(): string | null {
  const starts = [dirname(fileURLToPath(import.meta.url)), (process as { resourcesPath?: string }).resourcesPath ?? ''].filter(Boolean);
  for (const start of starts) {
    let dir = start;
    for (let up = 0; up < 5; up++) {
      if (existsSync(join(dir, FILE))) return join(dir, FILE);
      dir = dirname(dir);
    }
  }
  return null;
}

const ENGLISH_WORD = /^[a-z][a-z-]+$/u;

function reading(gloss: string): Reading | null {
  const lower = gloss.toLowerCase();
  const open = lower.indexOf('(');
  let qualifiers: string[] = [];
  let main = lower;
  if (open >= 0) {
    qualifiers = [...lower.matchAll(/\(([^)]*)\)/gu)].flatMap((m) => m[1]!.split(/[\s,;]+/u)).filter((w) => ENGLISH_WORD.test(w) && !SKIP.has(w));
    main = lower.replace(/\([^)]*\)/gu, ' ');
  }
  let length = 0;
  let word: string | undefined;
  for (const w of main.split(' ')) {
    if (w === '' || SKIP.has(w)) continue;
    length++;
    word = w;
  }
  if (word === undefined || !ENGLISH_WORD.test(word)) return null;
  return { word, qualifiers, length };
}

/** Words a one-word gloss may carry besides its word: "to live", "a photo". */
const ARTICLES = new Set(['to', 'a', 'an', 'the']);

/** A gloss that is one English word once its parentheses (nested too), "to" and articles are gone: "Osaka (city, prefecture)" → osaka; not "in one go". */
function oneWord(gloss: string): string | null {
  let plain = gloss.toLowerCase();
  for (let before = ''; before !== plain; ) [before, plain] = [plain, plain.replace(/\([^()]*\)/gu, ' ')];
  const words = plain.split(/\s+/u).filter((w) => w !== '' && !ARTICLES.has(w));
  return words.length === 1 && ENGLISH_WORD.test(words[0]!) ? words[0]! : null;
}

function lexicon(): Lexicon | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const path = locate();
  if (path === null) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const glosses = new Map<string, Reading[]>();
  const english = new Map<string, string[]>();
  const japanese = new Map<string, string[]>();
  const byEnglish = new Map<string, { ja: string; word: string }[]>();
  const index = (english: string, ja: string, word: string) => {
    const list = byEnglish.get(english) ?? [];
    if (list.length < PER_ENGLISH && !list.some((x) => x.ja === ja)) list.push({ ja, word });
    byEnglish.set(english, list);
  };
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const ja = line.slice(0, tab);
    const all = line.slice(tab + 1).split('|');
    all.forEach((gloss, sense) => {
      const one = sense < 2 ? oneWord(gloss) : null;
      if (one === null) return;
      const ens = english.get(ja) ?? [];
      if (!ens.includes(one)) english.set(ja, [...ens, one]);
      // An English word reads back as the words it is the first sense of (sister: シスター, not シス "cis; sister").
      if (sense > 0 || [...ja].length < 2 || !CONTENT.test(ja)) return;
      const jas = japanese.get(one) ?? [];
      if (!jas.includes(ja)) japanese.set(one, [...jas, ja]);
    });
    const readings = all
      .map(reading)
      .filter((r): r is Reading => r !== null);
    if (readings.length === 0) continue;
    glosses.set(ja, [...(glosses.get(ja) ?? []), ...readings]);
    if ([...ja].length < 2 || !CONTENT.test(ja)) continue;
    for (const r of readings) {
      if (r.length <= 2) index(r.word, ja, r.word);
      for (const q of r.qualifiers) index(q, ja, r.word);
    }
  }
  loaded = { glosses, english, japanese, byEnglish };
  return loaded;
}

/** The words of the lexicon in a run of Japanese text, longest first from each place (2+ characters). */
export function japaneseWordsIn(run: string): string[] {
  const lex = lexicon();
  if (!lex) return [];
  const chars = [...run];
  const found: string[] = [];
  for (let i = 0; i < chars.length; ) {
    let taken = 1;
    for (let len = Math.min(MAX_HEAD, chars.length - i); len >= 2; len--) {
      const word = chars.slice(i, i + len).join('');
      if (lex.glosses.has(word) && CONTENT.test(word)) {
        if (!found.includes(word)) found.push(word);
        taken = len;
        break;
      }
    }
    i += taken;
  }
  return found;
}

/**
 * Japanese words related to a Japanese word: those glossed by its glosses' words, then by the words
 * WordNet relates to those ("oven" → bake → 焼く) — nearest first, never the word itself or a part of it.
 */
export function relatedJapanese(word: string): string[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const lex = lexicon();
  const readings = lex?.glosses.get(word);
  if (!lex || !readings) return [];
  const english = [...new Set(readings.filter((r) => r.length <= 3).map((r) => r.word))];
  const out: string[] = [];
  const add = (en: string) => {
    for (const { ja } of lex.byEnglish.get(en) ?? []) if (out.length < MAX_RELATED && ja !== word && !word.includes(ja) && !out.includes(ja)) out.push(ja);
  };
  for (const en of english) add(en);
  for (const en of english.slice(0, WORDNET_WORDS)) for (const other of relatedWords(en)) add(other);
  if (cache.size > 2000) cache.clear();
  cache.set(word, out);
  return out;
}

/**
 * The same word in the other language, for a memory written in both: the English a Japanese word is
 * glossed as in one word, in its first two senses (大阪 → osaka, "Osaka (city, prefecture)"; 東京 →
 * tokyo; 写真 → photograph, photo), and the Japanese words of two or more characters whose first
 * sense is an English word (osaka → 大阪, company → カンパニー, 会社; sister → シスター, not シス, whose
 * first sense is "cis" and which every システム holds). A gloss of several words, a later sense or a
 * qualifier relates; it does not translate.
 */
export function translations(word: string): string[] {
  const lex = lexicon();
  if (!lex) return [];
  return (lex.english.get(word) ?? lex.japanese.get(word) ?? []).slice(0, MAX_TRANSLATIONS);
}

/** English words the lexicon relates to an English word through what qualifies a gloss: dance → salsa ("salsa (dance)"). */
export function relatedThroughGlosses(word: string): string[] {
  const lex = lexicon();
  if (!lex) return [];
  const out: string[] = [];
  for (const { word: other } of lex.byEnglish.get(word) ?? []) if (other !== word && !out.includes(other)) out.push(other);
  return out;
}
