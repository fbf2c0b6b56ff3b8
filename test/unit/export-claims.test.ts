/**
 * Export format 3 carries the claims behind each live fact: the statements the rules resolve a slot
 * from. A moved memory then decides later messages as the original does; a version-2 document (no
 * claims) still imports, each live fact as one claim of itself; a claim that does not fit its
 * document is refused naming claims.N.field, and nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { isExportDocument } from '../../shared/export-check';
import { memoryExport, type MemoryExport } from '../../shared/memory-schema';
import type { IsoTime } from '../../shared/time';

function fresh(start: IsoTime = '2026-10-01T00:00:00.000Z'): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock(start, 1000) });
}

const said = (object: string, day: string, extra: Record<string, unknown> = {}) => ({
  subject: 'Sato',
  predicate: 'manager',
  object,
  fact: `Sato's manager is ${object} (${day}).`,
  reference_time: `2026-09-${day}T09:00:00Z`,
  valid_at: `2026-09-${day}T00:00:00Z`,
  cardinality: 'one',
  ...extra,
});

/** A store that heard A on 1 and 10 September: one live fact, two claims. */
function twice(): MemoryExport {
  const m = fresh();
  try {
    m.facts.observe([said('A', '01'), said('A', '10')]);
    return JSON.parse(JSON.stringify(m.transfer.export())) as MemoryExport;
  } finally {
    m.close();
  }
}

const asOf = (m: Memory, at: IsoTime) => m.facts.list({ asOf: at, subject: 'Sato', predicate: 'manager' }).map((f) => f.object);

describe('export format 3: the claims behind each live fact', () => {
  it('exports every claim of a merged fact, and both validators accept the document', () => {
    const doc = twice();
    const live = doc.facts.filter((f) => f.expired_at === null);
    expect(live).toHaveLength(1);
    expect(doc.claims.map((c) => [c.fact_id, c.object, c.valid_at, c.reference_time])).toEqual([
      [live[0]!.id, 'A', '2026-09-01T00:00:00.000Z', '2026-09-01T09:00:00.000Z'],
      [live[0]!.id, 'A', '2026-09-10T00:00:00.000Z', '2026-09-10T09:00:00.000Z'],
    ]);
    expect(new Set(doc.claims.flatMap((c) => c.episode_ids)).size).toBe(2);
    expect(memoryExport.safeParse(doc).success).toBe(true);
    expect(isExportDocument(doc)).toBe(true);
  });

  it('a moved memory resolves a later message as the original: A, B, A — not A, B', () => {
    const original = fresh();
    original.facts.observe([said('A', '01'), said('A', '10')]);
    const moved = fresh('2027-02-01T00:00:00.000Z');
    moved.transfer.import(twice());
    for (const m of [original, moved]) m.facts.observe([said('B', '05')]);
    for (const m of [original, moved]) {
      expect(asOf(m, '2026-09-07T00:00:00.000Z')).toEqual(['B']);
      expect(asOf(m, '2026-09-12T00:00:00.000Z')).toEqual(['A']);
    }
    const out = moved.transfer.export();
    expect(out.claims.length).toBe(original.transfer.export().claims.length);
    for (const m of [original, moved]) m.close();
  });

  it('round-trips: the claims of an imported store export as they came in', () => {
    const doc = twice();
    const copy = fresh();
    copy.transfer.import(structuredClone(doc));
    expect(JSON.parse(JSON.stringify(copy.transfer.export().claims))).toEqual(doc.claims);
    copy.close();
  });

  it('a version-2 document (no claims) imports each live fact as one claim of itself', () => {
    const { claims: _claims, ...rest } = twice();
    const v2 = { ...rest, version: 2 };
    expect(isExportDocument(v2)).toBe(true);
    const copy = fresh();
    copy.transfer.import(v2);
    const out = copy.transfer.export();
    const live = out.facts.filter((f) => f.expired_at === null);
    expect(out.version).toBe(3);
    expect(out.claims.map((c) => [c.fact_id, c.valid_at])).toEqual(live.map((f) => [f.id, f.valid_at]));
    copy.close();
    // A version-3 document must carry its claims (an empty list is fine), a version-2 one must not.
    expect(() => fresh().transfer.import({ ...rest, version: 3 })).toThrow(/claims/);
    expect(() => fresh().transfer.import({ ...twice(), version: 2 })).toThrow(/claims/);
  });

  it('refuses a claim that does not fit its document, naming the field, and writes nothing', () => {
    const doc = twice();
    const expired = doc.facts.find((f) => f.expired_at !== null);
    const cases: [string, (d: MemoryExport) => void, RegExp | string][] = [
      ['unknown fact', (d) => (d.claims[0]!.fact_id = 'fct_nowhere'), 'claim 1 (claims[0]) stands behind fact fct_nowhere, which this file does not hold: the file is incomplete or was edited'],
      ['another object', (d) => (d.claims[1]!.object = 'Z'), /claims\.1\.object: "Z" is not the object of fact/],
      ['an end without its precision', (d) => (d.claims[0]!.end_at = '2026-09-20T00:00:00.000Z'), /claims\.0\.end_precision: is missing/],
      ['an end before its start', (d) => Object.assign(d.claims[0]!, { end_at: '2026-08-20T00:00:00.000Z', end_precision: 'day', end_kind: 'explicit' }), /claims\.0\.end_at: must be after valid_at/],
      ['an explicit end at its start', (d) => Object.assign(d.claims[0]!, { end_at: d.claims[0]!.valid_at, end_precision: 'day', end_kind: 'explicit' }), /claims\.0\.end_at: must be after valid_at/],
      ['end_by without an end', (d) => (d.claims[0]!.end_by = d.facts[0]!.id), /claims\.0\.end_by: must be null when end_at is null/],
      ['an unknown ending fact', (d) => Object.assign(d.claims[0]!, { end_at: '2026-09-20T00:00:00.000Z', end_precision: 'day', end_kind: 'judged', end_by: 'fct_nowhere' }), /claims\.0\.end_by: unknown fact fct_nowhere/],
      ['an unknown episode', (d) => (d.claims[1]!.episode_ids = ['epi_nowhere']), /claims\.1\.episode_ids\.0: unknown episode epi_nowhere/],
      ['an unknown entity', (d) => (d.claims[0]!.object_id = 'ent_nowhere'), /claims\.0\.object_id: unknown entity ent_nowhere/],
      ['a bad kind of end', (d) => Object.assign(d.claims[0]!, { end_at: '2026-09-20T00:00:00.000Z', end_precision: 'day', end_kind: 'successor' }), /claims\.0\.end_kind/],
    ];
    if (expired) cases.push(['an old version', (d) => (d.claims[0]!.fact_id = expired.id), /^claim 1 \(claims\[0\]\) stands behind fact \w+, an old version of a fact \(replaced at [\d\-T:.Z]+\): only the facts held now have claims/]);
    for (const [what, change, message] of cases) {
      const bad = structuredClone(doc);
      change(bad);
      const m = fresh();
      expect(() => m.transfer.import(bad), what).toThrow(message);
      expect(m.transfer.export().facts, what).toEqual([]);
      m.close();
    }
  });

  it('carries each claim’s id, kept by an import unless the memory syncs and may have taken it back', () => {
    const doc = twice();
    const kept = new Set(doc.claims.map((c) => c.uid));
    expect(kept.size).toBe(2);
    for (const uid of kept) expect(uid).toMatch(/^[0-9a-f]{32}$/);
    const uids = (m: Memory) => m.transfer.export().claims.map((c) => c.uid);
    // into an empty memory, and into one in use that has never synced: kept
    const empty = fresh();
    empty.transfer.import(structuredClone(doc));
    expect(uids(empty)).toEqual(doc.claims.map((c) => c.uid));
    const inUse = fresh();
    inUse.facts.observe([said('C', '02', { subject: 'Ito' })]);
    inUse.transfer.import(structuredClone(doc));
    expect(uids(inUse).filter((u) => kept.has(u))).toHaveLength(2);
    // into one in use that already knows Sato: the claims about the stored Sato say something other
    // than the same ids say where Sato was not joined (an empty device keeps the document's Sato): new ones
    const knows = fresh();
    knows.facts.observe([said('C', '02')]);
    knows.transfer.import(structuredClone(doc));
    expect(uids(knows).filter((u) => kept.has(u))).toEqual([]);
    // the user is every memory's own (sync names it so): a claim about the user keeps its id
    const mine = fresh();
    mine.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-09-01T09:00:00Z' }]);
    const aboutMe = JSON.parse(JSON.stringify(mine.transfer.export())) as MemoryExport;
    const other = fresh();
    other.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: '2026-09-02T09:00:00Z' }]);
    other.transfer.import(aboutMe);
    expect(uids(other)).toContain(aboutMe.claims[0]!.uid);
    for (const m of [knows, mine, other]) m.close();
    // into one that syncs: new ones (it may have sent one of them as taken back)
    const syncing = fresh();
    syncing.facts.observe([said('C', '02', { subject: 'Ito' })]);
    syncing.sync.outgoing(1);
    syncing.transfer.import(structuredClone(doc));
    expect(uids(syncing).filter((u) => kept.has(u))).toEqual([]);
    // without ids (an older export) the claims import as before, each with a new one
    const bare = fresh();
    bare.transfer.import({ ...doc, claims: doc.claims.map(({ uid: _uid, ...c }) => c) });
    expect(uids(bare).filter((u) => kept.has(u))).toEqual([]);
    for (const m of [empty, inUse, syncing, bare]) m.close();
  });

  it('refuses a document whose two claims share an id, or whose id is not one, and writes nothing', () => {
    const doc = twice();
    const same = structuredClone(doc);
    same.claims[1]!.uid = same.claims[0]!.uid;
    const m = fresh();
    expect(() => m.transfer.import(same)).toThrow(/claims\.1\.uid: [0-9a-f]{32} is the id of an earlier claim too/);
    const malformed = structuredClone(doc);
    malformed.claims[0]!.uid = 'NOT-AN-ID';
    expect(isExportDocument(malformed)).toBe(false);
    expect(() => m.transfer.import(malformed)).toThrow(/claims\.0\.uid/);
    expect(m.transfer.export().facts).toEqual([]);
    m.close();
  });

  it('a judged end may meet its start (two values said for one instant)', () => {
    const doc = twice();
    const other = doc.facts.find((f) => f.expired_at === null)!;
    Object.assign(doc.claims[1]!, { end_at: doc.claims[1]!.valid_at, end_precision: 'day', end_kind: 'judged', end_by: other.id });
    const m = fresh();
    expect(() => m.transfer.import(doc)).not.toThrow();
    m.close();
  });
});
