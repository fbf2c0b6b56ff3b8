/**
 * The engine's vector side with a model's prefixes: stored items are embedded as "passage: …" and
 * questions as "query: …" (e5 models need both), and an index built without the prefix is rebuilt.
 * Real SQLite and LanceDB; the embedder is a deterministic stand-in that records what it is given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VectorService } from '../../electron/engine/vector-service';
import type { EmbeddingPrefixes } from '../../electron/llm/model-catalogue';
import { openMemory, type Memory } from '../../electron/memory/index';
import { recordingEmbedder as recordingEmbedderOf } from '../fixtures/recording-embedder';

const DIM = 8;

const recordingEmbedder = () => recordingEmbedderOf(DIM);

let dir: string;
let memory: Memory;
afterEach(() => {
  memory?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('vector service prefixes', () => {
  it('embeds stored items as passages and questions as queries, and rebuilds an index made without them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempora-vectors-'));
    memory = openMemory({ dataDir: join(dir, 'data') });
    memory.facts.observe([{ subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' }]);
    const path = join(dir, 'vectors');

    // first without prefixes (e.g. before this version)
    const plain = recordingEmbedder();
    const before = new VectorService(memory, plain, path, () => 'model.gguf:1');
    await before.attach();
    await before.sync();
    expect(plain.texts.length).toBeGreaterThan(0);
    expect(plain.texts.some((t) => t.startsWith('passage: '))).toBe(false);
    await before.close();

    const e5: EmbeddingPrefixes = { query: 'query: ', document: 'passage: ' };
    const embedder = recordingEmbedder();
    const service = new VectorService(memory, embedder, path, () => 'model.gguf:1', () => e5);
    await service.attach();
    await service.sync();
    // the old vectors were made from other texts: every item is embedded again, with the prefix
    expect(embedder.texts.length).toBe(plain.texts.length);
    expect(embedder.texts.every((t) => t.startsWith('passage: '))).toBe(true);
    expect(embedder.texts).toContain('passage: I live in Kyoto.');

    embedder.texts.length = 0;
    const fact = memory.facts.list()[0]!;
    // It says when the question has left this thread for the model (retrieve runs the text side then).
    const events: string[] = [];
    const ranked = service.ranker().rank('Where do I live?', 5, undefined, () => events.push(`away after ${embedder.texts.length} embedded`));
    events.push('rank returned');
    expect(await ranked).toContain(fact.id);
    expect(events).toEqual(['away after 1 embedded', 'rank returned']);
    expect(embedder.texts).toEqual(['query: Where do I live?']);
    await service.close();
  });
});
