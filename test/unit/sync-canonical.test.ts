/**
 * A record's id is the sha256 of its canonical JSON (electron/sync/segments.ts): every device, of
 * every version, must write the same text for the same record, or segments written before a change
 * would no longer match their ids. Pinned against the first release's text, on any JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, recordOf } from '../../electron/sync/segments';
import type { SyncBody } from '../../shared/sync-records';

/** canonical as the first release of sync wrote it (the reference any faster version must equal). */
function firstRelease(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => firstRelease(v) ?? '').join(',')}]`;
  const object = value as Record<string, unknown>;
  const members = Object.keys(object)
    .sort()
    .filter((key) => object[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${firstRelease(object[key])}`);
  return `{${members.join(',')}}`;
}

describe('canonical JSON', () => {
  it('writes what the first release wrote, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonical(value)).toBe(firstRelease(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('escapes keys and strings as JSON does, and leaves out undefined members', () => {
    expect(canonical({ 'a"b': 1, 'z\n': [1, 'x', null, { b: undefined, a: 'é' }], k: undefined })).toBe('{"a\\"b":1,"z\\n":[1,"x",null,{"a":"é"}]}');
  });

  it('gives records the ids they had when sync began', () => {
    // Computed by the first release of sync: segments on a target keep these ids for ever.
    const device = 'f'.repeat(32);
    const at = '2026-09-01T01:00:00.000Z';
    expect(recordOf(device, at, { kind: 'episode-forgotten', id: 'epi_1' }).id).toBe('47bd64ff99569c3642bd34681342d6711c2bb415c5f949f1192af1db711b10cd');
    const claim: SyncBody = {
      kind: 'claim',
      uid: 'a'.repeat(32),
      subject: { id: 'ent_1', name: 'Sato “Hiro”', type: 'person' },
      object: null,
      object_literal: 'Acme',
      predicate: 'works_at',
      fact: 'Sato works at Acme\nsince 2024',
      cardinality: 'one',
      valid_at: '2026-09-01T00:00:00.000Z',
      valid_at_precision: 'day',
      reference_time: at,
      end_at: null,
      end_precision: null,
      end_kind: null,
      episode_ids: ['epi_1', 'epi_2'],
      origin: 'observed',
    };
    expect(recordOf(device, at, claim).id).toBe('7e251652daa11cd7518a4ddf40b24f86d488efb5d6c55cf4c77c5b2a596cf2f0');
  });
});
