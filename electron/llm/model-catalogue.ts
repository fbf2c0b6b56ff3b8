/**
 * Recommended models: a multilingual chat model per RAM tier (Japanese matters, so Qwen2.5 Instruct)
 * and multilingual embedding models, each with a download URI, size, checksum when known, the RAM it
 * needs with Tempora's default context, and a fit label for a given machine.
 *
 * Provenance: file names, sizes and SHA-256 values were read from the Hugging Face file pages of the
 * pinned revisions named in each URI (sizes there are rounded to three digits, hence `sizeIsExact:
 * false`). A pinned revision never changes, so its checksum can be verified after download; entries
 * without a pinned revision have `sha256: null` and are verified by size (Content-Length) only.
 */

export type CatalogueRole = 'chat' | 'embedding';
export type FitLabel = 'fits' | 'may_be_slow' | 'wont_fit';

export interface CatalogueModel {
  /** Stable id, used by `tempora models pull ID`. */
  id: string;
  name: string;
  role: CatalogueRole;
  /** https URL (pinned revision) or node-llama-cpp `hf:` URI. */
  uri: string;
  /** File name to save as. */
  fileName: string;
  /** Download size in bytes (best estimate unless sizeIsExact). */
  sizeBytes: number;
  sizeIsExact: boolean;
  sha256: string | null;
  /** Memory needed to run it: weights + KV cache at the default context + compute buffers. */
  ramBytes: number;
  contextLength: number;
  /** Embedding vector length (embedding models). */
  dimensions?: number;
  /** Text prefixes the embedding model was trained with (e5 style). */
  prefixes?: { query: string; document: string };
  notes: string;
  fitFor(totalRamBytes: number): FitLabel;
}

const GB = 1_000_000_000;
const MB = 1_000_000;

/**
 * 'wont_fit' above 80% of total RAM (the OS and the app need the rest), 'may_be_slow' above 50%
 * (it will load but compete for memory), otherwise 'fits'.
 */
export function fitLabel(ramBytes: number, totalRamBytes: number): FitLabel {
  if (ramBytes > totalRamBytes * 0.8) return 'wont_fit';
  if (ramBytes > totalRamBytes * 0.5) return 'may_be_slow';
  return 'fits';
}

function entry(data: Omit<CatalogueModel, 'fitFor'>): CatalogueModel {
  return Object.freeze({ ...data, fitFor: (totalRamBytes: number) => fitLabel(data.ramBytes, totalRamBytes) });
}

const QWEN_NOTE = 'Qwen2.5 Instruct: multilingual (29+ languages, good Japanese), reliable with JSON-schema grammars.';

/** Chat models from smallest to largest, then embedding models. */
export const MODEL_CATALOGUE: readonly CatalogueModel[] = Object.freeze([
  entry({
    id: 'qwen2.5-0.5b-instruct',
    name: 'Qwen2.5 0.5B Instruct (Q5_K_L)',
    role: 'chat',
    uri: 'https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/41ba88dbac95fed2528c92514c131d73eb5a174b/Qwen2.5-0.5B-Instruct-Q5_K_L.gguf',
    fileName: 'Qwen2.5-0.5B-Instruct-Q5_K_L.gguf',
    sizeBytes: 420 * MB,
    sizeIsExact: false,
    sha256: 'a0a413dcbb4676f21d4c951b98a393324694edb1a20a4f9547d1de8d2919ff3b',
    ramBytes: 0.8 * GB,
    contextLength: 32768,
    notes: `${QWEN_NOTE} For machines with 4 GB or less; extraction quality is limited.`,
  }),
  entry({
    id: 'qwen2.5-1.5b-instruct',
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    role: 'chat',
    uri: 'https://huggingface.co/bartowski/Qwen2.5-1.5B-Instruct-GGUF/resolve/85553858e3522ce5b531285b2202bdb40fab1624/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    fileName: 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    sizeBytes: 986 * MB,
    sizeIsExact: false,
    sha256: '50961d9b7d3b89e46be230528fc66d38bbdda8ac3748323dd34f129a714124fc',
    ramBytes: 1.5 * GB,
    contextLength: 32768,
    notes: `${QWEN_NOTE} For 4-8 GB machines.`,
  }),
  entry({
    id: 'qwen2.5-3b-instruct',
    name: 'Qwen2.5 3B Instruct (Q4_K_M)',
    role: 'chat',
    uri: 'https://huggingface.co/bartowski/Qwen2.5-3B-Instruct-GGUF/resolve/e118764d9e73c6ee4b87fe7a367df84a985a99fc/Qwen2.5-3B-Instruct-Q4_K_M.gguf',
    fileName: 'Qwen2.5-3B-Instruct-Q4_K_M.gguf',
    sizeBytes: 1930 * MB,
    sizeIsExact: false,
    sha256: '9c9f56a391a3abbd5b89d0245bf6106081bcc3173119d4229235dd9d23253f94',
    ramBytes: 2.6 * GB,
    contextLength: 32768,
    notes: `${QWEN_NOTE} For 8-12 GB machines. Qwen research licence (non-commercial).`,
  }),
  entry({
    id: 'qwen2.5-7b-instruct',
    name: 'Qwen2.5 7B Instruct (Q4_K_M)',
    role: 'chat',
    uri: 'https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF/resolve/215ad673efa530c712db83ff5e39263c5fc979f8/Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    fileName: 'Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    sizeBytes: 4680 * MB,
    sizeIsExact: false,
    sha256: 'c43b4d4fd23c0ef261e55f5ae2217d44ecbdc40f44cfd476491462a05f4205f2',
    ramBytes: 5.4 * GB,
    contextLength: 32768,
    notes: `${QWEN_NOTE} For 16 GB machines; the best quality/speed balance on CPU.`,
  }),
  entry({
    id: 'qwen2.5-14b-instruct',
    name: 'Qwen2.5 14B Instruct (Q4_K_M)',
    role: 'chat',
    uri: 'hf:bartowski/Qwen2.5-14B-Instruct-GGUF/Qwen2.5-14B-Instruct-Q4_K_M.gguf',
    fileName: 'Qwen2.5-14B-Instruct-Q4_K_M.gguf',
    sizeBytes: 8990 * MB,
    sizeIsExact: false,
    sha256: null,
    ramBytes: 10.2 * GB,
    contextLength: 32768,
    notes: `${QWEN_NOTE} For 32 GB machines or a GPU; slow on CPU alone. Revision not pinned, so no checksum.`,
  }),
  entry({
    id: 'multilingual-e5-small',
    name: 'multilingual-e5-small (Q8_0), 384 dimensions',
    role: 'embedding',
    uri: 'hf:TwinSunsLLC/multilingual-e5-small-gguf:Q8_0',
    fileName: 'multilingual-e5-small-Q8_0.gguf',
    sizeBytes: 130 * MB,
    sizeIsExact: false,
    sha256: null,
    ramBytes: 0.3 * GB,
    contextLength: 512,
    dimensions: 384,
    prefixes: { query: 'query: ', document: 'passage: ' },
    notes: 'Small, fast multilingual embeddings (94 languages incl. Japanese). Community GGUF conversion; revision not pinned, so no checksum.',
  }),
  entry({
    id: 'multilingual-e5-large',
    name: 'multilingual-e5-large (Q8_0), 1024 dimensions',
    role: 'embedding',
    uri: 'https://huggingface.co/soichisumi/multilingual-e5-large-Q8_0-GGUF/resolve/99ab4edc3b31333ae4dd5c3e2f2b4136a9a9688f/multilingual-e5-large-q8_0.gguf',
    fileName: 'multilingual-e5-large-q8_0.gguf',
    sizeBytes: 603 * MB,
    sizeIsExact: false,
    sha256: '6fc086a43fa9f9a766ee664312ecf2f301ff24c89f866c64936e5b4c5099b3be',
    ramBytes: 0.9 * GB,
    contextLength: 512,
    dimensions: 1024,
    prefixes: { query: 'query: ', document: 'passage: ' },
    notes: 'Higher-quality multilingual embeddings; about 5x slower than e5-small on CPU.',
  }),
]);

export interface EmbeddingPrefixes {
  query: string;
  document: string;
}

export const NO_PREFIXES: EmbeddingPrefixes = Object.freeze({ query: '', document: '' });
const E5_PREFIXES: EmbeddingPrefixes = Object.freeze({ query: 'query: ', document: 'passage: ' });

/**
 * The prefixes an embedding model file was trained with: its catalogue entry's (matched by file
 * name), else e5's for a file named like an e5 model ("multilingual-e5-small-q4.gguf"), else none.
 * e5 models embed "query: …" and "passage: …" texts; without them retrieval quality drops.
 */
export function embeddingPrefixesFor(fileName: string, catalogue: readonly CatalogueModel[] = MODEL_CATALOGUE): EmbeddingPrefixes {
  const name = fileName.toLowerCase();
  const known = catalogue.find((model) => model.role === 'embedding' && model.fileName.toLowerCase() === name);
  if (known) return known.prefixes ?? NO_PREFIXES;
  return /(^|[^a-z0-9])e5([^a-z0-9]|$)/.test(name) ? E5_PREFIXES : NO_PREFIXES;
}

export function findCatalogueModel(id: string): CatalogueModel | undefined {
  return MODEL_CATALOGUE.find((model) => model.id === id);
}

/** The catalogue with each model's fit label for a machine with `totalRamBytes` of RAM. */
export function catalogueFor(totalRamBytes: number): Array<{ model: CatalogueModel; fit: FitLabel }> {
  return MODEL_CATALOGUE.map((model) => ({ model, fit: model.fitFor(totalRamBytes) }));
}

/**
 * What to suggest on a machine: the largest chat model that fits (else the smallest that may be
 * slow, else none), and the smallest embedding model that fits.
 */
export function recommendedModels(totalRamBytes: number): { chat: CatalogueModel | null; embedding: CatalogueModel | null } {
  const chats = MODEL_CATALOGUE.filter((m) => m.role === 'chat');
  const fitting = chats.filter((m) => m.fitFor(totalRamBytes) === 'fits');
  const chat = fitting.at(-1) ?? chats.find((m) => m.fitFor(totalRamBytes) === 'may_be_slow') ?? null;
  const embedding = MODEL_CATALOGUE.find((m) => m.role === 'embedding' && m.fitFor(totalRamBytes) === 'fits') ?? null;
  return { chat, embedding };
}
