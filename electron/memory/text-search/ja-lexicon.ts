/**
 * A bridge for words a question and a fact do not share, through EDICT's common entries
 * (resources/lexicon/edict-common.tsv, written by scripts/build-ja-lexicon.ts; CC BY-SA 4.0, the
 * EDRDG): no Japanese WordNet is to be had, so a Japanese question word is read as its English
 * glosses, related there (the glosses' own words, then WordNet: word-net.ts), and read back as the
 * Japanese words glossed so — 踊り → dance → サルサ ("salsa (dance)"); オーブン → oven → bake → 焼く.
 * The same list relates English words through what qualifies a gloss: dance → salsa.
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
    const readings = line
      .slice(tab + 1)
      .split('|')
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
  loaded = { glosses, byEnglish };
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

/** English words the lexicon relates to an English word through what qualifies a gloss: dance → salsa ("salsa (dance)"). */
export function relatedThroughGlosses(word: string): string[] {
  const lex = lexicon();
  if (!lex) return [];
  const out: string[] = [];
  for (const { word: other } of lex.byEnglish.get(word) ?? []) if (other !== word && !out.includes(other)) out.push(other);
  return out;
}
