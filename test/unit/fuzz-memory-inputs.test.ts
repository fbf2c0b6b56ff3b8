/**
 * Fuzzing the memory's input edges with fast-check (issue 13): observation lines and import
 * documents (random values, and random mutations of valid ones), and the JSON position finder the
 * `import` command uses for syntax errors. One invariant: a clear error (MemoryInputError, naming a
 * field) or a valid result; on error the store is unchanged (export, minus exported_at); no crash.
 *
 * Bounded here (a few seconds, part of `npm test`); `node scripts/fuzz-long.mjs --runs N` runs the
 * same properties N times each (FUZZ_RUNS), and FUZZ_SEED replays a failure.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeJsonError, jsonErrorOffset, lineAndColumn } from '../../shared/json-position';
import { escapeControls, truncate } from '../../electron/cli/output';
import { MemoryInputError, openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import type { MemoryExport } from '../../shared/memory-schema';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || undefined;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (runs: number): fc.Parameters<unknown> => ({ numRuns: RUNS ?? runs, ...(SEED !== undefined ? { seed: SEED } : {}) });

function content(memory: Memory): unknown {
  const doc: Partial<MemoryExport> = memory.transfer.export();
  delete doc.exported_at;
  return doc;
}

/** Runs `fn` on `memory`: either it succeeds, or it throws a MemoryInputError with a message and the memory is as it was. */
function clearErrorOrResult<T>(memory: Memory, fn: () => T): { ok: true; value: T } | { ok: false; error: MemoryInputError } {
  const before = content(memory);
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (!(error instanceof MemoryInputError)) throw new Error(`not a clear error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.where.length).toBeGreaterThan(0);
    expect(content(memory)).toEqual(before);
    return { ok: false, error };
  }
}

const seedLines = [
  { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
  { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T10:00:00+09:00', valid_at: '9月15日', cardinality: 'one' },
  { subject: '田中さん', predicate: 'lives in', object: 'Kyoto', fact: '田中さんは京都に住んでいる。', reference_time: '2026-10-01T08:00:00Z', valid_at: 'last week' },
  { subject: 'me', predicate: 'likes', object: 'green tea', object_type: 'literal', fact: 'I like green tea.', reference_time: '2026-10-02T08:00:00Z', invalid_at: '2026-11-01' },
];

/** Text that looks like what the fields hold, and text that does not. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', 'me', '私', 'now', 'yesterday', '先週', '9月1日', '2026-02-30', '2026-09-01', '2026-09-01T10:00', '2026-09-01T10:00:00+09:00', '9999-12-31T23:59:59Z', '0000-01-01', 'one', 'many', 'entity', 'literal', '\u0000', '\u001b[2J', '\ud800'),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const anyValue = fc.oneof(text, fc.anything({ maxDepth: 2 }), fc.integer(), fc.double(), fc.constant(null), fc.constant(undefined));
const FIELDS = ['subject', 'predicate', 'object', 'object_type', 'fact', 'reference_time', 'valid_at', 'invalid_at', 'cardinality', 'conversation', 'extra'];

/** A valid line with a few fields replaced, removed or added. */
const mutatedLine = fc
  .tuple(fc.constantFrom(...seedLines), fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.option(anyValue, { nil: undefined })), { maxLength: 3 }))
  .map(([line, edits]) => {
    const out: Record<string, unknown> = { ...line };
    for (const [field, value] of edits) {
      if (value === undefined) delete out[field];
      else out[field] = value;
    }
    return out;
  });

describe('fuzz: observe', () => {
  let memory: Memory;
  beforeAll(() => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z') });
    memory.facts.observe(seedLines);
  });
  afterAll(() => memory.close());

  it('random lines: a clear error naming the line and field, or observations stored', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 4, arbitrary: mutatedLine }, { weight: 1, arbitrary: anyValue }), { minLength: 1, maxLength: 4 }), (lines) => {
        const result = clearErrorOrResult(memory, () => memory.facts.observe(lines, { where: 'fuzz.jsonl' }));
        if (result.ok) expect(result.value.observations).toBe(lines.length);
        else expect(result.error.message).toMatch(/^fuzz\.jsonl:\d+/);
      }),
      params(150),
    );
  });
});

/** Every path of a document down to its leaves (arrays by index). */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

type Mutation = { kind: 'set'; value: unknown } | { kind: 'delete' } | { kind: 'duplicate' } | { kind: 'swap'; with: number };

function mutate(doc: unknown, path: (string | number)[], mutation: Mutation, source: unknown, allPaths: (string | number)[][]): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  if (path.length === 0) return mutation.kind === 'set' ? mutation.value : copy;
  const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((at, key) => at[key] as Record<string | number, unknown>, copy);
  const key = path[path.length - 1]!;
  if (mutation.kind === 'set') parent[key] = mutation.value;
  else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (mutation.kind === 'duplicate') {
    if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
    else parent[key] = structuredClone(parent[key]);
  } else {
    // A value from elsewhere in the document (an id where another id was, a time where a name was).
    const other = allPaths[mutation.with % allPaths.length]!;
    parent[key] = structuredClone(other.reduce<unknown>((at, k) => (at as Record<string | number, unknown>)[k], source));
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  anyValue.map((value) => ({ kind: 'set' as const, value })),
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'duplicate' as const }),
  fc.nat().map((n) => ({ kind: 'swap' as const, with: n })),
);

describe('fuzz: import', () => {
  let valid: MemoryExport;
  let allPaths: (string | number)[][];
  beforeAll(() => {
    const source = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z') });
    source.facts.observe(seedLines);
    valid = source.transfer.export();
    source.close();
    allPaths = paths(valid);
  });

  it('random mutations of a valid export: a clear error naming the field, or imported; an empty store stays empty on error', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(), (edits, intoUsed, replace) => {
        let doc: unknown = valid;
        for (const [n, m] of edits) {
          const docPaths = paths(doc);
          doc = mutate(doc, docPaths[n % docPaths.length]!, m, valid, allPaths);
        }
        const memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z') });
        try {
          if (intoUsed) memory.facts.observe(seedLines.slice(0, 2));
          const result = clearErrorOrResult(memory, () => memory.transfer.import(doc, { replace }));
          // What was imported reads back as a valid export that imports again into an empty store.
          if (result.ok) {
            const again = openMemory({ dataDir: ':memory:' });
            try {
              again.transfer.import(memory.transfer.export());
            } finally {
              again.close();
            }
          }
        } finally {
          memory.close();
        }
      }),
      params(120),
    );
  });

  it('random values as a document: a clear error, never a crash', () => {
    const memory = openMemory({ dataDir: ':memory:' });
    try {
      fc.assert(
        fc.property(fc.oneof(anyValue, fc.record({ format: fc.constant('tempora.memory'), version: fc.constantFrom(1, 2, 3), facts: anyValue, entities: anyValue })), (doc) => {
          clearErrorOrResult(memory, () => memory.transfer.import(doc));
        }),
        params(100),
      );
    } finally {
      memory.close();
    }
  });
});

describe('fuzz: where a JSON text stops being JSON', () => {
  const jsonish = fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.json({ maxDepth: 3 }).chain((json) =>
      fc.tuple(fc.nat({ max: json.length }), fc.nat({ max: 3 }), fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'a', '1', '-', '.', 'e', 'n', 'u', '\u0001') , maxLength: 3 })).map(
        ([at, cut, insert]) => json.slice(0, at) + insert + json.slice(at + cut),
      ),
    ),
    fc.string({ maxLength: 20 }),
  );

  it('places a bad \\u escape where JSON.parse does: at its first character that is not a hex digit', () => {
    for (const text of ['["O\\uep=3"]', '"\\u12"', '"\\uZ000"', '"\\u00g0"']) {
      const v8 = (() => {
        try {
          JSON.parse(text);
          return null;
        } catch (e) {
          return Number(/at position (\d+)/.exec((e as Error).message)?.[1]);
        }
      })();
      expect(jsonErrorOffset(text)).toBe(v8);
    }
  });

  it('finds an error exactly when JSON.parse does, and says a line and column inside the text', () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        let parsed = true;
        let error: unknown;
        try {
          JSON.parse(text);
        } catch (e) {
          parsed = false;
          error = e;
        }
        const offset = jsonErrorOffset(text);
        if (parsed) {
          expect(offset).toBeNull();
          return;
        }
        expect(offset).not.toBeNull();
        expect(offset!).toBeLessThanOrEqual(text.length);
        // JSON.parse's own position, when it says one, is the same place.
        const v8 = /at position (\d+)/.exec((error as Error).message)?.[1];
        if (v8 !== undefined) expect(offset).toBe(Number(v8));
        const { line, column } = lineAndColumn(text, offset!);
        expect(describeJsonError(text, error)).toMatch(new RegExp(`^line ${line}, column ${column}: `));
      }),
      params(400),
    );
  });
});

describe('fuzz: stored text shown to people', () => {
  // eslint-disable-next-line no-control-regex
  const RAW = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

  it('escapeControls and table cells never pass a control character through, and --json text is untouched', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat({ max: 100 }), (value, max) => {
        expect(escapeControls(value)).not.toMatch(RAW);
        expect(truncate(value, max + 2)).not.toMatch(RAW);
        const withLines = escapeControls(value, { lines: true });
        expect(withLines.replace(/\n/g, '')).not.toMatch(RAW);
        // Nothing but control characters is changed.
        if (!RAW.test(value)) expect(escapeControls(value)).toBe(value);
      }),
      params(400),
    );
  });
});
