/**
 * The message's single judgement call, asked only when rules cannot decide:
 * - pairs of (stored fact, new fact) about the same subject with a synonymous predicate, or with a
 *   `many` predicate where the new fact may say the old one ended → duplicate / contradiction / unrelated;
 * - names that are similar to a stored entity but not clearly the same → same / different.
 * The model never picks a direction: of two contradicting facts the one that became true earlier
 * is closed, as rule 3 says (see ingest-message.ts).
 */
import type { Database } from 'better-sqlite3';
import type { JsonSchema, JsonSchemaObject } from '../../llm/ports';
import type { FactRow } from '../../memory/store/fact-rows';
import { nameSimilarity } from './entity-resolution';

export const MAX_PAIRS = 8;
export const MAX_NAME_QUESTIONS = 6;
export const JUDGEMENT_MAX_TOKENS = 600;

export type Relation = 'duplicate' | 'contradiction' | 'unrelated';

export interface PairQuestion {
  key: string;
  stored: FactRow & { object: string };
  /** Index of the new fact in the message's extraction. */
  newIndex: number;
  newFact: string;
}

export interface NameQuestion {
  key: string;
  name: string;
  candidate: { id: string; name: string; type: string; summary: string };
}

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
  db: Database,
  newFact: { subjectId: string; predicate: string; objectKey: string; fact: string; cardinality: 'one' | 'many' },
  objectKeyOf: (row: FactRow) => string,
): (FactRow & { object: string })[] {
  const rows = db
    .prepare<[string], FactRow & { object: string }>(
      `SELECT f.*, COALESCE(o.name, f.object_literal) AS object FROM facts f LEFT JOIN entities o ON o.id = f.object_id
       WHERE f.subject_id = ? AND f.expired_at IS NULL AND f.invalid_at IS NULL ORDER BY f.valid_at DESC LIMIT 200`,
    )
    .all(newFact.subjectId);
  const changeCue = signalsChange(newFact.fact);
  return rows.filter((row) => {
    const sameObject = objectKeyOf(row) === newFact.objectKey;
    if (row.predicate === newFact.predicate) {
      // one-slots are decided by the rules; same object merges; many-slots only on a change cue
      if (sameObject || row.cardinality === 'one' || newFact.cardinality === 'one') return false;
      return changeCue;
    }
    return sameObject || predicateSimilarity(row.predicate, newFact.predicate) >= 0.6;
  });
}

export function judgementSchema(pairs: PairQuestion[], names: NameQuestion[]): JsonSchemaObject {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  if (pairs.length) {
    properties.pairs = {
      type: 'array',
      maxItems: pairs.length,
      items: {
        type: 'object',
        properties: { id: { enum: pairs.map((p) => p.key) }, relation: { enum: ['duplicate', 'contradiction', 'unrelated'] } },
        required: ['id', 'relation'],
        additionalProperties: false,
      },
    };
    required.push('pairs');
  }
  if (names.length) {
    properties.names = {
      type: 'array',
      maxItems: names.length,
      items: {
        type: 'object',
        properties: { id: { enum: names.map((n) => n.key) }, answer: { enum: ['same', 'different'] } },
        required: ['id', 'answer'],
        additionalProperties: false,
      },
    };
    required.push('names');
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

export const JUDGEMENT_SYSTEM = [
  'You compare facts from a personal memory. For each pair, answer:',
  '- duplicate: both say the same thing (perhaps in other words or with a synonymous relation);',
  '- contradiction: both cannot be true at the same time (one replaced or ended the other);',
  '- unrelated: both can be true together.',
  'For each name question, answer same if the new name refers to the known entity, else different.',
].join('\n');

export function judgementPrompt(pairs: PairQuestion[], names: NameQuestion[]): string {
  const parts: string[] = [];
  if (pairs.length) {
    parts.push(
      'Pairs:\n' +
        pairs
          .map((p) => `${p.key}: stored "${p.stored.fact}" (${p.stored.predicate} → ${p.stored.object}, since ${p.stored.valid_at.slice(0, 10)}) | new "${p.newFact}"`)
          .join('\n'),
    );
  }
  if (names.length) {
    parts.push('Names:\n' + names.map((n) => `${n.key}: new name "${n.name}" | known ${n.candidate.type} "${n.candidate.name}"${n.candidate.summary ? ` (${n.candidate.summary})` : ''}`).join('\n'));
  }
  return parts.join('\n\n');
}

export interface JudgementAnswers {
  relations: Map<string, Relation>;
  sameNames: Set<string>;
}

/** Missing or unknown answers default to the cautious choice: unrelated, different. */
export function readJudgement(value: unknown): JudgementAnswers {
  const relations = new Map<string, Relation>();
  const sameNames = new Set<string>();
  const v = value as { pairs?: { id?: unknown; relation?: unknown }[]; names?: { id?: unknown; answer?: unknown }[] };
  for (const p of Array.isArray(v?.pairs) ? v.pairs : []) {
    if (typeof p?.id === 'string' && (p.relation === 'duplicate' || p.relation === 'contradiction' || p.relation === 'unrelated') && !relations.has(p.id)) relations.set(p.id, p.relation);
  }
  for (const n of Array.isArray(v?.names) ? v.names : []) if (typeof n?.id === 'string' && n.answer === 'same') sameNames.add(n.id);
  return { relations, sameNames };
}
