/**
 * `remember_facts` with two facts about one slot that disagree on cardinality (observe.ts
 * oneCardinalityPerSlot): a tool error naming both facts by their place in `facts` and the field,
 * and nothing changed — also while the user reviews before remembering (nothing is held). Driven by
 * the MCP SDK client over Streamable HTTP.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { openMcpSession } from '../fixtures/mcp-http-server';

let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, client, close } = await openMcpSession({ name: 'cardinality', timeZone: 'Asia/Tokyo' }));
});

afterAll(() => close?.());

const snapshot = () => {
  const { exported_at: _, ...rest } = engine.memory.transfer.export();
  return JSON.stringify([rest, engine.memory.review.pending()]);
};

async function refused(args: Record<string, unknown>): Promise<string> {
  const before = snapshot();
  const result = await client.callTool({ name: 'remember_facts', arguments: args });
  expect(result.isError).toBe(true);
  expect(snapshot()).toBe(before);
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

const tea = { subject: 'me', predicate: 'drinks', object: 'tea', object_type: 'literal', fact: 'I drink tea.' };
const sushi = { subject: 'me', predicate: 'likes', object: '寿司', object_type: 'literal', fact: '寿司が好き。' };
const ramen = { subject: 'me', predicate: 'likes', object: 'ramen', object_type: 'literal', fact: 'I like ramen.', cardinality: 'one' };
const WORDS =
  'facts[2].cardinality: "one", but facts[1] is about the same slot (me · likes) and gives none, so "many" (the default) — ' +
  'the observations of one slot in one write must agree: give both "one" (one value at a time) or both "many" (several at once)';

describe('remember_facts: one slot, two cardinalities', () => {
  it('is a tool error naming both facts and the field; nothing is remembered', async () => {
    expect(await refused({ facts: [tea, sushi, ramen], reference_time: '2026-09-01T10:00:00+09:00' })).toBe(WORDS);
    expect(engine.memory.facts.list({ history: true })).toEqual([]);
  });

  it('the same while review before remembering is on: nothing is held', async () => {
    engine.memory.review.setBeforeRemembering(true);
    try {
      expect(await refused({ facts: [tea, sushi, ramen] })).toBe(WORDS);
      expect(engine.memory.review.status()).toEqual({ reviewBeforeRemembering: true, waiting: 0 });
    } finally {
      engine.memory.review.setBeforeRemembering(false);
    }
  });
});
