/**
 * When a stored fact says what an expected fact says, component by component:
 * - subject and object: the same text after NFKC, case and whitespace folding, honorifics and a
 *   leading article or possessive stripped ("the gym" = "Gym", "佐藤さん" = "佐藤"), or one of the
 *   case's aliases; the user is "me" (any word memory reads as the user);
 * - predicate: the same canonical form (normalizePredicate), an alias of the case, or one group of
 *   PREDICATE_GROUPS (relations people name in different words);
 * - dates: in the message's zone, at the precision the case states (see dateMatches).
 */
import { isUserReference, normalizePredicate, stripHonorifics } from '../../../electron/memory/index';
import type { FactRecord, Precision } from '../../../shared/memory-schema';
import type { DateSpec, ExpectedFact } from './case-schema';

/** Relations a careful reader takes as one (a superset of nothing in the app: the eval's own judgement). */
export const PREDICATE_GROUPS: string[][] = [
  ['lives_in', 'resides_in', 'lives', 'lives_at', 'home', 'based_in', 'moved_to', 'location'],
  ['works_at', 'works_for', 'employer', 'employed_by', 'workplace', 'company', 'job_at'],
  ['job_title', 'works_as', 'job', 'occupation', 'role', 'position', 'title', 'profession'],
  ['manager', 'boss', 'supervisor', 'reports_to', 'manager_is', 'has_manager'],
  ['partner', 'spouse', 'married_to', 'wife', 'husband', 'girlfriend', 'boyfriend', 'dating'],
  ['studies_at', 'attends', 'student_at', 'school', 'goes_to_school'],
  ['likes', 'loves', 'enjoys', 'is_into', 'fan_of'],
  ['dislikes', 'hates', 'does_not_like'],
  ['has_pet', 'owns_pet', 'pet', 'has_dog', 'has_cat'],
  ['owns', 'has', 'bought', 'drives', 'car'],
  ['plays', 'practices', 'does'],
  ['goes_to', 'attends_regularly', 'visits_regularly', 'member_of', 'goes'],
  ['birthday', 'born_on', 'date_of_birth', 'birth_date'],
  ['allergic_to', 'allergy', 'has_allergy'],
  ['learning', 'studies', 'is_learning', 'studying'],
  ['visited', 'traveled_to', 'travelled_to', 'went_to', 'trip_to'],
  ['uses', 'uses_app', 'uses_tool'],
];

const ARTICLE = /^(the|a|an|my|our|his|her|their)\s+/u;

export function normalizeText(text: string): string {
  return stripHonorifics(text).replace(ARTICLE, '').replace(/[.。!！]+$/u, '').trim();
}

function names(primary: string, aliases: readonly string[]): string[] {
  return [primary, ...aliases].map(normalizeText);
}

/** Names match when equal after folding, or when the stored one contains the expected as a word ("Osaka, Japan" ⊇ "Osaka"). */
function nameMatches(expected: string[], stored: string): boolean {
  const got = normalizeText(stored);
  return expected.some((e) => {
    if (e === got) return true;
    if (e.length < 2) return false;
    const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(e);
    if (cjk) return got.includes(e);
    return new RegExp(`(^|[^\\p{L}\\p{N}])${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').test(got);
  });
}

export function subjectMatches(expected: ExpectedFact, stored: Pick<FactRecord, 'subject'>): boolean {
  if (isUserReference(expected.subject)) return isUserReference(stored.subject);
  return nameMatches(names(expected.subject, expected.subjectAliases), stored.subject);
}

export function objectMatches(expected: ExpectedFact, stored: Pick<FactRecord, 'object'>): boolean {
  if (isUserReference(expected.object) && isUserReference(stored.object)) return true;
  return nameMatches(names(expected.object, expected.objectAliases), stored.object);
}

export function predicateMatches(expected: ExpectedFact, stored: Pick<FactRecord, 'predicate'>): boolean {
  const got = normalizePredicate(stored.predicate);
  const wanted = [expected.predicate, ...expected.predicateAliases].map(normalizePredicate);
  if (wanted.includes(got)) return true;
  return PREDICATE_GROUPS.some((group) => group.includes(got) && wanted.some((w) => group.includes(w)));
}

/** The wall-clock parts of an instant in a zone: "2026-09-01", "2026-09", "2026". */
export function localParts(instant: string, zone: string): { day: string; month: string; year: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  return { day, month: day.slice(0, 7), year: day.slice(0, 4) };
}

/**
 * A stored time against an expected one. "said": the message's own time, stored as that instant
 * (within a minute) or as its day ("today"). A date: the same period in the message's zone, stored at
 * the same precision — "since March" stored as 1 March (day) is not what was said.
 */
export function dateMatches(expected: DateSpec, at: string, precision: Precision, said: { time: string; zone: string }): boolean {
  if (expected === 'said') {
    if (precision === 'instant') return Math.abs(Date.parse(at) - Date.parse(said.time)) <= 60_000;
    return precision === 'day' && localParts(at, said.zone).day === localParts(said.time, said.zone).day;
  }
  const local = localParts(at, said.zone);
  if (expected.length === 4) return precision === 'year' && local.year === expected;
  if (expected.length === 7) return precision === 'month' && local.month === expected;
  return precision === 'day' && local.day === expected;
}

/** valid_at and invalid_at together: the fact's interval as the case states it. */
export function datesMatch(expected: ExpectedFact, stored: Pick<FactRecord, 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision'>, said: { time: string; zone: string }): boolean {
  const start = expected.valid === 'before' ? stored.invalid_at === null || stored.valid_at < stored.invalid_at : dateMatches(expected.valid, stored.valid_at, stored.valid_at_precision, said);
  if (!start) return false;
  if (expected.invalid === null) return stored.invalid_at === null;
  return stored.invalid_at !== null && dateMatches(expected.invalid, stored.invalid_at, stored.invalid_at_precision ?? 'instant', said);
}

export interface ComponentMatch {
  subject: boolean;
  predicate: boolean;
  object: boolean;
  date: boolean;
}

export function compare(expected: ExpectedFact, stored: FactRecord, said: { time: string; zone: string }): ComponentMatch {
  return { subject: subjectMatches(expected, stored), predicate: predicateMatches(expected, stored), object: objectMatches(expected, stored), date: datesMatch(expected, stored, said) };
}

export const isFull = (m: ComponentMatch): boolean => m.subject && m.predicate && m.object && m.date;
export const hits = (m: ComponentMatch): number => Number(m.subject) + Number(m.predicate) + Number(m.object) + Number(m.date);
