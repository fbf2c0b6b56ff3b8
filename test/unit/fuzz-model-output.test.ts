/**
 * Fuzzing what a model may answer (issue 13): random text and random JSON (mutations of valid
 * answers among them) through the decoding of structured output and the extraction and judgement
 * readers (assistant/ingestion/extraction.ts, judgement.ts). One invariant: an `invalid_output`
 * ModelCallError whose message names the field at fault, or a valid reading — never a crash.
 * FUZZ_RUNS / FUZZ_SEED as in fuzz-memory-inputs.test.ts (scripts/fuzz-long.mjs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractionSchema, MAX_FACTS_PER_MESSAGE, readExtraction } from '../../electron/assistant/ingestion/extraction';
import { judgementSchema, readJudgement } from '../../electron/assistant/ingestion/judgement';
import { ModelCallError } from '../../electron/llm/model-errors';
import { decodeModelOutput } from '../../electron/llm/structured-output';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || undefined;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (runs: number): fc.Parameters<unknown> => ({ numRuns: RUNS ?? runs, ...(SEED !== undefined ? { seed: SEED } : {}) });

const generation = { stopReason: 'eogToken', maxTokens: 2500 };

/** Decodes `text`: the value, or null after checking that the error is the clear one. */
function decodeOrClearError<T>(text: string, schema: Parameters<typeof decodeModelOutput<T>>[1]): T | null {
  try {
    return decodeModelOutput(text, schema, generation);
  } catch (error) {
    if (!(error instanceof ModelCallError)) throw new Error(`not a clear error: ${String(error)}`, { cause: error });
    expect(error.code).toBe('invalid_output');
    expect(error.message).toMatch(/not complete JSON|does not match the schema: \$/);
    return null;
  }
}

const validFact = {
  subject: 'me',
  subject_type: 'person',
  predicate: 'lives_in',
  object: 'Kyoto',
  object_type: 'place',
  fact: 'I live in Kyoto.',
  cardinality: 'one',
  since: '先週',
  until: '',
  ended: false,
  from_assistant: false,
};

const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 10 }), fc.constantFrom('', '  ', 'me', '\u0000', '\u001b[2J', '!!!', '\ud800'));
const anyValue = fc.oneof(text, fc.anything({ maxDepth: 2 }), fc.integer(), fc.boolean(), fc.constant(null));

/** A valid answer with some fields replaced or removed, and facts added. */
const extractionAnswer = fc
  .array(
    fc.array(fc.tuple(fc.constantFrom(...Object.keys(validFact), 'extra'), fc.option(anyValue, { nil: undefined })), { maxLength: 2 }).map((edits) => {
      const fact: Record<string, unknown> = { ...validFact };
      for (const [key, value] of edits) {
        if (value === undefined) delete fact[key];
        else fact[key] = value;
      }
      return fact;
    }),
    { maxLength: MAX_FACTS_PER_MESSAGE + 1 },
  )
  .map((facts) => ({ facts }));

/** JSON text as a model might leave it: whole, cut short, or with junk around it. */
function asModelText(value: unknown): fc.Arbitrary<string> {
  const json = JSON.stringify(value) ?? 'undefined';
  return fc.oneof(fc.constant(json), fc.nat({ max: json.length }).map((n) => json.slice(0, n)), fc.tuple(text, text).map(([a, b]) => `${a}${json}${b}`));
}

describe('fuzz: extraction answers', () => {
  it('random and mutated answers: invalid_output naming the field, or facts with every field filled', () => {
    fc.assert(
      fc.property(fc.oneof(extractionAnswer.chain(asModelText), anyValue.chain(asModelText), fc.string({ maxLength: 60 })), (answer) => {
        const value = decodeOrClearError(answer, extractionSchema);
        if (value === null) return;
        const facts = readExtraction(value);
        expect(facts.length).toBeLessThanOrEqual(MAX_FACTS_PER_MESSAGE);
        for (const f of facts) {
          for (const field of ['subject', 'object', 'fact'] as const) expect(f[field].trim()).not.toBe('');
          expect(f.predicate).toMatch(/[\p{L}\p{N}]/u);
        }
      }),
      params(400),
    );
  });
});

describe('fuzz: judgement answers', () => {
  const questions = fc.record({ pairs: fc.integer({ min: 0, max: 3 }), names: fc.integer({ min: 0, max: 3 }) }).filter((q) => q.pairs + q.names > 0);

  it('random answers to random questions: invalid_output, or relations and names only for the questions asked', () => {
    fc.assert(
      fc.property(
        questions,
        fc.array(fc.record({ id: fc.oneof(fc.constantFrom('P1', 'P2', 'P3', 'N1', 'N2', 'N3', 'P9'), text), relation: fc.oneof(fc.constantFrom('same', 'replaces', 'unrelated', 'contradicts'), text) }), { maxLength: 4 }),
        fc.array(fc.record({ id: fc.oneof(fc.constantFrom('N1', 'N2', 'N3', 'P1'), text), answer: fc.oneof(fc.constantFrom('same', 'different'), text) }), { maxLength: 4 }),
        fc.boolean(),
        (q, pairs, names, cut) => {
          const pairQuestions = Array.from({ length: q.pairs }, (_, i) => ({ key: `P${i + 1}` }));
          const nameQuestions = Array.from({ length: q.names }, (_, i) => ({ key: `N${i + 1}` }));
          const schema = judgementSchema(pairQuestions as Parameters<typeof judgementSchema>[0], nameQuestions as Parameters<typeof judgementSchema>[1]);
          const json = JSON.stringify({ pairs, names });
          const value = decodeOrClearError(cut ? json.slice(0, json.length - 1) : json, schema);
          if (value === null) return;
          const { relations, sameNames } = readJudgement(value);
          for (const id of relations.keys()) expect(pairQuestions.map((p) => p.key)).toContain(id);
          for (const id of sameNames) expect(nameQuestions.map((n) => n.key)).toContain(id);
        },
      ),
      params(300),
    );
  });
});
