/**
 * Writes resources/lexicon/edict-common.tsv, the Japanese–English word list the text search uses to
 * bridge a Japanese question word no fact holds (electron/memory/text-search/ja-lexicon.ts), from
 * EDICT (the Electronic Dictionary Research and Development Group's dictionary, CC BY-SA 4.0):
 * Debian's `edict` package (`apt-get install edict`) installs it at /usr/share/edict/edict, in EUC-JP.
 *
 *   npx tsx scripts/build-ja-lexicon.ts [PATH_TO_EDICT]
 *
 * Only the common entries (marked (P)): one line each, `headword<TAB>gloss|gloss|…`, the glosses
 * without their part-of-speech, field and sense-number tags (those written before a gloss) and
 * without language-origin notes, keeping what qualifies a gloss after it ("salsa (dance)").
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const source = process.argv[2] ?? '/usr/share/edict/edict';
const target = join(import.meta.dirname, '..', 'resources', 'lexicon', 'edict-common.tsv');

const text = new TextDecoder('euc-jp').decode(readFileSync(source));
const LINE = /^(\S+)(?: \[[^\]]+\])? \/(.*)\/$/u;
/** Tags before a gloss: "(n,vs)", "(1)", "(uk)", "(sports)", "{comp}". */
const LEADING_TAGS = /^(?:\s*(?:\([^)]*\)|\{[^}]*\}))+\s*/u;
/** Notes anywhere: language of origin "(spa:)", "(eng: pan)", and the common-word mark. */
const NOTES = /\s*\((?:[a-z]{3}:[^)]*|P)\)/gu;

const out: string[] = [];
const seen = new Set<string>();
for (const line of text.split('\n')) {
  const m = LINE.exec(line);
  if (!m || !m[2]!.split('/').includes('(P)')) continue;
  const head = m[1]!;
  if (head.startsWith('〜') || head.includes('\t')) continue;
  const glosses = m[2]!
    .split('/')
    .map((g) => g.replace(LEADING_TAGS, '').replace(NOTES, '').replace(/[|\t]/gu, ' ').trim())
    .filter((g) => g !== '' && g.length <= 60);
  if (glosses.length === 0) continue;
  const key = `${head}\t${glosses.join('|')}`;
  if (seen.has(key)) continue;
  seen.add(key);
  out.push(key);
}
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${out.join('\n')}\n`);
console.log(`${out.length} entries → ${target}`);
