/**
 * electron/server/call-dispatch.ts and electron/engine/api-errors.ts: a connection's calls run at
 * most MAX_CALLS_IN_FLIGHT at once, each result carries its outcome, and what a handler throws
 * becomes the API's error shape.
 */
import { describe, expect, it } from 'vitest';
import { apiCalls, type ApiCallName } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import type { ResultMessage } from '../../shared/bridge-protocol';
import type { ApiHandlers } from '../../electron/engine/api-handlers';
import { outcomeOf, toApiError } from '../../electron/engine/api-errors';
import { ModelDownloadError } from '../../electron/llm/model-download';
import { ModelCallError, ModelLoadError } from '../../electron/llm/model-errors';
import { MemoryInputError } from '../../electron/memory/index';
import { CallDispatcher, MAX_CALLS_IN_FLIGHT } from '../../electron/server/call-dispatch';

function handlersWith(listEntities: () => Promise<unknown>): ApiHandlers {
  const entries = (Object.keys(apiCalls) as ApiCallName[]).map((name) => [name, name === 'listEntities' ? listEntities : async () => Promise.reject(new Error('not in this test'))]);
  return Object.fromEntries(entries) as ApiHandlers;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CallDispatcher', () => {
  it('answers each call by its id, and a call over the in-flight limit with busy', async () => {
    const release: Array<() => void> = [];
    const replies: ResultMessage[] = [];
    const dispatcher = new CallDispatcher(
      handlersWith(() => new Promise((resolve) => release.push(() => resolve([])))),
      (message) => replies.push(message),
    );
    for (let id = 1; id <= MAX_CALLS_IN_FLIGHT + 1; id++) dispatcher.dispatch({ type: 'call', id, name: 'listEntities', request: {} });
    await settle();
    expect(replies).toEqual([{ type: 'result', id: MAX_CALLS_IN_FLIGHT + 1, ok: false, code: 'busy', error: `too many calls at once (at most ${MAX_CALLS_IN_FLIGHT})` }]);
    release.shift()!();
    await settle();
    expect(replies[1]).toEqual({ type: 'result', id: 1, ok: true, value: [] });
    dispatcher.dispatch({ type: 'call', id: 100, name: 'listEntities', request: {} }); // a slot is free again
    await settle();
    expect(replies).toHaveLength(2);
    for (const done of release.splice(0)) done();
    await settle();
    expect(replies.filter((r) => r.ok)).toHaveLength(MAX_CALLS_IN_FLIGHT + 1);
  });

  it('sends a failing call’s error with its code and field', async () => {
    const replies: ResultMessage[] = [];
    const dispatcher = new CallDispatcher(
      handlersWith(async () => Promise.reject(new MemoryInputError('no entity named "x"', 'entity', 'not_found'))),
      (message) => replies.push(message),
    );
    dispatcher.dispatch({ type: 'call', id: 1, name: 'listEntities', request: {} });
    dispatcher.dispatch({ type: 'call', id: 2, name: 'listEntities', request: { all: true } });
    await settle();
    expect(replies).toEqual(
      expect.arrayContaining([
        { type: 'result', id: 1, ok: false, code: 'not_found', field: 'entity', error: 'no entity named "x"' },
        { type: 'result', id: 2, ok: false, code: 'invalid_request', field: 'all', error: expect.stringMatching(/^listEntities: invalid request: /) },
      ]),
    );
  });
});

describe('toApiError', () => {
  it.each([
    [new ApiError('busy', 'wait', { field: 'x' }), { code: 'busy', message: 'wait', field: 'x' }],
    [new MemoryInputError('title must be 1 to 500 characters', 'title'), { code: 'invalid_input', message: 'title must be 1 to 500 characters', field: 'title' }],
    [new ModelLoadError('missing', '/m.gguf', 'Model file not found: /m.gguf'), { code: 'model', message: 'Model file not found: /m.gguf', detail: 'missing' }],
    [new ModelCallError('timeout', 'the model took too long'), { code: 'model', message: 'the model took too long', detail: 'timeout' }],
    // The Models screen tells a cancelled download by this detail, never by its words.
    [new ModelDownloadError('cancelled', 'Download of cancel-notes.gguf was cancelled'), { code: 'model', message: 'Download of cancel-notes.gguf was cancelled', detail: 'cancelled' }],
    [new ModelDownloadError('checksum_mismatch', 'checksum mismatch'), { code: 'model', message: 'checksum mismatch', detail: 'checksum_mismatch' }],
    [new RangeError('out of range'), { code: 'internal', message: 'out of range' }],
    [new Error(''), { code: 'internal', message: 'the call failed' }],
    ['a string', { code: 'internal', message: 'a string' }],
  ])('turns %o into %j', (thrown, shape) => {
    expect(toApiError(thrown)).toEqual(shape);
  });

  it('outcomeOf never rejects', async () => {
    await expect(outcomeOf(async () => 1)).resolves.toEqual({ ok: true, value: 1 });
    await expect(outcomeOf(async () => Promise.reject(new MemoryInputError('bad', 'at')))).resolves.toEqual({ ok: false, code: 'invalid_input', field: 'at', error: 'bad' });
  });
});
