/**
 * The message's single judgement call, asked only when rules cannot decide:
 * - pairs of (stored fact, new fact) about the same subject with a synonymous predicate, or with a
 *   `many` predicate where the new fact may say the old one ended → duplicate / contradiction / unrelated;
 * - names that are similar to a stored entity but not clearly the same → same / different.
 * The model never picks a direction: of two contradicting facts the one that became true earlier
 * is closed, as rule 3 says (memory/temporal/learn.ts, becameTrueFirst).
 * The answer's schema is zod, built per call (its keys are the questions asked); the prompt's words
 * are in prompts/judgement-prompt.ts.
 */
import { z } from 'zod';
import { objectKeyOf, type FactRow } from '../../memory/index';
import { nameSimilarity } from './entity-resolution';
import type { NameQuestion, PairQuestion } from './judgement-questions';

export type { NameQuestion, PairQuestion } from './judgement-questions';
export { JUDGEMENT_SYSTEM, judgementPrompt } from '../prompts/judgement-prompt';

export const MAX_PAIRS = 8;
export const MAX_NAME_QUESTIONS = 6;
export const JUDGEMENT_MAX_TOKENS = 600;

const RELATIONS = ['duplicate', 'contradiction', 'unrelated'] as const;
export type Relation = (typeof RELATIONS)[number];

/** Words that say something stopped or changed: only then are `many` facts of one predicate compared. */
const CHANGE_CUES = /\b(no longer|not any ?more|anymore|stopp?ed|quit|used to|instead|switched|changed|moved|left|gave up|former(ly)?|ex-)\b|もう|やめ|辞め|止め|変わ|代わり|移っ|引っ越|以前は|前は|卒業|退職|別れ/iu;

export function signalsChange(text: string): boolean {
  return CHANGE_CUES.test(text);
}

/** Relations often named in different words; a pair from one group is worth asking about. */
const SYNONYM_GROUPS: string[][] = [
  ['lives_in', 'resides_in', 'lives', 'home', 'home_town', 'address', 'city', 'location', 'based_in', '住所', '住んでいる', '住む', '居住地', '住まい'],
  ['works_at', 'works_for', 'employer', 'employed_by', 'company', 'workplace', 'job', 'occupation', 'works_as', '勤務先', '会社', '職場', '仕事', '職業'],
  ['manager', 'boss', 'supervisor', 'reports_to', 'manager_is', 'team_lead', '上司', '担当者', '担当', 'マネージャー'],
  ['partner', 'spouse', 'married_to', 'wife', 'husband', 'girlfriend', 'boyfriend', 'dating', '配偶者', '妻', '夫', '恋人', 'パートナー'],
  ['studies_at', 'school', 'university', 'attends', 'student_at', '学校', '大学', '通っている'],
  ['likes', 'loves', 'enjoys', 'favourite', 'favorite', 'favourite_food', 'favorite_food', 'prefers', 'hobby', '好き', '趣味', '好物'],
  ['owns', 'has', 'drives', 'car', 'pet', '持っている', '飼っている'],
  ['phone', 'phone_number', 'email', 'contact', '電話番号', 'メール'],
];

function synonymous(a: string, b: string): boolean {
  return SYNONYM_GROUPS.some((group) => group.includes(a) && group.includes(b));
}

const FILLER = new Set(['is', 'has', 'have', 'of', 'the', 'my', 'at', 'in', 'to', 'for', 'by', 'on', 'with']);

/** Tokens match when equal or sharing a 4-character stem ("works" ~ "work", "living" ~ "lives"? no: "livi"/"live"). */
function predicateSimilarity(a: string, b: string): number {
  const ta = a.split('_').filter((t) => t.length > 1 && !FILLER.has(t));
  const tb = b.split('_').filter((t) => t.length > 1 && !FILLER.has(t));
  if (synonymous(a, b)) return 1;
  const stem = (t: string) => (t.length > 4 ? t.slice(0, 4) : t);
  const shared = ta.filter((t) => tb.some((u) => u === t || stem(u) === stem(t))).length;
  return Math.max(shared > 0 ? 0.6 : 0, nameSimilarity(a.replaceAll('_', ' '), b.replaceAll('_', ' ')));
}

/** Stored live facts worth asking about for one new fact (rules decide the rest). */
export function pairCandidates(
  stored: readonly (FactRow & { object: string })[],
  newFact: { predicate: string; objectKey: string; fact: string; cardinality: 'one' | 'many' },
): (FactRow & { object: string })[] {
  const changeCue = signalsChange(newFact.fact);
  return stored.filter((row) => {
    const sameObject = objectKeyOf(row) === newFact.objectKey;
    if (row.predicate === newFact.predicate) {
      // one-slots are decided by the rules; same object merges; many-slots only on a change cue
      if (sameObject || row.cardinality === 'one' || newFact.cardinality === 'one') return false;
      return changeCue;
    }
    return sameObject || predicateSimilarity(row.predicate, newFact.predicate) >= 0.6;
  });
}

/** The judgement call's answer: one entry per question asked, at most; a kind of question not asked is absent. */
export interface JudgementOutput {
  pairs?: { id: string; relation: Relation }[];
  names?: { id: string; answer: 'same' | 'different' }[];
}

/** The answer's schema for these questions: ids limited to their keys (P1.., N1..), one entry per question at most. */
export function judgementSchema(pairs: PairQuestion[], names: NameQuestion[]): z.ZodType<JudgementOutput> {
  const pairAnswers = z.array(z.strictObject({ id: z.enum(pairs.map((p) => p.key)), relation: z.enum(RELATIONS) })).max(pairs.length);
  const nameAnswers = z.array(z.strictObject({ id: z.enum(names.map((n) => n.key)), answer: z.enum(['same', 'different']) })).max(names.length);
  const answers = z.strictObject({ pairs: pairAnswers, names: nameAnswers });
  if (!names.length) return answers.omit({ names: true });
  if (!pairs.length) return answers.omit({ pairs: true });
  return answers;
}

export interface JudgementAnswers {
  relations: Map<string, Relation>;
  sameNames: Set<string>;
}

/** Questions left unanswered default to the cautious choice: unrelated, different; of two answers to one pair the first counts. */
export function readJudgement(value: JudgementOutput): JudgementAnswers {
  const relations = new Map<string, Relation>();
  const sameNames = new Set<string>();
  for (const p of value.pairs ?? []) if (!relations.has(p.id)) relations.set(p.id, p.relation);
  for (const n of value.names ?? []) if (n.answer === 'same') sameNames.add(n.id);
  return { relations, sameNames };
}
