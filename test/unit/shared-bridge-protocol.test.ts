/**
 * shared/bridge-protocol.ts and shared/api-error.ts: the one description of the bridge's messages
 * and of the API's errors, as both ends read and write them.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, errorFromFailure, failure, valueOfOutcome } from '../../shared/api-error';
import { CLOSE, REFUSED_CLOSE_CODES, errorResult, parseCallMessage, parseServerMessage, resultMessage } from '../../shared/bridge-protocol';

const replyTo = (text: string) => {
  const parsed = parseCallMessage(text);
  if (parsed.ok) throw new Error(`parsed: ${text}`);
  return parsed.reply;
};

describe('a client frame', () => {
  it('is a call with an integer id, a known name and any request', () => {
    expect(parseCallMessage('{"type":"call","id":7,"name":"listFacts","request":{"limit":1}}')).toEqual({ ok: true, call: { type: 'call', id: 7, name: 'listFacts', request: { limit: 1 } } });
    expect(parseCallMessage('{"type":"call","id":-3,"name":"listEntities"}')).toEqual({ ok: true, call: { type: 'call', id: -3, name: 'listEntities' } });
  });

  it.each([
    ['not JSON', 'nope', /^not JSON: /],
    ['an array', '[1,2]', /^a message must be a JSON object/],
    ['null', 'null', /^a message must be a JSON object/],
    ['no id', '{"type":"call","name":"listFacts"}', /^id: must be an integer$/],
    ['a fractional id', '{"type":"call","id":1.5,"name":"listFacts"}', /^id: must be an integer$/],
    ['an id beyond the safe integers', `{"type":"call","id":${2 ** 60},"name":"listFacts"}`, /^id: must be an integer$/],
    ['a string id', '{"type":"call","id":"1","name":"listFacts"}', /^id: must be an integer$/],
  ])('without a readable id (%s) is answered with id null and no code', (_label, text, error) => {
    const reply = replyTo(text);
    expect(reply).toEqual({ type: 'result', id: null, ok: false, error: expect.stringMatching(error) });
  });

  it.each([
    ['another type', { type: 'subscribe', id: 1 }, 'type: must be "call", got "subscribe"', 'invalid_request'],
    ['no type', { id: 1, name: 'listFacts' }, 'type: must be "call", got nothing', 'invalid_request'],
    ['a name that is not a string', { type: 'call', id: 1, name: 7 }, 'name: must be the name of a call, got a number', 'invalid_request'],
    ['an unknown name', { type: 'call', id: 1, name: 'dropTables' }, 'unknown call "dropTables"', 'unknown_call'],
    ['a prototype name', { type: 'call', id: 1, name: 'toString' }, 'unknown call "toString"', 'unknown_call'],
    ['an unknown name and an extra field', { type: 'call', id: 1, name: 'dropTables', x: 1 }, 'unknown call "dropTables"', 'unknown_call'],
    ['an extra field', { type: 'call', id: 1, name: 'listFacts', extra: true }, 'unexpected field "extra" in the message', 'invalid_request'],
  ])('with a readable id but %s is answered for that id, in words, with a code', (_label, message, error, code) => {
    expect(replyTo(JSON.stringify(message))).toEqual({ type: 'result', id: 1, ok: false, error, code });
  });

  it('named __proto__ is an unknown call', () => {
    expect(replyTo('{"type":"call","id":2,"name":"__proto__"}')).toMatchObject({ id: 2, code: 'unknown_call', error: 'unknown call "__proto__"' });
  });
});

describe('a server frame', () => {
  it('is a result with its outcome, or an event that matches the contract', () => {
    const ok = resultMessage(1, { ok: true, value: [1] });
    expect(parseServerMessage(JSON.stringify(ok))).toEqual({ ok: true, message: ok });
    const bad = errorResult(2, new ApiError('invalid_request', 'listFacts: invalid request: asOf: bad', { field: 'asOf' }));
    expect(bad).toEqual({ type: 'result', id: 2, ok: false, error: 'listFacts: invalid request: asOf: bad', code: 'invalid_request', field: 'asOf' });
    expect(parseServerMessage(JSON.stringify(bad))).toEqual({ ok: true, message: bad });
    const frame = { type: 'result', id: null, ok: false, error: 'not JSON' };
    expect(parseServerMessage(JSON.stringify(frame))).toEqual({ ok: true, message: frame });
    const event = { type: 'event', event: { name: 'memoryChanged', payload: { reason: 'edit' } } };
    expect(parseServerMessage(JSON.stringify(event))).toEqual({ ok: true, message: event });
  });

  it('that breaks the protocol is refused, with the id it names when there is one', () => {
    expect(parseServerMessage(new ArrayBuffer(2))).toMatchObject({ ok: false, id: null });
    expect(parseServerMessage('{')).toMatchObject({ ok: false, id: null });
    expect(parseServerMessage(JSON.stringify({ type: 'result', id: 5, ok: false, error: 'x', code: 'no such code' }))).toMatchObject({ ok: false, id: 5 });
    expect(parseServerMessage(JSON.stringify({ type: 'event', event: { name: 'memoryChanged', payload: { reason: 42 } } }))).toMatchObject({ ok: false, id: null });
    expect(parseServerMessage(JSON.stringify({ type: 'event', event: { name: 'somethingElse', payload: {} } }))).toMatchObject({ ok: false });
  });
});

describe('close codes', () => {
  it('only the bad-token close means "refused": the others are worth reconnecting after', () => {
    expect([...REFUSED_CLOSE_CODES]).toEqual([CLOSE.badToken]);
    expect(CLOSE.badToken).toBe(4401);
  });
});

describe('errors on the wire', () => {
  it('round-trip with code, field and detail; absent parts stay absent', () => {
    const error = new ApiError('model', 'could not load', { detail: 'not_gguf' });
    const wire = failure(error);
    expect(wire).toEqual({ ok: false, error: 'could not load', code: 'model', detail: 'not_gguf' });
    expect(JSON.parse(JSON.stringify(wire))).toEqual(wire);
    const back = errorFromFailure(wire);
    expect(back).toBeInstanceOf(ApiError);
    expect(back).toBeInstanceOf(Error);
    expect(back.toData()).toEqual({ code: 'model', message: 'could not load', detail: 'not_gguf' });
  });

  it('valueOfOutcome gives the value, throws the failure, and refuses what is not an outcome', () => {
    expect(valueOfOutcome({ ok: true, value: 3 })).toBe(3);
    expect(() => valueOfOutcome({ ok: false, error: 'no', code: 'not_found', field: 'id' })).toThrow(expect.objectContaining({ code: 'not_found', field: 'id', message: 'no' }));
    expect(() => valueOfOutcome([1, 2])).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
