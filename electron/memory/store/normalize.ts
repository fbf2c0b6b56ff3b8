/**
 * Normalisation of names and predicates, so "My Manager", "my  manager" and "ｍｙ manager" meet.
 * NFKC folds full-width Latin and half-width kana; case folding; whitespace collapsed.
 */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Predicates are canonical relation names: lower snake case ("works at" → "works_at"). */
export function normalizePredicate(predicate: string): string {
  return predicate
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[\s-]+/gu, '_')
    .replace(/_+/gu, '_');
}

/** Words that mean the user in observations and model output. */
const USER_WORDS = new Set(['me', 'i', 'myself', 'user', 'the user', '私', 'わたし', '僕', 'ぼく', '俺', 'おれ', '自分', 'ユーザー']);

export function isUserReference(name: string): boolean {
  return USER_WORDS.has(normalizeName(name));
}

export const USER_ENTITY_NAME = 'me';
export const USER_ENTITY_ALIASES = ['I', 'myself', 'user', '私'];

const HONORIFICS_JA = /(さん|様|さま|君|くん|ちゃん|先生|氏|殿|先輩|社長|部長|課長)$/u;
const HONORIFICS_EN = /^(mr|mrs|ms|miss|dr|prof)\.?\s+/u;
/** Japanese honorifics written in Latin letters: "Yamada-sensei", "Sato san". */
const HONORIFICS_ROMAJI = /[\s-](san|sama|kun|chan|sensei|senpai|sempai|shi|dono)$/u;

/** The name without a title or honorific ("佐藤さん" → "佐藤", "Dr. Sato" → "sato"), normalised. */
export function stripHonorifics(name: string): string {
  return normalizeName(name).replace(HONORIFICS_EN, '').replace(HONORIFICS_JA, '').replace(HONORIFICS_ROMAJI, '').trim();
}

/**
 * Text as one FTS5 string (a phrase): quoted, its quotes doubled, without NUL — FTS5 reads its
 * query as a C string, so a NUL would end it inside the quotes ("unterminated string"). Every
 * MATCH of text from outside goes through it, so no text is ever read as FTS5 syntax.
 */
export function ftsString(text: string): string {
  return `"${text.replaceAll('\u0000', '').replaceAll('"', '""')}"`;
}
