/**
 * Fusion is never worse than its best part, with a real embedding model (issue 28, item 4): the
 * team's conversation set (eight two-person dialogues over two years, English and Japanese, 160
 * questions in five kinds) answered with full text alone and with the vector list of Google's
 * Universal Sentence Encoder (test/eval/sentence-encoder.ts: English only, from npm) fused in.
 * Hybrid must reach at least full text's recall for every kind at @5 and @10. A whole vote for the
 * vector list, or a vector list that cannot see a second hop, failed this (multi-hop 1.00 → 0.78).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runConversations } from '../eval/conversations/conversations-eval';
import { KINDS } from '../eval/conversations/questions';
import { loadSentenceEncoder } from '../eval/sentence-encoder';

beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'UTC');
  vi.stubEnv('LANCEDB_LOG', 'error');
});

describe('hybrid retrieval with a real sentence encoder', () => {
  it('is never below full text on the conversation set, for any kind, at @5 and @10', { timeout: 180_000 }, async () => {
    const encoder = await loadSentenceEncoder();
    const report = await runConversations(0, { vectors: { embed: (texts) => encoder.embed(texts), prefixes: { query: '', document: '' }, describe: encoder.describe } });
    const hybrid = report.hybrid!;
    expect(hybrid.results).toHaveLength(report.results.length);
    const below = KINDS.flatMap((kind) => [5, 10].flatMap((k) => ((hybrid.byKind[kind].recall[k] ?? 0) < (report.byKind[kind].recall[k] ?? 0) ? [`${kind} @${k}: hybrid ${hybrid.byKind[kind].recall[k]} < text ${report.byKind[kind].recall[k]}`] : [])));
    expect(below).toEqual([]);
    // The vectors were used: some question's ranking differs from full text's.
    expect(hybrid.results.some((r, i) => r.rankedIds.join() !== report.results[i]!.rankedIds.join())).toBe(true);
  });
});
