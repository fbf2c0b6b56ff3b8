/**
 * A fact's predicate as a person reads it: words, not the canonical name. The memory keeps each
 * predicate canonical — lower snake case, "lives_in" (electron/memory/store/normalize.ts) — and that
 * name is its vocabulary: the CLI, MCP and the export show it as stored, and keys, sorting and the
 * rows' data attributes use it. The screens say "lives in".
 *
 * Underscores and hyphens are word breaks, and so is a camelCase step ("worksAt"); the words are
 * lower case, one space apart. Text without those (Japanese "住んでいる", "趣味") is left as it is.
 * An underscore between Japanese parts is a space too ("好き_な_食べ物" → "好き な 食べ物"), not
 * nothing: so the words always name the same predicate again — normalizePredicate(sayPredicate(p))
 * is p for every canonical p (test/unit/predicate-words.test.ts) — and what a user reads, typed or
 * pasted into a filter, finds the fact (the Facts screen's predicate field normalises it; the
 * timeline's row filter reads a space as the underscore: temporal/timeline-source.ts).
 */

/** "lives_in" → "lives in", "worksAt" → "works at", "住んでいる" as it is; never '' for a non-empty name. */
export function sayPredicate(predicate: string): string {
  const words = predicate
    // camelCase: a step up after a lower-case letter or digit ("worksAt"), and the last capital of a run before a word ("HTMLPage").
    .replace(/(?<=[\p{Ll}\p{Nd}])(?=\p{Lu})/gu, ' ')
    .replace(/(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu, ' ')
    .replace(/[\s_-]+/gu, ' ')
    .trim()
    .toLowerCase();
  // A name of separators alone ("_") says nothing in words: the name as stored.
  return words || predicate.trim() || predicate;
}
