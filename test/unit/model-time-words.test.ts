/**
 * Every interval a model or a person reads is written by the one formatter (shared/time-format.ts):
 * the judgement call's stored facts in days of the zone the message was written in ("planned" for
 * one still to come, never "since" for one that ended), a message's learning summary, the chat
 * context. Zones are passed explicitly.
 */
import { describe, expect, it } from 'vitest';
import type { FactRow } from '../../electron/memory/index';
import { extractionPrompt } from '../../electron/assistant/prompts/extraction-prompt';
import { judgementPrompt } from '../../electron/assistant/prompts/judgement-prompt';
import type { PairQuestion } from '../../electron/assistant/ingestion/judgement-questions';

const stored = (fields: Partial<FactRow>): PairQuestion['stored'] =>
  ({
    id: 'f1',
    fact: 'I live in Kyoto.',
    predicate: 'lives_in',
    object: 'Kyoto',
    valid_at: '2026-09-01T01:00:00.000Z',
    valid_at_precision: 'day',
    invalid_at: null,
    invalid_at_precision: null,
    ...fields,
  }) as PairQuestion['stored'];

const pair = (fields: Partial<FactRow>): PairQuestion => ({ key: 'P1', stored: stored(fields), newIndex: 0, newFact: 'I live in Osaka.' });

describe('the judgement prompt writes stored intervals with the one formatter', () => {
  const when = { now: '2026-10-01T00:00:00.000Z', zone: 'Asia/Tokyo' };

  it('says an ended fact ended, in days of the zone', () => {
    const prompt = judgementPrompt([pair({ valid_at: '2026-08-31T16:00:00.000Z', invalid_at: '2026-09-14T15:30:00.000Z', invalid_at_precision: 'instant' })], [], when);
    expect(prompt).toContain('P1: stored "I live in Kyoto." (lives_in → Kyoto, 1 Sept – 15 Sept 2026) | new "I live in Osaka."');
  });

  it('says a fact still to come is planned, never "since"', () => {
    const prompt = judgementPrompt([pair({ valid_at: '2027-01-01T00:00:00.000Z', valid_at_precision: 'month' })], [], when);
    expect(prompt).toContain('(lives_in → Kyoto, from January 2027 (planned))');
    expect(prompt).not.toContain('since');
  });

  it('reads the day in the zone the message was written in', () => {
    // 23:30 UTC on 31 Aug is 1 Sep in Tokyo.
    const prompt = judgementPrompt([pair({ valid_at: '2026-08-31T23:30:00.000Z', valid_at_precision: 'instant' })], [], when);
    expect(prompt).toContain('since 1 Sept 2026');
  });
});

describe('the extraction prompt says when the message was written in its zone', () => {
  const ctx = { role: 'user', content: 'I started at the gym today.', knownEntities: [], knownPredicates: [] };

  it('gives the wall time and weekday where it was written, not in UTC', () => {
    // 23:30 UTC on Monday 31 Aug is 08:30 on Tuesday 1 Sep in Tokyo.
    const prompt = extractionPrompt({ ...ctx, referenceTime: '2026-08-31T23:30:00.000Z', zone: 'Asia/Tokyo' });
    expect(prompt).toContain('The message was written on 2026-09-01T08:30:00+09:00 (Tuesday);');
  });

  it('keeps UTC for a message written in UTC', () => {
    expect(extractionPrompt({ ...ctx, referenceTime: '2026-08-31T23:30:00.000Z', zone: 'UTC' })).toContain('written on 2026-08-31T23:30:00+00:00 (Monday);');
  });
});
