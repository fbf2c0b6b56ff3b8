/**
 * A fact's history you can read: the diff of consecutive versions (pure, shared/fact-history.ts)
 * and why each version exists, from the cause its write recorded (real SQLite, the real rules).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeChange, describeReason, diffVersions, versionChanges } from '../../shared/fact-history';
import type { FactRecord } from '../../shared/memory-schema';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';

const base: FactRecord = {
  id: 'fct_1',
  subject_id: 'ent_me',
  subject: 'me',
  predicate: 'manager',
  object_id: 'ent_a',
  object: 'A',
  fact: 'My manager is A.',
  cardinality: 'one',
  valid_at: '2026-09-01T00:00:00.000Z',
  valid_at_precision: 'day',
  invalid_at: null,
  invalid_at_precision: null,
  created_at: '2026-09-01T00:00:00.000Z',
  expired_at: '2026-09-15T00:00:00.000Z',
  episode_ids: ['epi_1'],
  invalidated_by: null,
  supersedes: null,
  origin: 'extracted',
};
const tokyo = { timeZone: 'Asia/Tokyo', locale: 'en-GB' };

describe('diffVersions', () => {
  it('names each changed field with before and after, times at their precision in the zone', () => {
    const after: FactRecord = { ...base, id: 'fct_2', supersedes: 'fct_1', invalid_at: '2026-09-14T15:00:00.000Z', invalid_at_precision: 'day', episode_ids: ['epi_1', 'epi_2'], object: 'A-san' };
    const changes = diffVersions(base, after);
    expect(changes.map((c) => describeChange(c, tokyo))).toEqual(['value: “A” → “A-san”', 'true until: still true → 15 Sept 2026', 'sources: +1 message']);
  });

  it('sees a change of precision alone, and nothing between equal versions', () => {
    expect(diffVersions(base, { ...base, id: 'x' })).toEqual([]);
    const month = diffVersions(base, { ...base, valid_at_precision: 'month' });
    expect(month.map((c) => describeChange(c, { timeZone: 'UTC', locale: 'en-GB' }))).toEqual(['true from: 1 Sept 2026 → September 2026']);
  });
});

describe('versionChanges', () => {
  it('follows supersedes, and reads the why from the cause and the fields', () => {
    const closed: FactRecord = { ...base, id: 'fct_2', supersedes: 'fct_1', invalid_at: '2026-09-15T00:00:00.000Z', invalid_at_precision: 'instant', invalidated_by: 'fct_b' };
    const edited: FactRecord = { ...closed, id: 'fct_3', supersedes: 'fct_2', fact: 'My manager was A.', origin: 'user_edit' };
    const history = versionChanges([base, closed, edited], { fct_1: { kind: 'learned', episode: 'epi_1' }, fct_2: { kind: 'learned', episode: 'epi_2' }, fct_3: { kind: 'edit', fact: 'fct_2' } });
    expect(history.map((h) => [h.id, h.previous, describeReason(h.reason)])).toEqual([
      ['fct_1', null, { text: 'learned from a message', link: { kind: 'message', id: 'epi_1' } }],
      ['fct_2', 'fct_1', { text: 'closed by another fact', link: { kind: 'fact', id: 'fct_b' } }],
      ['fct_3', 'fct_2', { text: 'your edit', link: null }],
    ]);
  });

  it('without a recorded cause falls back on the origin (imported, older stores)', () => {
    const imported: FactRecord = { ...base, id: 'fct_2', supersedes: 'fct_1', origin: 'import', fact: 'Manager: A' };
    expect(versionChanges([base, imported], {}).map((h) => describeReason(h.reason).text)).toEqual(['learned from a message', 'imported']);
  });
});

describe('causes recorded by the memory', () => {
  let memory: Memory;
  beforeEach(() => {
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
  });
  afterEach(() => {
    memory.close();
    vi.unstubAllEnvs();
  });

  const observe = (object: string, at: string) =>
    memory.facts.observe([{ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: at, cardinality: 'one' }]);

  it('says your edit, closed by fact B, and re-resolved because B was edited', () => {
    observe('A', '2026-09-01T00:00:00Z');
    const a = memory.facts.list()[0]!;
    memory.facts.edit(a.id, { fact: 'My manager is A-san.' });
    observe('B', '2026-09-15T00:00:00Z');
    const b = memory.facts.list()[0]!;
    memory.facts.edit(b.id, { valid_at: '2026-09-20T00:00:00.000Z' });

    const { versions, causes } = memory.facts.provenance(a.id);
    const reasons = versionChanges(versions, causes).map((h) => {
      const r = describeReason(h.reason);
      return [r.text, r.link?.kind ?? null, h.changes.map((c) => describeChange(c, { timeZone: 'UTC', locale: 'en-GB' }))];
    });
    expect(reasons).toEqual([
      ['observed (structured input)', 'message', []],
      ['your edit', null, ['sentence: “My manager is A.” → “My manager is A-san.”']],
      ['closed by another fact', 'fact', ['true until: still true → 15 Sept 2026']],
      ['re-resolved because another fact was edited', 'fact', ['true until: 15 Sept 2026 → 20 Sept 2026']],
    ]);
    const last = versionChanges(versions, causes).at(-1)!;
    expect(last.reason).toEqual({ kind: 'reresolved_edit', fact: b.id });
  });

  describe('an end given past the next value', () => {
    const utc = { timeZone: 'UTC', locale: 'en-GB' };
    const lastChange = (id: string) => {
      const { versions, causes } = memory.facts.provenance(id);
      const change = versionChanges(versions, causes).at(-1)!;
      return { reason: describeReason(change.reason).text, changes: change.changes.map((c) => describeChange(c, utc)) };
    };

    it('is said on the version the edit wrote, and the page knows the kept end; removing it is said too', () => {
      observe('A', '2026-09-01T00:00:00Z');
      observe('B', '2026-09-15T00:00:00Z');
      const a = memory.facts.list({ history: true }).find((f) => f.object === 'A' && f.expired_at === null)!;
      const edited = memory.facts.edit(a.id, { invalid_at: '2026-10-01T00:00:00.000Z', invalid_at_precision: 'day' });
      expect(edited.invalid_at).toBe('2026-09-15T00:00:00.000Z');
      expect(lastChange(edited.id)).toEqual({ reason: 'your edit', changes: ['end you gave: 1 Oct 2026 (kept: it still ends where the next value begins)'] });
      expect(memory.facts.provenance(edited.id).keptEnd).toEqual({ at: '2026-10-01T00:00:00.000Z', precision: 'day' });

      const reopened = memory.facts.edit(edited.id, { invalid_at: null });
      expect(lastChange(reopened.id)).toEqual({ reason: 'your edit', changes: ['end you gave: 1 Oct 2026 → none (it still ends where the next value begins)'] });
      expect(memory.facts.provenance(reopened.id).keptEnd).toBeNull();
    });

    it('an end before the next value moves the end and is said only as the change it made', () => {
      observe('A', '2026-09-01T00:00:00Z');
      observe('B', '2026-09-15T00:00:00Z');
      const a = memory.facts.list({ history: true }).find((f) => f.object === 'A' && f.expired_at === null)!;
      const closed = memory.facts.close(a.id, '2026-09-10T00:00:00.000Z', 'day');
      expect(lastChange(closed.id)).toEqual({ reason: 'you closed it', changes: ['true until: 15 Sept 2026 → 10 Sept 2026'] });
      expect(memory.facts.provenance(closed.id).keptEnd).toBeNull();
    });
  });
});

describe('describeReason', () => {
  it('says "you closed it" for an end that has come, and "you set its end" for one still to come', () => {
    const now = '2026-12-07T00:00:00.000Z';
    expect(describeReason({ kind: 'close' }, { invalid_at: '2027-01-15T00:00:00.000Z' }, now).text).toBe('you set its end');
    expect(describeReason({ kind: 'close' }, { invalid_at: '2026-12-07T00:00:00.001Z' }, now).text).toBe('you set its end');
    // At the very moment it ends, it has ended.
    expect(describeReason({ kind: 'close' }, { invalid_at: now }, now).text).toBe('you closed it');
    expect(describeReason({ kind: 'close' }, { invalid_at: '2026-09-10T00:00:00.000Z' }, now).text).toBe('you closed it');
    expect(describeReason({ kind: 'close' }).text).toBe('you closed it');
  });
});
