/**
 * Errors in words that name the field: the engine's words for a refused request (not zod's "Too
 * small: expected string to have >=1 characters"), an end before the start in the user's zone,
 * and a form's words for the message under its field — the error itself kept, its kind with it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeRequestError, endBeforeStartMessage } from '../../electron/engine/api-errors';
import { editFactRequest } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import { readableError } from '../../renderer/src/api/readable-error';
import { fieldErrorText, inFormWords } from '../../renderer/src/common/field-error';

const refusal = (request: unknown) => {
  const parsed = editFactRequest.safeParse(request);
  if (parsed.success) throw new Error('accepted');
  return describeRequestError('editFact', parsed.error);
};

describe('the engine’s words for a refused request', () => {
  it('names the field and says what is wrong in plain words', () => {
    expect(refusal({ id: 'fct_1', fact: '' })).toBe('editFact: invalid request: fact: must not be empty');
    expect(refusal({ id: 'fct_1', fact: 'x'.repeat(4001) })).toBe('editFact: invalid request: fact: must be at most 4000 characters');
    expect(refusal({ fact: 'no id' })).toBe('editFact: invalid request: id: is missing (a string is needed)');
    expect(refusal({ id: 'fct_1', sql: 'DROP' })).toBe('editFact: invalid request: "sql" is not a field of this call');
    expect(refusal({ id: 'fct_1', valid_at: 5 })).toBe('editFact: invalid request: valid_at: must be a string');
    // The page's locale, for the times a refusal says: a language tag, or refused in words.
    expect(refusal({ id: 'fct_1', locale: 'en_US' })).toBe('editFact: invalid request: locale: must be a language tag like en-US or ja-JP');
    expect(editFactRequest.safeParse({ id: 'fct_1', locale: 'ja-JP' }).success).toBe(true);
    const custom = z.strictObject({ at: z.string().regex(/^\d+$/, { error: 'must be digits' }) }).safeParse({ at: 'x' });
    expect(describeRequestError('call', custom.error!)).toBe('call: invalid request: at: must be digits');
  });

  it('says an end before the start with both times in the user’s zone, at their precision', () => {
    expect(endBeforeStartMessage('invalid_at', { at: '2026-07-31T15:00:00.000Z', precision: 'day' }, { at: '2026-09-01T01:00:00.000Z', precision: 'instant' }, 'Asia/Tokyo')).toBe(
      'invalid_at (1 Aug 2026) must be after valid_at (1 Sept 2026, 10:00), times in Asia/Tokyo',
    );
    // A year said in Tokyo reads as the screens show it in Los Angeles too.
    expect(endBeforeStartMessage('invalid_at', { at: '2024-06-01T07:00:00.000Z', precision: 'day' }, { at: '2024-12-31T15:00:00.000Z', precision: 'year' }, 'America/Los_Angeles')).toBe(
      'invalid_at (1 Jun 2024) must be after valid_at (2025), times in America/Los_Angeles',
    );
  });
});

describe('a form’s words for the message under a field', () => {
  const labels = { fact: 'Fact', valid_at: 'True from', invalid_at: 'True until' };
  it('drops the call and the raw field names, and uses the labels', () => {
    expect(fieldErrorText('editFact: invalid request: fact: must not be empty', 'fact', labels)).toBe('Fact: must not be empty');
    expect(fieldErrorText('valid_at: not a time: "blah"', 'valid_at', labels)).toBe('True from: not a time: "blah"');
    expect(fieldErrorText('invalid_at (1 Aug 2026) must be after valid_at (1 Sept 2026), times in Asia/Tokyo', 'invalid_at', labels)).toBe(
      'True until (1 Aug 2026) must be after true from (1 Sept 2026), times in Asia/Tokyo',
    );
    expect(fieldErrorText('something else went wrong', undefined, labels)).toBe('something else went wrong');
  });
});

describe('what a form keeps for a refused save', () => {
  const labels = { fact: 'Fact', valid_at: 'True from' };
  it('is the error in the form’s words, its kind and field kept', () => {
    const refused = new ApiError('invalid_request', 'editFact: invalid request: fact: must not be empty', { field: 'fact', detail: 'too_small' });
    const kept = inFormWords(refused, labels);
    expect(kept).toBeInstanceOf(ApiError);
    expect(kept).toMatchObject({ code: 'invalid_request', field: 'fact', detail: 'too_small', message: 'Fact: must not be empty', cause: refused });
    expect(readableError(kept)?.sentence).toBe('Fact: must not be empty');
  });

  it('says a busy refusal by its kind, not in the bridge’s words', () => {
    const kept = inFormWords(new ApiError('busy', 'too many calls at once (at most 64)'), labels);
    expect(readableError(kept)).toEqual({ sentence: 'Tempora is busy with other requests; try again in a moment.', details: null });
  });

  it('keeps anything else a call threw as an Error with its words', () => {
    const kept = inFormWords(new Error("Error invoking remote method 'editFact': Error: the valid_at was lost"), labels);
    expect(kept).not.toBeInstanceOf(ApiError);
    expect(kept.message).toBe('the true from was lost');
  });
});
