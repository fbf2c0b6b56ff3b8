/**
 * Questions over a generated memory (scale-memory.ts), with their answer key taken from the export
 * document itself, in three categories:
 *   common-word   the answer hinges on a word most facts share: "Where does Zoe K. Smith work?"
 *                 (works_at is 15% of the facts, so "work" is in thousands of rows at 10k);
 *                 also lives / manager, and "Does … like coffee?" (likes is 35%, and coffee one of
 *                 a dozen things liked), in English and Japanese (働いて, 住んで, 上司, 好き).
 *   named-date    a day named in the question: "Who was Zoe K. Smith's manager on 2025-06-10?" —
 *                 the answer is the fact valid that day (closed since), not the current one.
 *   period        a period named in the question: "Where did Zoe K. Smith live during 2025?" — every
 *                 fact of that slot whose valid time overlapped the year, at least one of them closed.
 * Subjects are drawn with a seeded PRNG: the same document, the same questions.
 */
import type { FactRecord, MemoryExport } from '../../shared/memory-schema';
import { prng } from '../fixtures/prng';

export const SCALE_CATEGORIES = ['common-word', 'named-date', 'period'] as const;
export type ScaleCategory = (typeof SCALE_CATEGORIES)[number];

export interface ScaleQuestion {
  id: string;
  category: ScaleCategory;
  query: string;
  /** Document fact ids (live versions) the top 10 should hold. */
  expected: string[];
  /** What the question is about, for reports: subject, predicate, and the day or period. */
  about: string;
}

type Slot = 'works_at' | 'lives_in' | 'manager' | 'likes';
type Lang = 'en' | 'ja';

const DAY = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CJK = /[\u3040-\u30ff\u4e00-\u9fff]/u;

/** Questions about the current value of a slot; `n` is the subject's name. */
const CURRENT: Record<Lang, Record<Slot, (n: string) => string>> = {
  en: {
    works_at: (n) => `Where does ${n} work?`,
    lives_in: (n) => `Where does ${n} live?`,
    manager: (n) => `Who is ${n}'s manager?`,
    likes: (n) => `Does ${n} like {object}?`,
  },
  ja: {
    works_at: (n) => `${n}さんはどこで働いていますか？`,
    lives_in: (n) => `${n}さんはどこに住んでいますか？`,
    manager: (n) => `${n}さんの上司は誰ですか？`,
    likes: (n) => `${n}さんは{object}が好きですか？`,
  },
};

/** Questions about a past value at a time `t` (a day or a period, already written out). */
const PAST: Record<Lang, Record<Exclude<Slot, 'likes'>, (n: string, t: string) => string>> = {
  en: {
    works_at: (n, t) => `Where did ${n} work ${t}?`,
    lives_in: (n, t) => `Where did ${n} live ${t}?`,
    manager: (n, t) => `Who was ${n}'s manager ${t}?`,
  },
  ja: {
    works_at: (n, t) => `${t}、${n}さんはどこで働いていましたか？`,
    lives_in: (n, t) => `${t}、${n}さんはどこに住んでいましたか？`,
    manager: (n, t) => `${t}、${n}さんの上司は誰でしたか？`,
  },
};

/** The user's own questions (facts about "me"). */
const USER: Record<Lang, { current: Record<Exclude<Slot, 'likes'>, string>; past: Record<Exclude<Slot, 'likes'>, (t: string) => string> }> = {
  en: {
    current: { works_at: 'Where do I work?', lives_in: 'Where do I live?', manager: 'Who is my manager?' },
    past: { works_at: (t) => `Where did I work ${t}?`, lives_in: (t) => `Where did I live ${t}?`, manager: (t) => `Who was my manager ${t}?` },
  },
  ja: {
    current: { works_at: '私はどこで働いていますか？', lives_in: '私はどこに住んでいますか？', manager: '私の上司は誰ですか？' },
    past: { works_at: (t) => `${t}、私はどこで働いていましたか？`, lives_in: (t) => `${t}、私はどこに住んでいましたか？`, manager: (t) => `${t}、私の上司は誰でしたか？` },
  },
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function dayPhrase(lang: Lang, ms: number, variant: number): string {
  const d = new Date(ms);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (lang === 'ja') return `${y}年${m + 1}月${day}日に`;
  return variant % 2 === 0 ? `on ${isoDay(ms)}` : `on ${day} ${MONTHS[m]} ${y}`;
}

interface SubjectSlots {
  name: string;
  lang: Lang;
  /** Live facts per predicate, by valid time. */
  slots: Map<string, FactRecord[]>;
}

function subjectsOf(document: MemoryExport): SubjectSlots[] {
  const bySubject = new Map<string, SubjectSlots>();
  for (const fact of document.facts) {
    if (fact.expired_at !== null) continue;
    let entry = bySubject.get(fact.subject_id);
    if (!entry) {
      entry = { name: fact.subject, lang: CJK.test(fact.subject) ? 'ja' : 'en', slots: new Map() };
      bySubject.set(fact.subject_id, entry);
    }
    const list = entry.slots.get(fact.predicate) ?? [];
    list.push(fact);
    entry.slots.set(fact.predicate, list);
  }
  const all = [...bySubject.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, s]) => s);
  for (const s of all) for (const list of s.slots.values()) list.sort((a, b) => (a.valid_at < b.valid_at ? -1 : a.valid_at > b.valid_at ? 1 : 0));
  return all;
}

/** A fact's language follows its sentence (the user speaks both). */
const langOf = (fact: FactRecord): Lang => (CJK.test(fact.fact) ? 'ja' : 'en');
/** 担当者 ("the person in charge") is a paraphrase of manager no word of the question shares. */
const askable = (fact: FactRecord) => !fact.fact.includes('担当者');

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A day well inside the fact's valid time (two days of margin on each side), or null. */
function dayInside(fact: FactRecord, random: () => number): number | null {
  if (fact.invalid_at === null) return null;
  const start = Math.ceil(Date.parse(fact.valid_at) / DAY) * DAY + 2 * DAY;
  const end = Math.floor(Date.parse(fact.invalid_at) / DAY) * DAY - 3 * DAY;
  if (end < start) return null;
  return start + Math.floor(random() * ((end - start) / DAY + 1)) * DAY;
}

const overlaps = (fact: FactRecord, from: string, to: string) => fact.valid_at < to && (fact.invalid_at === null || fact.invalid_at > from);

export function scaleQuestions(document: MemoryExport, options: { perSlot?: number; seed?: number } = {}): ScaleQuestion[] {
  const perSlot = options.perSlot ?? 8;
  const random = prng(options.seed ?? 7);
  const subjects = shuffled(subjectsOf(document), random);
  const user = subjects.find((s) => s.name === 'me');
  const people = subjects.filter((s) => s !== user);
  const questions: ScaleQuestion[] = [];
  const add = (category: ScaleCategory, query: string, expected: FactRecord[], about: string) =>
    questions.push({ id: `${category}-${String(questions.filter((q) => q.category === category).length + 1).padStart(3, '0')}`, category, query, expected: expected.map((f) => f.id), about });

  for (const slot of ['works_at', 'lives_in', 'manager', 'likes'] as const) {
    let taken = 0;
    for (const s of people) {
      if (taken === perSlot) break;
      const current = (s.slots.get(slot) ?? []).filter((f) => f.invalid_at === null && langOf(f) === s.lang);
      // One fact asked for: the slot's value, or one of the things liked (named in the question).
      const asked = slot === 'likes' ? current[Math.floor(random() * current.length)] : current.length === 1 ? current[0] : undefined;
      if (asked === undefined) continue;
      add('common-word', CURRENT[s.lang][slot](s.name).replace('{object}', asked.object), [asked], `${s.name} ${slot}${slot === 'likes' ? ` ${asked.object}` : ''} now`);
      taken++;
    }
  }
  const pastSlots = ['manager', 'lives_in', 'works_at'] as const;
  for (const slot of pastSlots) {
    let taken = 0;
    for (const s of people) {
      if (taken === Math.ceil(perSlot * 0.75)) break;
      const facts = s.slots.get(slot) ?? [];
      for (const fact of facts) {
        const day = dayInside(fact, random);
        // The answer: the one fact of the slot valid all that day (and the days around it).
        if (day === null || facts.filter((f) => overlaps(f, new Date(day - 2 * DAY).toISOString(), new Date(day + 3 * DAY).toISOString())).length !== 1) continue;
        add('named-date', PAST[s.lang][slot](s.name, dayPhrase(s.lang, day, taken)), [fact], `${s.name} ${slot} on ${isoDay(day)}`);
        taken++;
        break;
      }
    }
    taken = 0;
    for (const s of people) {
      if (taken === Math.ceil(perSlot * 0.75)) break;
      const year = 2025;
      const during = (s.slots.get(slot) ?? []).filter((f) => overlaps(f, `${year}-01-01T00:00:00.000Z`, `${year + 1}-01-01T00:00:00.000Z`));
      if (during.length === 0 || during.length > 4 || during.every((f) => f.invalid_at === null)) continue;
      const phrase = s.lang === 'ja' ? `${year}年に` : taken % 2 === 0 ? `during ${year}` : `in ${year}`;
      add('period', PAST[s.lang][slot](s.name, phrase), during, `${s.name} ${slot} during ${year}`);
      taken++;
    }
  }
  if (user) {
    for (const slot of pastSlots) {
      const facts = (user.slots.get(slot) ?? []).filter(askable);
      const current = facts.find((f) => f.invalid_at === null);
      if (current) add('common-word', USER[langOf(current)].current[slot], [current], `me ${slot} now`);
      const closed = facts.find((f) => dayInside(f, random) !== null);
      const day = closed ? dayInside(closed, random) : null;
      if (closed && day !== null) add('named-date', USER[langOf(closed)].past[slot](dayPhrase(langOf(closed), day, 0)), [closed], `me ${slot} on ${isoDay(day)}`);
    }
  }
  return questions;
}
