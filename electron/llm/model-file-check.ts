/**
 * Checks a model file before anything is loaded: it exists, is a GGUF file, is complete (every
 * tensor's bytes are inside the file), its architecture is supported, and it fits this machine's
 * memory (estimated with node-llama-cpp's GgufInsights). Every failure is a ModelLoadError whose
 * message names the file, so the app can show it and stay usable without a model.
 */
import { open, stat } from 'node:fs/promises';
import os from 'node:os';
import { resolve } from 'node:path';
import { GgufInsights, readGgufFileInfo, type GgufFileInfo, type Llama } from 'node-llama-cpp';
import { formatBytes } from '../../shared/format-bytes';
import { ModelLoadError } from './model-errors';

export { ModelLoadError } from './model-errors';

export interface CheckModelFileOptions {
  /** Reuse the process's binding for the estimates (otherwise a slim, backend-less one is used). */
  llama?: Llama;
  /** Memory the model and its context may use. Default: total RAM (+ total VRAM when a GPU is in use). */
  ramBudgetBytes?: number;
  /** Context size to estimate for. Default: defaultContextSize / defaultEmbeddingContextSize of the trained size. */
  contextSize?: number;
  /** Estimate an embedding context instead of a generation context. */
  embedding?: boolean;
}

export interface ModelFileReport {
  path: string;
  sizeBytes: number;
  architecture: string;
  name: string | null;
  trainContextSize: number | null;
  embeddingLength: number | null;
  /** The context size the estimate assumed. */
  contextSize: number;
  modelRamBytes: number;
  contextRamBytes: number;
  requiredRamBytes: number;
  ramBudgetBytes: number;
}

const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');

/** Chat context size Tempora uses by default: the trained size, capped at 4096 tokens. */
export function defaultContextSize(trainContextSize?: number | null): number {
  return Math.max(256, Math.min(trainContextSize || 4096, 4096));
}

/** Embedding context size by default: the trained size (512 for BERT-style models), capped at 1024. */
export function defaultEmbeddingContextSize(trainContextSize?: number | null): number {
  return Math.max(64, Math.min(trainContextSize || 512, 1024));
}

// [block size (elements), bytes per block] of the ggml types seen in GGUF files (ggml.c type_traits).
const GGML_TYPE_SIZES: Record<number, readonly [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66], 39: [32, 17],
};

/** Bytes the tensor data of this (first) file must span, or null when a tensor type is unknown. */
function expectedFileSize(info: GgufFileInfo): number | null {
  let end = info.infoEndOffset ?? info.metadataSize;
  for (const tensor of info.tensorInfo ?? []) {
    const sizes = GGML_TYPE_SIZES[tensor.ggmlType];
    if (!sizes) return null;
    const elements = tensor.dimensions.reduce<number>((product, dim) => product * Number(dim), 1);
    const bytes = Math.ceil(elements / sizes[0]) * sizes[1];
    end = Math.max(end, Number(tensor.fileOffset) + bytes);
  }
  return end;
}

async function readMagic(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buffer, 0, 4, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Throws ModelLoadError unless `path` is a complete GGUF model that fits in memory. */
export async function checkModelFile(path: string, options: CheckModelFileOptions = {}): Promise<ModelFileReport> {
  const file = resolve(path);
  const stats = await stat(file).catch(() => null);
  if (!stats) throw new ModelLoadError('missing', file, `Model file not found: ${file}`);
  if (!stats.isFile()) throw new ModelLoadError('not_gguf', file, `${file} is a directory or a special file, not a GGUF model file`);

  const magic = await readMagic(file);
  if (magic.length < 4) {
    const code = GGUF_MAGIC.subarray(0, magic.length).equals(magic) ? 'truncated' : 'not_gguf';
    throw new ModelLoadError(code, file, `${file} is ${stats.size} bytes long, too short to be a GGUF model${code === 'truncated' ? ' (truncated download?)' : ''}`);
  }
  if (!magic.equals(GGUF_MAGIC)) throw new ModelLoadError('not_gguf', file, `${file} is not a GGUF model file (it does not start with "GGUF")`);

  let info: GgufFileInfo;
  try {
    info = await readGgufFileInfo(file, { sourceType: 'filesystem', logWarnings: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelLoadError('truncated', file, `Could not read the GGUF header of ${file}; the file is truncated or corrupt (${reason})`, { cause: error });
  }
  const expected = expectedFileSize(info);
  if (expected !== null && stats.size < expected) {
    throw new ModelLoadError('truncated', file, `${file} is truncated: its tensors need ${expected} bytes but the file has ${stats.size} (${formatBytes(stats.size)} of ${formatBytes(expected)}). Download it again.`);
  }

  const insights = await GgufInsights.from(info, options.llama);
  const architecture = String(info.metadata.general?.architecture ?? 'unknown');
  if (!insights.isSupportedByLlamaCpp) {
    throw new ModelLoadError('load_failed', file, `${file} uses the "${architecture}" architecture, which this llama.cpp build does not support`);
  }

  const contextSize = options.contextSize ?? (options.embedding ? defaultEmbeddingContextSize : defaultContextSize)(insights.trainContextSize);
  const modelRamBytes = (await insights.estimateModelResourceRequirementsV2({ gpuLayers: 0 })).cpuRam;
  const contextRamBytes = (
    await insights.estimateContextResourceRequirementsV2({ contextSize, modelGpuLayers: 0, sequences: 1, isEmbeddingContext: options.embedding ?? false })
  ).cpuRam;
  const requiredRamBytes = modelRamBytes + contextRamBytes;
  let ramBudgetBytes = options.ramBudgetBytes;
  if (ramBudgetBytes === undefined) {
    ramBudgetBytes = os.totalmem();
    if (options.llama && options.llama.gpu !== false) ramBudgetBytes += (await options.llama.getVramState()).total;
  }
  if (requiredRamBytes > ramBudgetBytes) {
    throw new ModelLoadError(
      'too_large',
      file,
      `${file} is too large for this machine: it needs about ${formatBytes(requiredRamBytes)} ` +
        `(model ${formatBytes(modelRamBytes)} + context of ${contextSize} tokens ${formatBytes(contextRamBytes)}) ` +
        `but only ${formatBytes(ramBudgetBytes)} of memory is available. Choose a smaller model or quantisation.`,
    );
  }

  const name = info.metadata.general?.name;
  return {
    path: file,
    sizeBytes: stats.size,
    architecture,
    name: typeof name === 'string' ? name : null,
    trainContextSize: insights.trainContextSize ?? null,
    embeddingLength: insights.embeddingVectorSize ?? null,
    contextSize,
    modelRamBytes,
    contextRamBytes,
    requiredRamBytes,
    ramBudgetBytes,
  };
}
