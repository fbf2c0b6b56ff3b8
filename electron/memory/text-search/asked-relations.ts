/**
 * The relations people ask about — "where does X work / live", "who is X's manager", "when did X
 * start …" — mapped onto the predicates this memory uses for them (its own vocabulary: the live
 * predicates counted by live-counts.ts), so the fact that *is* the relation ("works at") is told
 * from a sentence that only holds the word ("said work was tiring this week").
 *
 * A question word names a relation when it is one of the few words people ask a relation by
 * (work, job, employer, 働く; live, home, 住む; manager, boss, 上司; start, began, join, 始める);
 * then every predicate in use holding one of that relation's words answers it (works_at, employer,
 * lives_in, reports_to …). Any other question word that is also a predicate's word ("adopted")
 * is left to the words' own weights: counting it twice would favour the named person's facts over
 * the second hop of a question ("the dog Elif's friend adopted").
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { predicatesInUse } from '../store/live-counts';

interface Relation {
  /** Question words (stems, lower case) that ask for it. */
  cues: string[];
  /** Words (prefixes) of the predicates that hold it. */
  words: string[];
}

const RELATIONS: Relation[] = [
  { cues: ['work', 'job', 'employ', 'employer', 'workplace', '働', '勤め', '勤務', '職場', '仕事', '会社'], words: ['work', 'employ', 'job', 'occupation', '働', '勤', '職'] },
  { cues: ['live', 'resid', 'reside', 'home', 'address', '住'], words: ['live', 'resid', 'home', 'address', '住'] },
  { cues: ['manag', 'manager', 'boss', 'supervisor', 'supervis', '上司'], words: ['manag', 'boss', 'supervis', 'reports', 'report_to', '上司'] },
  { cues: ['start', 'began', 'begin', 'join', '始'], words: ['start', 'began', 'begin', 'join', '始'] },
];

/** How long a suffix a question word may add to (or drop from) a word and still be that word: "lived", "manag". */
const SUFFIX = 3;

const isCjk = (s: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s);

/** A question term is this word: the same, or the same but for a short suffix (never "liverpool" for live). */
function sameWord(term: string, word: string): boolean {
  if (term === word) return true;
  if (isCjk(word) || isCjk(term)) return false;
  const [short, long] = term.length <= word.length ? [term, word] : [word, term];
  return short.length >= 4 && long.startsWith(short) && long.length - short.length <= SUFFIX;
}

/** The words of a predicate: works_at → works, at; 上司 → 上司. */
const predicateWords = (predicate: string) => predicate.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');

function holdsRelation(predicate: string, relation: Relation): boolean {
  const lower = predicate.toLowerCase();
  return relation.words.some((w) => (isCjk(w) ? lower.includes(w) : predicateWords(lower).some((p) => p.startsWith(w))));
}

/**
 * The predicates in use that the question asks for, each with the question word that asks for it.
 * `terms` are the question's Latin terms (stems), `grams` its CJK pieces.
 */
export function askedRelations(terms: readonly string[], grams: readonly string[], predicates: readonly string[]): Map<string, string> {
  const asked = new Map<string, string>();
  const words = [...terms, ...grams];
  for (const word of words) {
    const cjk = isCjk(word);
    for (const relation of RELATIONS) {
      if (!relation.cues.some((cue) => (cjk ? word === cue || (cue.length > 1 && word.includes(cue)) : sameWord(word, cue)))) continue;
      for (const predicate of predicates) if (!asked.has(predicate) && holdsRelation(predicate, relation)) asked.set(predicate, word);
    }
  }
  return asked;
}

/**
 * The predicates in use, read from the live counts once and kept until the memory is written: by
 * this connection (`wrote()`, called after each commit) or by another process (SQLite's
 * data_version moves). A predicate said for the first time counts in the very next question.
 */
export class PredicateVocabulary {
  private cached: { version: number; predicates: string[] } | null = null;

  constructor(private readonly db: Database) {}

  predicates(): string[] {
    const version = cachedStatement(this.db, 'PRAGMA data_version').pluck().get() as number;
    if (!this.cached || this.cached.version !== version) this.cached = { version, predicates: predicatesInUse(this.db, 500).map((p) => p.predicate) };
    return this.cached.predicates;
  }

  /** This connection committed a write: the next question reads the predicates again. */
  wrote(): void {
    this.cached = null;
  }
}
