/**
 * FROZEN: used only by migration 0041_entity_short_names. Copies of normalizeName and
 * stripHonorifics (store/normalize.ts) and of shortNameKeys (store/entity-names-index.ts) as they
 * were when that step shipped. Never edit them, never import them from anywhere else: the step must
 * fill the table tomorrow exactly as it did then.
 */
import type { Database } from 'better-sqlite3';

const HONORIFICS_JA = /(さん|様|さま|君|くん|ちゃん|先生|氏|殿|先輩|社長|部長|課長)$/u;
const HONORIFICS_EN = /^(mr|mrs|ms|miss|dr|prof)\.?\s+/u;
const HONORIFICS_ROMAJI = /[\s-](san|sama|kun|chan|sensei|senpai|sempai|shi|dono)$/u;

function stripHonorifics0041(name: string): string {
  const normalized = name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return normalized.replace(HONORIFICS_EN, '').replace(HONORIFICS_JA, '').replace(HONORIFICS_ROMAJI, '').trim();
}

function shortNameKeys0041(name: string): { keys: string[]; length: number } | null {
  const chars = [...stripHonorifics0041(name)];
  if (chars.length === 0 || chars.length > 4) return null;
  if (chars.length === 1) return { keys: chars, length: 1 };
  const keys = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) keys.add(chars[i]! + chars[i + 1]!);
  return { keys: [...keys], length: chars.length };
}

/** Every stored name and alias of at most four characters after honorifics, under its keys. */
export function fillShortNames0041(db: Database): void {
  const insert = db.prepare('INSERT OR IGNORE INTO entity_short_names (pair, length, entity_id) VALUES (?, ?, ?)');
  const names = db.prepare('SELECT id, name FROM entities UNION ALL SELECT entity_id, alias FROM entity_aliases').all() as { id: string; name: string }[];
  for (const { id, name } of names) {
    const short = shortNameKeys0041(name);
    if (short) for (const key of short.keys) insert.run(key, short.length, id);
  }
}
