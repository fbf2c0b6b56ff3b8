import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkModelFile, defaultContextSize, defaultEmbeddingContextSize, ModelLoadError } from '../../electron/llm/model-file-check';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;
let modelPath: string;
let bytes: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tempora-llm-check-'));
  modelPath = join(dir, 'tiny.gguf');
  await writeTinyGguf(modelPath);
  bytes = await readFile(modelPath);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function failure(path: string, options?: Parameters<typeof checkModelFile>[1]): Promise<ModelLoadError> {
  const error = await checkModelFile(path, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelLoadError);
  return error as ModelLoadError;
}

describe('checkModelFile', () => {
  it('accepts the valid fixture and reports what it will need', async () => {
    const report = await checkModelFile(modelPath);
    expect(report).toMatchObject({
      path: modelPath,
      sizeBytes: bytes.length,
      architecture: 'llama',
      name: 'tempora-tiny',
      trainContextSize: 2048,
      embeddingLength: 64,
      contextSize: 2048,
    });
    expect(report.modelRamBytes).toBeGreaterThan(0);
    expect(report.contextRamBytes).toBeGreaterThan(0);
    expect(report.requiredRamBytes).toBe(report.modelRamBytes + report.contextRamBytes);
    const embedding = await checkModelFile(modelPath, { embedding: true });
    expect(embedding.contextSize).toBe(1024);
  });

  it('reports a missing file', async () => {
    const error = await failure(join(dir, 'missing.gguf'));
    expect(error.code).toBe('missing');
    expect(error.message).toContain('missing.gguf');
  });

  it('refuses a directory', async () => {
    const folder = join(dir, 'folder.gguf');
    await mkdir(folder);
    expect((await failure(folder)).code).toBe('not_gguf');
  });

  it('refuses a file that is not GGUF', async () => {
    const text = join(dir, 'notes.gguf');
    await writeFile(text, 'these are my notes, not a model');
    const error = await failure(text);
    expect(error.code).toBe('not_gguf');
    expect(error.path).toBe(text);
  });

  it('reports truncation anywhere in the file: header, metadata, tensor data, last byte', async () => {
    for (const length of [0, 3, 40, 2_000, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const path = join(dir, `truncated-${length}.gguf`);
      await writeFile(path, bytes.subarray(0, length));
      const error = await failure(path);
      expect(error.code, `cut at ${length} bytes`).toBe('truncated');
      expect(error.message).toContain(path);
    }
  });

  it('refuses a model that does not fit the memory budget, naming the file and the sizes', async () => {
    const error = await failure(modelPath, { ramBudgetBytes: 1_000_000 });
    expect(error.code).toBe('too_large');
    expect(error.message).toContain(modelPath);
    expect(error.message).toMatch(/needs about [\d.]+ MiB/);
    expect(error.message).toContain('976.6 KiB');
  });

  it('picks default context sizes from the trained size', () => {
    expect(defaultContextSize(32768)).toBe(4096);
    expect(defaultContextSize(2048)).toBe(2048);
    expect(defaultContextSize(undefined)).toBe(4096);
    expect(defaultEmbeddingContextSize(512)).toBe(512);
    expect(defaultEmbeddingContextSize(8192)).toBe(1024);
    expect(defaultEmbeddingContextSize(null)).toBe(512);
  });
});
