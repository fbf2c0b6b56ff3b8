/**
 * Model-output schemas are zod, written once: the grammar's JSON Schema is generated from them
 * (and must stay in the subset node-llama-cpp enforces, every string and array bounded), and the
 * model's answer is validated and typed by the same schema.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { extractionSchema, readExtraction, type ExtractedFact, type ExtractionOutput } from '../../electron/assistant/ingestion/extraction';
import { judgementSchema, readJudgement, type JudgementOutput, type NameQuestion, type PairQuestion } from '../../electron/assistant/ingestion/judgement';
import { ModelCallError } from '../../electron/llm/model-errors';
import { decodeModelOutput, grammarSchemaOf, modelText, parseModelOutput } from '../../electron/llm/structured-output';

const ENTITY_TYPES = ['user', 'person', 'place', 'organization', 'thing', 'event', 'concept', 'other'];

const fact: ExtractedFact = {
  subject: 'me',
  subject_type: 'user',
  predicate: 'lives_in',
  object: '大阪',
  object_type: 'place',
  fact: 'I live in Osaka.',
  cardinality: 'one',
  since: 'last week',
  until: '',
  ended: false,
  from_assistant: false,
};

function problems(schema: z.ZodType, value: unknown): string[] {
  const parsed = parseModelOutput(schema, value);
  return parsed.ok ? [] : parsed.problems;
}

// Only the keys a question's schema reads.
const pairs = [{ key: 'P1' }, { key: 'P2' }] as PairQuestion[];
const names = [{ key: 'N1' }] as NameQuestion[];

describe('the extraction schema', () => {
  it('generates the bounded JSON Schema the grammar is made from', () => {
    expect(grammarSchemaOf(extractionSchema)).toEqual({
      type: 'object',
      properties: {
        facts: {
          type: 'array',
          maxItems: 5,
          items: {
            type: 'object',
            properties: {
              subject: { type: 'string', maxLength: 40, description: 'who or what the fact is about; "me" for the user' },
              subject_type: { type: 'string', enum: ENTITY_TYPES },
              predicate: { type: 'string', maxLength: 32, description: 'a short snake_case relation, reusing a known one when it fits' },
              object: { type: 'string', maxLength: 60 },
              object_type: { type: 'string', enum: [...ENTITY_TYPES, 'literal'] },
              fact: { type: 'string', maxLength: 160, description: 'one standalone sentence in the language of the message' },
              cardinality: { type: 'string', enum: ['one', 'many'], description: 'one: the subject has a single value at a time (lives_in, manager_is)' },
              since: { type: 'string', maxLength: 24, description: 'when it became true, copied as written ("last week", "先週", "2026-09-01"), or ""' },
              until: { type: 'string', maxLength: 24, description: 'when it stops or stopped being true, as written, or ""' },
              ended: { type: 'boolean', description: 'true when the message says it is already over (past tense); false when it still holds, even with an end to come' },
              from_assistant: { type: 'boolean', description: "true when the assistant's previous message stated it and this message confirms it" },
            },
            required: ['subject', 'subject_type', 'predicate', 'object', 'object_type', 'fact', 'cardinality', 'since', 'until', 'ended', 'from_assistant'],
            additionalProperties: false,
          },
        },
      },
      required: ['facts'],
      additionalProperties: false,
    });
    expect(grammarSchemaOf(extractionSchema)).not.toHaveProperty('$schema');
  });

  it('accepts and types a valid answer', () => {
    const value = decodeModelOutput(JSON.stringify({ facts: [fact] }), extractionSchema, { stopReason: 'eogToken', maxTokens: 100 });
    expectTypeOf(value).toEqualTypeOf<ExtractionOutput>();
    expectTypeOf(value.facts[0]!.cardinality).toEqualTypeOf<'one' | 'many'>();
    expect(value).toEqual({ facts: [fact] });
    expect(problems(extractionSchema, { facts: [] })).toEqual([]);
  });

  it('refuses an answer out of an enum, too long, with a field missing or added, naming the field', () => {
    const { until: _until, ...missing } = fact;
    expect(problems(extractionSchema, { facts: [{ ...fact, subject_type: 'animal' }] })).toEqual([expect.stringMatching(/^\$\.facts\[0\]\.subject_type: Invalid option/)]);
    expect(problems(extractionSchema, { facts: [{ ...fact, predicate: 'x'.repeat(33) }] })).toEqual(['$.facts[0].predicate: longer than 32 characters']);
    expect(problems(extractionSchema, { facts: [fact, missing] })).toEqual(['$.facts[1].until: Invalid input: expected string, received undefined']);
    expect(problems(extractionSchema, { facts: [{ ...fact, confidence: 1 }] })).toEqual(['$.facts[0]: Unrecognized key: "confidence"']);
    expect(problems(extractionSchema, { facts: Array(6).fill(fact) })).toEqual([expect.stringMatching(/^\$\.facts: Too big/)]);
    expect(problems(extractionSchema, { facts: [{ ...fact, from_assistant: 'yes' }] })).toEqual(['$.facts[0].from_assistant: Invalid input: expected boolean, received string']);
    expect(problems(extractionSchema, [])).toEqual(['$: Invalid input: expected object, received array']);
  });

  it('fails the call with invalid_output naming the field, or on JSON cut short', () => {
    const bad = JSON.stringify({ facts: [{ ...fact, cardinality: 'few' }] });
    const call = () => decodeModelOutput(bad, extractionSchema, { stopReason: 'eogToken', maxTokens: 100 });
    expect(call).toThrow(ModelCallError);
    expect(call).toThrow(/does not match the schema: \$\.facts\[0\]\.cardinality: Invalid option/);
    expect(() => decodeModelOutput('{"facts": [', extractionSchema, { stopReason: 'maxTokens', maxTokens: 3 })).toThrow(
      expect.objectContaining({ code: 'invalid_output', message: "The model's answer is not complete JSON (generation stopped at maxTokens = 3)", output: '{"facts": [' }),
    );
  });

  it('counts string length in characters, as the grammar does, not UTF-16 units', () => {
    expect(problems(extractionSchema, { facts: [{ ...fact, subject: '😀'.repeat(40) }] })).toEqual([]);
    expect(problems(extractionSchema, { facts: [{ ...fact, subject: '😀'.repeat(41) }] })).toEqual(['$.facts[0].subject: longer than 40 characters']);
  });

  it('reads facts trimmed, dropping those left empty', () => {
    const value = extractionSchema.parse({ facts: [{ ...fact, subject: '  me ', since: ' last week ' }, { ...fact, predicate: '__' }, { ...fact, object: ' ' }] });
    expect(readExtraction(value)).toEqual([{ ...fact, since: 'last week' }]);
  });
});

describe('the judgement schema', () => {
  it('is built per call, its ids limited to the questions asked', () => {
    const pairAnswers = {
      type: 'array',
      maxItems: 2,
      items: {
        type: 'object',
        properties: { id: { type: 'string', enum: ['P1', 'P2'] }, relation: { type: 'string', enum: ['duplicate', 'contradiction', 'unrelated'] } },
        required: ['id', 'relation'],
        additionalProperties: false,
      },
    };
    const nameAnswers = {
      type: 'array',
      maxItems: 1,
      items: {
        type: 'object',
        properties: { id: { type: 'string', enum: ['N1'] }, answer: { type: 'string', enum: ['same', 'different'] } },
        required: ['id', 'answer'],
        additionalProperties: false,
      },
    };
    expect(grammarSchemaOf(judgementSchema(pairs, names))).toEqual({
      type: 'object',
      properties: { pairs: pairAnswers, names: nameAnswers },
      required: ['pairs', 'names'],
      additionalProperties: false,
    });
    expect(grammarSchemaOf(judgementSchema(pairs, []))).toEqual({ type: 'object', properties: { pairs: pairAnswers }, required: ['pairs'], additionalProperties: false });
    expect(grammarSchemaOf(judgementSchema([], names))).toEqual({ type: 'object', properties: { names: nameAnswers }, required: ['names'], additionalProperties: false });
  });

  it('validates and types the answer; unanswered questions default to unrelated and different', () => {
    const schema = judgementSchema(pairs, names);
    const parsed = parseModelOutput(schema, { pairs: [{ id: 'P2', relation: 'contradiction' }, { id: 'P2', relation: 'duplicate' }], names: [{ id: 'N1', answer: 'same' }] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expectTypeOf(parsed.value).toEqualTypeOf<JudgementOutput>();
    const answers = readJudgement(parsed.value);
    expect([...answers.relations]).toEqual([['P2', 'contradiction']]);
    expect([...answers.sameNames]).toEqual(['N1']);
    expect(readJudgement({ pairs: [], names: [{ id: 'N1', answer: 'different' }] })).toEqual({ relations: new Map(), sameNames: new Set() });
  });

  it('refuses unknown ids, relations and answers to questions not asked, naming the field', () => {
    expect(problems(judgementSchema(pairs, names), { pairs: [{ id: 'P3', relation: 'duplicate' }], names: [] })).toEqual([expect.stringMatching(/^\$\.pairs\[0\]\.id: Invalid option/)]);
    expect(problems(judgementSchema(pairs, names), { pairs: [{ id: 'P1', relation: 'same' }], names: [] })).toEqual([expect.stringMatching(/^\$\.pairs\[0\]\.relation: Invalid option/)]);
    expect(problems(judgementSchema(pairs, names), { pairs: [] })).toEqual([expect.stringMatching(/^\$\.names: Invalid input/)]);
    expect(problems(judgementSchema(pairs, []), { pairs: [], names: [] })).toEqual(['$: Unrecognized key: "names"']);
  });
});

describe('grammarSchemaOf', () => {
  it('refuses what the grammar would not enforce, naming the place', () => {
    const refused = (schema: z.ZodType) => () => grammarSchemaOf(schema);
    expect(refused(z.strictObject({ note: z.string() }))).toThrow('Model-output schema at $.note: unbounded string');
    expect(refused(z.strictObject({ tags: z.array(z.enum(['a'])) }))).toThrow('Model-output schema at $.tags: unbounded array');
    expect(refused(z.strictObject({ name: modelText(5), nick: modelText(5).optional() }))).toThrow('optional properties (nick)');
    expect(refused(z.strictObject({ name: z.string().max(5) }))).toThrow('Model-output schema at $.name: use modelText(5) instead of z.string().max()');
    expect(refused(z.strictObject({ count: z.number().min(1) }))).toThrow('Model-output schema at $.count: the grammar does not support "minimum"');
    expect(refused(z.strictObject({ code: z.string().regex(/^a+$/) }))).toThrow('the grammar does not support "pattern"');
    expect(refused(z.looseObject({ name: modelText(5) }))).toThrow('Model-output schema at $: the object must not allow other properties');
    expect(refused(z.array(z.boolean()).max(2))).toThrow('the answer must be an object');
  });

  it('turns a union into the oneOf the grammar reads', () => {
    const schema = z.strictObject({ v: z.union([z.literal('none'), modelText(3)]), ok: z.boolean() });
    expect(grammarSchemaOf(schema)).toEqual({
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string', const: 'none' }, { type: 'string', maxLength: 3 }] }, ok: { type: 'boolean' } },
      required: ['v', 'ok'],
      additionalProperties: false,
    });
    expect(problems(schema, { v: 'none', ok: true })).toEqual([]);
    expect(problems(schema, { v: 'long', ok: true })).toEqual([expect.stringMatching(/^\$\.v: /)]);
  });

  it('caches the JSON Schema per schema object', () => {
    expect(grammarSchemaOf(extractionSchema)).toBe(grammarSchemaOf(extractionSchema));
  });
});
