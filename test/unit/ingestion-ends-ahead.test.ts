/**
 * An end said without a year is read by what the message says of it: "11月まで大阪に出張です" said in
 * June is this November (the stay goes on), "3月まで大阪に住んでいました" said in June is last March
 * (it is over). The model says which (`ended`); the resolver reads the end ahead or back. An end
 * still to come holds through the period it names, whether it has begun or not: "until Friday" said
 * on Monday is true on Friday, as "until today" is true today.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel, type Script } from '../fixtures/scripted-model';

/** Monday 15 June 2026, 10:00 in Tokyo. */
const JUNE = '2026-06-15T10:00:00+09:00';

async function learn(script: Script, messages: { content: string; time: string }[]) {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-20T00:00:00.000Z') });
  const model = scriptedModel(script);
  const worker = new IngestionWorker(m, { model: () => model });
  for (const msg of messages) m.messages.append({ role: 'user', content: msg.content, time: msg.time, conversation: 'c1' });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  return m;
}

describe('an end without a year, as the message says it', () => {
  beforeEach(() => vi.stubEnv('TEMPORA_TZ', 'Asia/Tokyo'));
  afterEach(() => vi.unstubAllEnvs());

  it('reads an end still to come forward: this November, this Friday, next May', async () => {
    const m = await learn(
      {
        extract: {
          '11月まで大阪に出張です。': [{ subject: 'me', predicate: 'located_in', object: '大阪', object_type: 'place', fact: '私は大阪に出張している。', cardinality: 'one', until: '11月まで', ended: false }],
          "I'm on leave until Friday.": [{ subject: 'me', predicate: 'on_leave', object: 'leave', object_type: 'literal', fact: 'I am on leave.', until: 'until Friday', ended: false }],
          'Ken rents the flat until May.': [{ subject: 'Ken', predicate: 'rents', object: 'the flat', object_type: 'literal', fact: 'Ken rents the flat.', until: 'until May', ended: false }],
        },
      },
      [
        { content: '11月まで大阪に出張です。', time: JUNE },
        { content: "I'm on leave until Friday.", time: JUNE },
        { content: 'Ken rents the flat until May.', time: JUNE },
      ],
    );
    const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
    const interval = (object: string) => live.filter((f) => f.object === object).map((f) => [f.valid_at, f.invalid_at, f.invalid_at_precision]);
    // from when it was said (15 June, to the day); held through November, Friday 19 June, May 2027
    // in Tokyo: to the last instant of each, which still reads as the period said
    expect(interval('大阪')).toEqual([['2026-06-15T01:00:00.000Z', '2026-11-30T14:59:59.999Z', 'month']]);
    expect(interval('leave')).toEqual([['2026-06-15T01:00:00.000Z', '2026-06-19T14:59:59.999Z', 'day']]);
    expect(interval('the flat')).toEqual([['2026-06-15T01:00:00.000Z', '2027-05-31T14:59:59.999Z', 'month']]);
    // true now, in August, on the Friday itself (noon) and at 23:00 on 30 November; no longer at midnight after them (Tokyo)
    expect(m.facts.list({ asOf: '2026-08-01T00:00:00.000Z' }).map((f) => f.object).sort()).toEqual(['the flat', '大阪']);
    expect(m.facts.list({ asOf: '2026-06-19T03:00:00.000Z' }).map((f) => f.object).sort()).toEqual(['leave', 'the flat', '大阪']);
    expect(m.facts.list({ asOf: '2026-06-19T15:00:00.000Z' }).map((f) => f.object).sort()).toEqual(['the flat', '大阪']);
    expect(m.facts.list({ asOf: '2026-11-30T14:00:00.000Z' }).map((f) => f.object).sort()).toEqual(['the flat', '大阪']);
    expect(m.facts.list({ asOf: '2026-11-30T15:00:00.000Z' }).map((f) => f.object)).toEqual(['the flat']);
    m.close();
  });

  it('holds an end still to come through a period already begun: 今月まで, until today, 年末まで on 31 December, 6月まで in June', async () => {
    const m = await learn(
      {
        extract: {
          '今月まで大阪に出張です。': [{ subject: 'me', predicate: 'located_in', object: '大阪', object_type: 'place', fact: '私は大阪に出張している。', cardinality: 'one', since: '6月1日', until: '今月まで', ended: false }],
          "I'm working from home until today.": [{ subject: 'me', predicate: 'works_from', object: 'home', object_type: 'literal', fact: 'I work from home.', since: 'last Monday', until: 'until today', ended: false }],
          '年末まで休みです。': [{ subject: 'me', predicate: 'on_leave', object: '休み', object_type: 'literal', fact: '私は休みだ。', until: '年末まで', ended: false }],
          '6月まで名古屋で研修です。': [{ subject: 'me', predicate: 'trains_in', object: '名古屋', object_type: 'place', fact: '私は名古屋で研修中だ。', until: '6月まで', ended: false }],
        },
      },
      [
        { content: '今月まで大阪に出張です。', time: JUNE },
        { content: "I'm working from home until today.", time: JUNE },
        { content: '年末まで休みです。', time: '2026-12-31T10:00:00+09:00' },
        { content: '6月まで名古屋で研修です。', time: JUNE },
      ],
    );
    const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
    const interval = (object: string) => live.filter((f) => f.object === object).map((f) => [f.valid_at, f.invalid_at, f.invalid_at_precision]);
    // to the last instant of June, of today, of 31 December in Tokyo: still true when it was said
    expect(interval('大阪')).toEqual([['2026-05-31T15:00:00.000Z', '2026-06-30T14:59:59.999Z', 'month']]);
    expect(interval('home')).toEqual([['2026-06-07T15:00:00.000Z', '2026-06-15T14:59:59.999Z', 'day']]);
    expect(interval('休み')).toEqual([['2026-12-31T01:00:00.000Z', '2026-12-31T14:59:59.999Z', 'day']]);
    // "6月まで" said in June: this June, through its end (not June of next year)
    expect(interval('名古屋')).toEqual([['2026-06-15T01:00:00.000Z', '2026-06-30T14:59:59.999Z', 'month']]);
    m.close();
  });

  it('reads an end that is over back: last March closes what was open', async () => {
    const m = await learn(
      {
        extract: {
          '大阪に住んでいます。': [{ subject: 'me', predicate: 'lives_in', object: '大阪', object_type: 'place', fact: '私は大阪に住んでいる。', cardinality: 'one', since: '2024年' }],
          '3月まで大阪に住んでいました。': [{ subject: 'me', predicate: 'lives_in', object: '大阪', object_type: 'place', fact: '私は大阪に住んでいた。', cardinality: 'one', until: '3月まで', ended: true }],
        },
      },
      [
        { content: '大阪に住んでいます。', time: '2025-05-01T10:00:00+09:00' },
        { content: '3月まで大阪に住んでいました。', time: JUNE },
      ],
    );
    const osaka = m.facts.list({ history: true }).filter((f) => f.expired_at === null && f.object === '大阪');
    expect(osaka.map((f) => [f.valid_at, f.invalid_at])).toEqual([['2023-12-31T15:00:00.000Z', '2026-02-28T15:00:00.000Z']]);
    m.close();
  });
});
