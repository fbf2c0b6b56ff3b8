/**
 * Issue 12: each episode keeps the zone it was written in, each time how precisely it was said, and
 * the export (version 3) carries both; version-1 documents and stores from before still work.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { memoryExport, type MemoryExport } from '../../shared/memory-schema';
import { scriptedModel } from '../fixtures/scripted-model';

const fresh = (): Memory => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
afterEach(() => vi.unstubAllEnvs());

const base = { subject: 'me', predicate: 'manager', fact: 'My manager is A.', object: 'A', cardinality: 'one' };

describe('the zone of each message', () => {
  it('keeps the IANA zone given with a message and its offset at that instant (DST included)', () => {
    const m = fresh();
    const winter = m.messages.append({ role: 'user', content: 'winter', time: '2026-01-15T12:00:00Z', timeZone: 'America/New_York', conversation: 'c' }).episode;
    const summer = m.messages.append({ role: 'user', content: 'summer', time: '2026-07-15T12:00:00Z', timeZone: 'America/New_York', conversation: 'c' }).episode;
    expect([winter.utc_offset, winter.time_zone]).toEqual(['-05:00', 'America/New_York']);
    expect([summer.utc_offset, summer.time_zone]).toEqual(['-04:00', 'America/New_York']);
    expect(m.episodes.byId(summer.id)).toMatchObject({ utc_offset: '-04:00', time_zone: 'America/New_York' });
  });

  it('keeps the offset written in the time; "Z" says nothing of where the writer is', () => {
    const m = fresh();
    expect(m.messages.append({ role: 'user', content: 'a', time: '2026-09-01T08:00:00+09:00' }).episode).toMatchObject({ utc_offset: '+09:00', time_zone: null, reference_time: '2026-08-31T23:00:00.000Z' });
    expect(m.messages.append({ role: 'user', content: 'b', time: '2026-09-01T08:00:00Z' }).episode).toMatchObject({ utc_offset: null, time_zone: null });
  });

  it('refuses an unknown zone by name, storing nothing', () => {
    const m = fresh();
    expect(() => m.messages.append({ role: 'user', content: 'a', time: '2026-09-01T08:00:00Z', timeZone: 'Mars/Olympus' })).toThrow('timeZone: unknown time zone "Mars/Olympus" (use an IANA name like Asia/Tokyo, or an offset like +09:00)');
    expect(m.transfer.export().episodes).toEqual([]);
  });

  it('reads "9月1日" in the zone of the message, not the user setting: the Tokyo morning example', async () => {
    vi.stubEnv('TEMPORA_TZ', 'America/New_York');
    const m = fresh();
    const model = scriptedModel({ extract: { '9月1日から上司はAさんです。': [{ subject: 'me', predicate: 'manager', object: 'Aさん', fact: '9月1日から上司はAさんです。', cardinality: 'one', since: '9月1日から' }] } });
    const worker = new IngestionWorker(m, { model: () => model });
    m.messages.append({ role: 'user', content: '9月1日から上司はAさんです。', time: '2026-09-01T08:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: 'c' });
    worker.start();
    await worker.whenIdle();
    await worker.stop();
    // 08:00 in Tokyo is still 31 August in UTC and in New York; in Tokyo it is 1 September 2026.
    expect(m.facts.list()[0]).toMatchObject({ valid_at: '2026-08-31T15:00:00.000Z', valid_at_precision: 'day' });
  });
});

describe('precision', () => {
  it('observe keeps the precision of each phrase, and of a closing successor', () => {
    const m = fresh();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '9月1日' }]);
    expect(m.facts.list()[0]).toMatchObject({ valid_at: '2026-08-31T15:00:00.000Z', valid_at_precision: 'day', invalid_at_precision: null });
    m.facts.observe([{ ...base, object: 'B', fact: 'My manager is B.', reference_time: '2026-12-01T08:00:00+09:00', valid_at: '11月' }]);
    const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
    const [a, b] = [live.find((f) => f.object === 'A'), live.find((f) => f.object === 'B')];
    expect(b).toMatchObject({ object: 'B', valid_at: '2026-10-31T15:00:00.000Z', valid_at_precision: 'month' });
    expect(a).toMatchObject({ object: 'A', invalid_at: '2026-10-31T15:00:00.000Z', invalid_at_precision: 'month' });
  });

  it('a stated end keeps its own precision; an ISO time is an instant', () => {
    const m = fresh();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T00:00:00Z', valid_at: '2024', invalid_at: '2026-03-10T12:00:00Z' }]);
    expect(m.facts.list({ history: true })[0]).toMatchObject({ valid_at: '2024-01-01T00:00:00.000Z', valid_at_precision: 'year', invalid_at_precision: 'instant' });
  });

  it('a change of precision alone is a new version (the rules compare it)', () => {
    const m = fresh();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T00:00:00Z', valid_at: '2026-03-01T00:00:00Z' }]);
    const [fact] = m.facts.list();
    const edited = m.facts.edit(fact!.id, { valid_at: '2026-03-01T00:00:00.000Z', valid_at_precision: 'month' });
    expect(edited).toMatchObject({ valid_at_precision: 'month', supersedes: fact!.id });
    expect(() => m.facts.edit(edited.id, { valid_at: '2026-03-01T00:00:00.000Z', valid_at_precision: 'month' })).toThrow('the edit changes nothing');
    const closed = m.facts.close(edited.id, '2026-06-01T00:00:00.000Z', 'day');
    expect(closed).toMatchObject({ invalid_at: '2026-06-01T00:00:00.000Z', invalid_at_precision: 'day' });
  });
});

describe('export version 3', () => {
  function sample(): MemoryExport {
    const m = fresh();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '3月' }]);
    m.facts.observe([{ ...base, object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T08:00:00+09:00', valid_at: '9月15日' }]);
    return JSON.parse(JSON.stringify(m.transfer.export())) as MemoryExport;
  }

  it('carries precisions and offsets, and re-imports to the same document', () => {
    const doc = sample();
    expect(doc.version).toBe(3);
    expect(memoryExport.safeParse(doc).success).toBe(true);
    expect(doc.episodes.map((e) => e.utc_offset)).toEqual(['+09:00', '+09:00']);
    expect(doc.facts.filter((f) => f.expired_at === null).map((f) => [f.object, f.valid_at_precision, f.invalid_at_precision]).sort()).toEqual([
      ['A', 'month', 'day'],
      ['B', 'day', null],
    ]);
    const copy = fresh();
    copy.transfer.import(structuredClone(doc));
    const again = JSON.parse(JSON.stringify(copy.transfer.export())) as MemoryExport;
    expect({ ...again, exported_at: null }).toEqual({ ...doc, exported_at: null });
  });

  it('imports a version-1 document: instants, offsets unknown', () => {
    const doc = sample();
    const { claims: _claims, ...v2 } = doc;
    const v1 = {
      ...v2,
      version: 1,
      episodes: doc.episodes.map(({ utc_offset: _o, time_zone: _z, ...e }) => e),
      facts: doc.facts.map(({ valid_at_precision: _v, invalid_at_precision: _i, ...f }) => f),
    };
    const copy = fresh();
    copy.transfer.import(v1);
    const out = copy.transfer.export();
    expect(out.version).toBe(3);
    expect(out.episodes.every((e) => e.utc_offset === null && e.time_zone === null)).toBe(true);
    expect(out.facts.every((f) => f.valid_at_precision === 'instant' && f.invalid_at_precision === (f.invalid_at === null ? null : 'instant'))).toBe(true);
    expect(out.facts.map((f) => f.id)).toEqual(doc.facts.map((f) => f.id));
  });

  it('refuses a precision without a time, or a time without one, naming the field', () => {
    const doc = sample();
    const open = doc.facts.findIndex((f) => f.invalid_at === null);
    const bad = structuredClone(doc);
    bad.facts[open]!.invalid_at_precision = 'day';
    expect(() => fresh().transfer.import(bad)).toThrow(`facts.${open}.invalid_at_precision: must be null when invalid_at is null`);
    const bad2 = structuredClone(doc);
    bad2.facts[open]!.valid_at_precision = 'week' as never;
    expect(() => fresh().transfer.import(bad2)).toThrow(new RegExp(`facts\\.${open}\\.valid_at_precision`));
    const bad3 = structuredClone(doc);
    bad3.episodes[0]!.utc_offset = '+9';
    expect(() => fresh().transfer.import(bad3)).toThrow('episodes.0.utc_offset: must be a UTC offset like +09:00 or -05:00');
  });
});

describe('migration 0008', () => {
  it('gives the facts of an older store instant precision, and its episodes no zone', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 7));
    db.exec(`
      INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_a', 'A', 'a', 'person', '2026-01-01T00:00:00.000Z');
      INSERT INTO episodes (id, conversation_id, role, content, reference_time, created_at) VALUES ('epi_1', NULL, 'user', 'x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, invalid_at, end_kind, reference_time, created_at, origin)
        VALUES ('f1', 'f1', 'ent_a', 'likes', 'tea', 'A likes tea.', 'many', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'explicit', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'observed'),
               ('f2', 'f2', 'ent_a', 'likes', 'cake', 'A likes cake.', 'many', '2026-01-01T00:00:00.000Z', NULL, 'open', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'observed');
      INSERT INTO claims (fact_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, reference_time, end_at, end_kind, episode_ids, origin)
        VALUES ('f1', 'ent_a', 'likes', 'tea', 'A likes tea.', 'many', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'explicit', '[]', 'observed');
    `);
    expect(migrate(db)).toEqual({ from: 7, to: migrations.length });
    expect(db.prepare('SELECT id, valid_at_precision, invalid_at_precision FROM facts ORDER BY id').all()).toEqual([
      { id: 'f1', valid_at_precision: 'instant', invalid_at_precision: 'instant' },
      { id: 'f2', valid_at_precision: 'instant', invalid_at_precision: null },
    ]);
    expect(db.prepare('SELECT valid_at_precision, end_precision FROM claims').get()).toEqual({ valid_at_precision: 'instant', end_precision: 'instant' });
    expect(db.prepare('SELECT utc_offset, time_zone FROM episodes').get()).toEqual({ utc_offset: null, time_zone: null });
    expect(() => db.prepare("UPDATE facts SET valid_at_precision = 'week' WHERE id = 'f1'").run()).toThrow(/CHECK constraint failed/);
  });

  it('a store opened through Memory has the columns', () => {
    const m = fresh();
    const names = databaseOf(m).prepare("SELECT name FROM pragma_table_info('facts')").all().map((r) => (r as { name: string }).name);
    expect(names).toEqual(expect.arrayContaining(['valid_at_precision', 'invalid_at_precision']));
  });
});
