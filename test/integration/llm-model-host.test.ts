/**
 * The real node-llama-cpp over a tiny random-weights GGUF written at test time: loading, structured
 * calls, streaming with stop, embeddings, failed loads and the auto-load guard.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { disposeLlamaRuntime, getLlamaRuntime } from '../../electron/llm/llama-runtime';
import { ModelCallError, ModelLoadError } from '../../electron/llm/model-errors';
import { ModelHost } from '../../electron/llm/model-host';
import { ModelLoadState } from '../../electron/llm/model-load-state';
import { modelText, parseModelOutput } from '../../electron/llm/structured-output';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

// Extraction-shaped: enums and booleans, no numbers; every array and string bounded.
function extraction(minEntities = 0) {
  return z.strictObject({
    entities: z
      .array(z.strictObject({ name: modelText(24), type: z.enum(['person', 'place', 'organization', 'thing']), is_user: z.boolean() }))
      .min(minEntities)
      .max(3),
    facts: z.array(z.strictObject({ subject: modelText(24), predicate: modelText(24), cardinality: z.enum(['one', 'many']), ended: z.boolean() })).max(2),
  });
}
/** The problems the schema finds in a value (none when it conforms). */
function validateJson(value: unknown, schema: z.ZodType): string[] {
  const parsed = parseModelOutput(schema, value);
  return parsed.ok ? [] : parsed.problems;
}
const extractionSchema = extraction();

let dir: string;
let modelPath: string;
let statePath: string;
let host: ModelHost;
const timings: Record<string, number | number[]> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tempora-llm-host-'));
  modelPath = join(dir, 'tiny.gguf');
  statePath = join(dir, 'state', 'model-load-state.json');
  await writeTinyGguf(modelPath, { seed: 7 });
  host = new ModelHost({ statePath, runtime: { gpu: false } });
});

afterAll(async () => {
  await host?.dispose();
  await disposeLlamaRuntime();
  if (dir) await rm(dir, { recursive: true, force: true });
  console.info('[llm-model-host timings, ms]', JSON.stringify(timings));
});

describe('ModelHost over node-llama-cpp', () => {
  it('reports not_loaded before a model is loaded', async () => {
    expect(host.contextSize).toBe(0);
    expect(host.dimensions).toBe(0);
    await expect(host.completeJson({ prompt: 'x', schema: extractionSchema, maxTokens: 10 })).rejects.toMatchObject({ code: 'not_loaded' });
    await expect(host.embed(['x'])).rejects.toBeInstanceOf(ModelCallError);
  });

  it('loads the tiny model and records the success', async () => {
    const info = await host.loadChatModel(modelPath);
    timings.runtimeStartMs = Math.round((await getLlamaRuntime()).startMs);
    timings.chatLoadMs = Math.round(info.loadMs);
    expect(info).toMatchObject({ role: 'chat', architecture: 'llama', embeddingLength: 64, threads: 1, gpu: false });
    expect(host.contextSize).toBe(2048);
    expect(host.countTokens('hello world')).toBeGreaterThan(0);
    expect(host.lastLoadAttempt(modelPath)?.status).toBe('ok');
    expect(host.shouldAutoLoad(modelPath)).toBe(true);
    // loading the same file again is a no-op
    expect(await host.loadChatModel(modelPath)).toBe(info);
  });

  it('answers schema-valid JSON on every structured call, with token counts', async () => {
    const perCall: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const result = await host.completeJson({
        system: 'Extract entities and facts as JSON.',
        prompt: `Message ${i}: 上司は9月1日からAさんです。 My manager changed to B last week.`,
        schema: extractionSchema,
        maxTokens: 400,
        timeoutMs: 30_000,
      });
      perCall.push(Math.round(performance.now() - started));
      expect(validateJson(result.value, extractionSchema)).toEqual([]);
      expect(result.promptTokens).toBeGreaterThan(0);
      expect(result.completionTokens).toBeGreaterThan(0);
    }
    timings.completeJsonMs = perCall;
  });

  it('keeps generated strings, enums and booleans inside the schema when items are forced', async () => {
    const forced = extraction(2);
    const result = await host.completeJson({ prompt: '私の名前は田中です。', schema: forced, maxTokens: 400 });
    expect(validateJson(result.value, forced)).toEqual([]);
    const entities = (result.value as { entities: Array<{ name: string; type: string; is_user: boolean }> }).entities;
    expect(entities.length).toBeGreaterThanOrEqual(2);
    for (const entity of entities) {
      expect([...entity.name].length).toBeLessThanOrEqual(24);
      expect(typeof entity.is_user).toBe('boolean');
    }
  });

  it('runs structured calls in parallel up to the sequence count and beyond it', async () => {
    const results = await Promise.all(
      [0, 1, 2].map((i) => host.completeJson({ prompt: `parallel ${i}`, schema: extractionSchema, maxTokens: 400 })),
    );
    for (const result of results) expect(validateJson(result.value, extractionSchema)).toEqual([]);
  });

  it('fails cleanly on a prompt too long, maxTokens, timeout and cancellation', async () => {
    await expect(host.completeJson({ prompt: 'x'.repeat(5000), schema: extractionSchema, maxTokens: 400 })).rejects.toMatchObject({ code: 'prompt_too_long' });
    const cut = host.completeJson({ prompt: 'x', schema: extractionSchema, maxTokens: 3 });
    await expect(cut).rejects.toMatchObject({ code: 'invalid_output' });
    await expect(host.completeJson({ prompt: 'x', schema: extractionSchema, maxTokens: 400, timeoutMs: 1 })).rejects.toMatchObject({ code: 'timeout' });
    const controller = new AbortController();
    controller.abort();
    await expect(host.completeJson({ prompt: 'x', schema: extractionSchema, maxTokens: 400, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    // and the model still works afterwards
    const ok = await host.completeJson({ prompt: 'y', schema: extractionSchema, maxTokens: 400 });
    expect(validateJson(ok.value, extractionSchema)).toEqual([]);
  });

  it('streams chat tokens and stops mid-stream on abort, keeping the partial text', async () => {
    const chunks: string[] = [];
    let started = performance.now();
    const full = await host.streamChat([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'こんにちは' }], {
      onToken: (t) => chunks.push(t),
      maxTokens: 24,
    });
    timings.streamChat24TokensMs = Math.round(performance.now() - started);
    expect(chunks.length).toBeGreaterThan(1);
    expect(full.stopped).toBe(false);
    expect(full.completionTokens).toBeGreaterThan(1);
    expect(full.promptTokens).toBeGreaterThan(0);

    const controller = new AbortController();
    const seen: string[] = [];
    started = performance.now();
    const stopped = await host.streamChat([{ role: 'user', content: 'Tell me a long story.' }], {
      onToken: (t) => {
        seen.push(t);
        if (seen.length === 3) controller.abort();
      },
      signal: controller.signal,
      maxTokens: 500,
    });
    timings.streamChatStopMs = Math.round(performance.now() - started);
    expect(stopped.stopped).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThan(50);
    expect(stopped.text.length).toBeGreaterThan(0);
  });

  it('embeds with the same file loaded as the embedding model', async () => {
    const info = await host.loadEmbeddingModel(modelPath);
    timings.embeddingLoadMs = Math.round(info.loadMs);
    expect(host.dimensions).toBe(64);
    const started = performance.now();
    const [a, b, long] = await host.embed(['東京に住んでいる', 'I live in Osaka', 'long '.repeat(2000)]);
    timings.embed3Ms = Math.round(performance.now() - started);
    for (const v of [a!, b!, long!]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(64);
      const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
      expect(norm).toBeCloseTo(1, 4);
    }
    expect(Array.from(a!)).not.toEqual(Array.from(b!));
    // chat still works while both roles share the model
    const ok = await host.completeJson({ prompt: 'z', schema: extractionSchema, maxTokens: 400 });
    expect(validateJson(ok.value, extractionSchema)).toEqual([]);
  });

  it('refuses a truncated file with ModelLoadError, keeps the loaded model, and remembers the failure', async () => {
    const truncated = join(dir, 'truncated.gguf');
    const bytes = await readFile(modelPath);
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = await host.loadChatModel(truncated).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error).toMatchObject({ code: 'truncated' });
    expect((error as Error).message).toContain(truncated);
    expect(host.shouldAutoLoad(truncated)).toBe(false);
    expect(host.lastLoadAttempt(truncated)).toMatchObject({ status: 'failed', role: 'chat', error: { code: 'truncated' } });
    // a fresh state reader (the next app start) sees the same verdict
    expect(new ModelLoadState(statePath).shouldAutoLoad(truncated)).toBe(false);
    // the host stays usable with the model it had
    expect(host.chatModel?.path).toBe(modelPath);
    const ok = await host.completeJson({ prompt: 'still here', schema: extractionSchema, maxTokens: 400 });
    expect(validateJson(ok.value, extractionSchema)).toEqual([]);
    // replacing the file with a good one lifts the block
    await writeFile(truncated, bytes);
    expect(host.shouldAutoLoad(truncated)).toBe(true);
  });

  it('refuses missing and non-GGUF files, and a model too large for the memory budget', async () => {
    await expect(host.loadChatModel(join(dir, 'nope.gguf'))).rejects.toMatchObject({ code: 'missing' });
    const text = join(dir, 'notes.gguf');
    await writeFile(text, 'just some text, not a model');
    await expect(host.loadEmbeddingModel(text)).rejects.toMatchObject({ code: 'not_gguf' });
    expect(host.shouldAutoLoad(text)).toBe(false);
    const small = new ModelHost({ statePath: join(dir, 'small-state.json'), ramBudgetBytes: 1_000_000 });
    await expect(small.loadChatModel(modelPath)).rejects.toMatchObject({ code: 'too_large' });
    expect(small.shouldAutoLoad(modelPath)).toBe(false);
    await small.dispose();
  });

  it('treats an attempt that never finished (a crash during load) as a failure', () => {
    const state = new ModelLoadState(join(dir, 'crash-state.json'));
    state.recordLoading(modelPath, 'chat');
    expect(state.shouldAutoLoad(modelPath)).toBe(false);
  });

  it('unloading during a stream stops it, then calls report not_loaded until a reload', async () => {
    const seen: string[] = [];
    let unloading: Promise<void> | undefined;
    const stream = host.streamChat([{ role: 'user', content: 'go on' }], {
      onToken: (t) => {
        seen.push(t);
        if (seen.length === 2) unloading = host.unloadChatModel();
      },
      maxTokens: 500,
    });
    const result = await stream;
    await unloading;
    expect(result.stopped).toBe(true);
    expect(host.chatModel).toBeNull();
    expect(host.contextSize).toBe(0);
    await expect(host.completeJson({ prompt: 'x', schema: extractionSchema, maxTokens: 10 })).rejects.toMatchObject({ code: 'not_loaded' });
    // the embedding role keeps the shared model alive
    expect((await host.embed(['still embedding']))[0]!.length).toBe(64);
    await host.loadChatModel(modelPath);
    const ok = await host.completeJson({ prompt: 'back', schema: extractionSchema, maxTokens: 400 });
    expect(validateJson(ok.value, extractionSchema)).toEqual([]);
  });
});
