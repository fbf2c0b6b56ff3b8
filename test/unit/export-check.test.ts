/**
 * The fast export check (shared/export-check.ts) must say exactly what the zod schema says: the
 * import trusts its yes without asking zod. Valid documents come from a real memory's export and
 * from the synthetic memory; then random changes (a field replaced, removed or added, anywhere)
 * must be judged the same way by both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { parseExport } from '../../electron/memory/transfer/memory-import';
import { isExportDocument } from '../../shared/export-check';
import { memoryExport } from '../../shared/memory-schema';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';

function realExport(): unknown {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  m.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
    { subject: '佐藤さん', predicate: '担当', object: '経理', fact: '佐藤さんは経理を担当しています。', reference_time: '2026-09-02T00:00:00Z' },
  ]);
  m.messages.append({ role: 'user', content: 'hello', time: '2026-09-03T00:00:00Z', conversation: 'c1', learn: false });
  m.facts.edit(m.facts.list({ subject: 'me', predicate: 'manager' })[0]!.id, { fact: 'B is my manager.' });
  return JSON.parse(JSON.stringify(m.transfer.export()));
}

/** A real export whose conversation and a message came from an imported chat history (their optional `source`), half learned. */
function withSources(): unknown {
  const doc = realExport() as { conversations: Record<string, unknown>[]; episodes: Record<string, unknown>[] };
  doc.conversations[0]!.source = { kind: 'chatgpt', id: 'conv-123' };
  doc.conversations[0]!.learn = false;
  doc.episodes[0]!.source = { kind: 'claude', conversation_id: 'c-1', message_id: 'm-1' };
  // Messages still to be learned where it was exported, and one whose learning the user cancelled.
  doc.episodes[0]!.learned = false;
  doc.episodes[1]!.learned = 'cancelled';
  return doc;
}

const documents = [realExport(), withSources(), JSON.parse(JSON.stringify(syntheticExport(generateSyntheticMemory({ observations: 40 }), 40)))] as Record<string, unknown>[];

const zodSays = (doc: unknown) => memoryExport.safeParse(doc).success;

/** Values a field may be changed to: wrong types, bounds, enums, times, and right ones. */
const replacement = fc.constantFrom<unknown>(
  null, undefined, '', 'x', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(501), 'x'.repeat(4001), 0, 1, 2, true, [], ['x'], [''], {}, { id: 'x' },
  'yesterday', '2026-09-01T00:00:00Z', '2026-02-30T00:00:00.000Z', '2026-09-01T00:00:00.000Z', '0050-01-01T00:00:00.000Z',
  'one', 'many', 'user', 'person', 'assistant', 'import', 'tempora.memory', 'ent_1', ['2026-09-01T00:00:00.000Z'], 'chatgpt', 'claude',
  { kind: 'chatgpt', id: 'x' }, { kind: 'claude', conversation_id: 'c', message_id: 'm' }, false, 'cancelled',
);

type Change = { path: (string | number)[]; kind: 'set' | 'delete' | 'add'; value: unknown };

/** A random place in the document (a container and a key in it), reached by a list of choices. */
function place(doc: unknown, choices: number[]): { parent: Record<string, unknown> | unknown[]; key: string | number } | null {
  let parent: unknown = null;
  let key: string | number | null = null;
  let node: unknown = doc;
  for (const choice of choices) {
    if (node === null || typeof node !== 'object') break;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node;
    key = keys[choice % keys.length]!;
    node = (node as Record<string | number, unknown>)[key];
  }
  return parent === null || key === null ? null : { parent: parent as Record<string, unknown>, key };
}

function changed(doc: unknown, choices: number[], kind: Change['kind'], value: unknown): unknown {
  const copy = structuredClone(doc);
  const at = place(copy, choices);
  if (!at) return copy;
  const parent = at.parent as Record<string | number, unknown>;
  if (kind === 'set') parent[at.key] = value;
  else if (kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(at.key as number, 1);
    else delete parent[at.key];
  } else if (!Array.isArray(parent)) parent[`extra_${String(at.key)}`] = value;
  else parent.push(value);
  return copy;
}

/** Every path into the first two records of each list (and into their arrays), to aim changes at. */
function paths(doc: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    out.push(path);
    if (node === null || typeof node !== 'object') return;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.slice(0, 2).map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, value] of entries) walk(value, [...path, key]);
  };
  walk(doc, []);
  return out.filter((p) => p.length > 0);
}

function changedAt(doc: unknown, path: (string | number)[], kind: Change['kind'], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (kind === 'set') parent[key] = value;
  else if (kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (Array.isArray(parent)) parent.push(value);
  else parent[`extra_${String(key)}`] = value;
  return copy;
}

describe('fast export check', () => {
  it('accepts the documents the schema accepts, and parseExport returns them as they are', () => {
    for (const doc of documents) {
      expect(zodSays(doc)).toBe(true);
      expect(isExportDocument(doc)).toBe(true);
      expect(parseExport(doc)).toBe(doc);
    }
  });

  it('agrees with the schema on every changed document (a field replaced, removed or added anywhere)', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom<Change['kind']>('set', 'set', 'set', 'delete', 'add'),
        replacement,
        (which, choices, kind, value) => {
          const doc = changed(documents[which], choices, kind, value);
          const fast = isExportDocument(doc);
          expect(fast).toBe(zodSays(doc));
          if (!fast) refused++;
        },
      ),
      { numRuns: 2000 },
    );
    // the changes above mostly break the document: both sides had plenty to refuse
    expect(refused).toBeGreaterThan(1000);
  });

  it('agrees with the schema on a change aimed at each field of each kind of record, and at array items', () => {
    const targets = documents.flatMap((doc, which) => paths(doc).map((path) => ({ which, path })));
    expect(targets.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(fc.constantFrom(...targets), fc.constantFrom<Change['kind']>('set', 'set', 'set', 'delete', 'add'), replacement, ({ which, path }, kind, value) => {
        const doc = changedAt(documents[which], path, kind, value);
        expect(isExportDocument(doc)).toBe(zodSays(doc));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is not a document at all', () => {
    for (const value of [null, undefined, 42, 'x', [], {}, { format: 'tempora.memory' }]) {
      expect(isExportDocument(value)).toBe(false);
      expect(zodSays(value)).toBe(false);
    }
    const withProto = JSON.parse(`{"__proto__": {}, ${JSON.stringify(documents[0]).slice(1)}`) as unknown;
    expect(isExportDocument(withProto)).toBe(zodSays(withProto));
  });
});
