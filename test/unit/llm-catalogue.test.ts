import { describe, expect, it } from 'vitest';
import { catalogueFor, embeddingPrefixesFor, findCatalogueModel, fitLabel, MODEL_CATALOGUE, recommendedModels } from '../../electron/llm/model-catalogue';

const GB = 1_000_000_000;

describe('model catalogue', () => {
  it('has well-formed entries with unique ids', () => {
    const ids = new Set<string>();
    for (const model of MODEL_CATALOGUE) {
      expect(ids.has(model.id)).toBe(false);
      ids.add(model.id);
      expect(model.name.length).toBeGreaterThan(0);
      expect(model.uri).toMatch(/^(hf:|https:\/\/)/);
      expect(model.fileName).toMatch(/\.gguf$/);
      expect(model.sizeBytes).toBeGreaterThan(10_000_000);
      expect(model.ramBytes).toBeGreaterThanOrEqual(model.sizeBytes);
      expect(model.contextLength).toBeGreaterThan(0);
      if (model.sha256 !== null) {
        expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
        // A checksum only makes sense for a pinned revision of exactly that file.
        expect(model.uri).toMatch(/\/resolve\/[0-9a-f]{40}\//);
        expect(model.uri.endsWith(`/${model.fileName}`)).toBe(true);
      }
      if (model.role === 'embedding') expect(model.dimensions).toBeGreaterThan(0);
    }
  });

  it('offers chat models across RAM tiers, smallest first, and a 384-dimension embedding model', () => {
    const chats = MODEL_CATALOGUE.filter((m) => m.role === 'chat');
    expect(chats.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < chats.length; i++) expect(chats[i]!.ramBytes).toBeGreaterThan(chats[i - 1]!.ramBytes);
    expect(chats[0]!.ramBytes).toBeLessThanOrEqual(1 * GB);
    expect(chats.at(-1)!.ramBytes).toBeGreaterThan(8 * GB);
    const embeddings = MODEL_CATALOGUE.filter((m) => m.role === 'embedding');
    expect(embeddings.some((m) => m.dimensions === 384)).toBe(true);
    expect(findCatalogueModel('qwen2.5-7b-instruct')?.role).toBe('chat');
    expect(findCatalogueModel('nope')).toBeUndefined();
  });

  it('labels fit by share of total RAM: fits up to 50%, may be slow up to 80%, then won’t fit', () => {
    expect(fitLabel(4 * GB, 8 * GB)).toBe('fits');
    expect(fitLabel(4 * GB + 1, 8 * GB)).toBe('may_be_slow');
    expect(fitLabel(6.4 * GB, 8 * GB)).toBe('may_be_slow');
    expect(fitLabel(6.4 * GB + 1, 8 * GB)).toBe('wont_fit');
    const seven = findCatalogueModel('qwen2.5-7b-instruct')!;
    expect(seven.fitFor(4 * GB)).toBe('wont_fit');
    expect(seven.fitFor(8 * GB)).toBe('may_be_slow');
    expect(seven.fitFor(16 * GB)).toBe('fits');
  });

  it('labels the whole catalogue for a machine', () => {
    const labelled = catalogueFor(8 * GB);
    expect(labelled).toHaveLength(MODEL_CATALOGUE.length);
    expect(labelled.find((l) => l.model.id === 'qwen2.5-0.5b-instruct')?.fit).toBe('fits');
    expect(labelled.find((l) => l.model.id === 'qwen2.5-14b-instruct')?.fit).toBe('wont_fit');
  });

  it('recommends the largest chat model that fits and a small embedding model', () => {
    expect(recommendedModels(2 * GB).chat?.id).toBe('qwen2.5-0.5b-instruct');
    expect(recommendedModels(4 * GB).chat?.id).toBe('qwen2.5-1.5b-instruct');
    expect(recommendedModels(8 * GB).chat?.id).toBe('qwen2.5-3b-instruct');
    expect(recommendedModels(16 * GB).chat?.id).toBe('qwen2.5-7b-instruct');
    expect(recommendedModels(64 * GB).chat?.id).toBe('qwen2.5-14b-instruct');
    // nothing fits comfortably: the smallest that loads at all
    expect(recommendedModels(1.2 * GB).chat?.id).toBe('qwen2.5-0.5b-instruct');
    expect(recommendedModels(0.5 * GB).chat).toBeNull();
    expect(recommendedModels(8 * GB).embedding?.dimensions).toBe(384);
  });

  it("knows the query/passage prefixes of e5 embedding files, by catalogue entry or by name", () => {
    const e5 = { query: 'query: ', document: 'passage: ' };
    expect(embeddingPrefixesFor('multilingual-e5-small-Q8_0.gguf')).toEqual(e5);
    expect(embeddingPrefixesFor('MULTILINGUAL-E5-LARGE-Q8_0.GGUF')).toEqual(e5);
    expect(embeddingPrefixesFor('multilingual-e5-base-q4_k_m.gguf')).toEqual(e5);
    expect(embeddingPrefixesFor('e5.gguf')).toEqual(e5);
    expect(embeddingPrefixesFor('nomic-embed-text-v1.5.Q8_0.gguf')).toEqual({ query: '', document: '' });
    expect(embeddingPrefixesFor('tiny.gguf')).toEqual({ query: '', document: '' });
    expect(embeddingPrefixesFor('model-be5x.gguf')).toEqual({ query: '', document: '' });
    // a catalogue entry decides for its own file, whatever its name says
    const plain = { ...findCatalogueModel('multilingual-e5-small')!, fileName: 'my-e5.gguf', prefixes: undefined };
    expect(embeddingPrefixesFor('my-e5.gguf', [plain])).toEqual({ query: '', document: '' });
  });
});
