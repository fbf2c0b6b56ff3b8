import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { IngestionWorker, type IngestionEvent } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel, type Script } from '../fixtures/scripted-model';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const day = (d: string): IsoTime => toIsoUtc(`${d}T00:00:00.000Z`);

async function ingest(script: Script, messages: { content: string; time: string; role?: 'user' | 'assistant'; learn?: boolean }[], memory?: Memory) {
  const m = memory ?? openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
  const model = scriptedModel(script);
  const events: IngestionEvent[] = [];
  const worker = new IngestionWorker(m, { model: () => model, onEvent: (e) => events.push(e) });
  for (const msg of messages) m.messages.append({ role: msg.role ?? 'user', content: msg.content, time: msg.time, conversation: 'c1', ...(msg.learn === false ? { learn: false } : {}) });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  return { m, model, events };
}

describe('ingestion with a scripted model', () => {
  // dates are days in the user's zone (TEMPORA_TZ): fixed here so no test depends on the machine's
  beforeEach(() => vi.stubEnv('TEMPORA_TZ', 'UTC'));
  afterEach(() => vi.unstubAllEnvs());

  it('learns the seed example: as of 10 Sep A, now B, A closed at 15 Sep, nothing deleted', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'My manager is A.': [{ subject: 'me', subject_type: 'user', predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' }],
          'My manager changed to B.': [{ subject: 'me', subject_type: 'user', predicate: 'manager', object: 'B', fact: 'My manager is B.', cardinality: 'one' }],
        },
      },
      [
        { content: 'My manager is A.', time: '2026-09-01T10:00:00+09:00' },
        { content: 'My manager changed to B.', time: '2026-09-15T10:00:00+09:00' },
      ],
    );
    expect(m.facts.list({ asOf: day('2026-09-10') }).map((f) => f.object)).toEqual(['A']);
    expect(m.facts.list().map((f) => f.object)).toEqual(['B']);
    const a = m.facts.list({ history: true }).filter((f) => f.object === 'A');
    expect(a.map((f) => [f.invalid_at, f.expired_at === null])).toEqual(expect.arrayContaining([[null, false], ['2026-09-15T01:00:00.000Z', true]]));
    // rules decided it: one extraction call per message, no judgement
    expect(model.calls.map((c) => c.kind)).toEqual(['extract', 'extract']);
    const totals = m.jobs.totals();
    expect(totals).toMatchObject({ jobs: 2, modelCalls: 2, factsAdded: 2, factsClosed: 1 });
    expect(totals.promptTokens).toBeGreaterThan(0);
  });

  it("learns what the assistant said only where the user's next message confirms it, citing both messages", async () => {
    const { m, model } = await ingest(
      {
        extract: {
          // a model that wrongly marks a fact as the assistant's when no assistant message precedes it
          'I see Dr. Kato for my teeth.': [{ subject: 'me', predicate: 'dentist', object: 'Dr. Kato', fact: 'My dentist is Dr. Kato.', from_assistant: true }],
          'Yes, that is right.': [{ subject: 'me', predicate: 'dentist_appointment', object: 'Friday 3pm', object_type: 'literal', fact: 'My dentist appointment is on Friday at 3pm.', from_assistant: true }],
          'ええ、そうです。': [{ subject: 'me', predicate: 'lives_in', object: '京都', object_type: 'place', fact: '私は京都に住んでいます。', cardinality: 'one', from_assistant: true }],
        },
      },
      [
        { content: 'I see Dr. Kato for my teeth.', time: '2026-09-01T09:00:00Z' },
        { content: 'So your dentist appointment is on Friday at 3pm, right?', time: '2026-09-01T09:00:05Z', role: 'assistant', learn: false },
        { content: 'Yes, that is right.', time: '2026-09-01T09:01:00Z' },
        { content: 'Thanks.', time: '2026-09-01T09:02:00Z' },
        { content: '京都にお住まいでしたね。', time: '2026-09-01T09:02:05Z', role: 'assistant', learn: false },
        { content: 'ええ、そうです。', time: '2026-09-01T09:03:00Z' },
      ],
    );
    const episodes = m.episodes.ofConversation('c1');
    const id = (content: string) => episodes.find((e) => e.content === content)!.id;
    const prompts = model.calls.filter((c) => c.kind === 'extract').map((c) => c.prompt);
    expect(prompts).toHaveLength(4);
    // only a user message right after an assistant message shows it to the model
    expect(prompts.map((p) => p.includes("The assistant's previous message"))).toEqual([false, true, false, true]);
    expect(prompts[1]).toContain('So your dentist appointment is on Friday at 3pm, right?');
    expect(prompts[1]!.indexOf('So your dentist')).toBeLessThan(prompts[1]!.indexOf('Yes, that is right.'));
    const facts = m.facts.list();
    const cited = (predicate: string) => facts.find((f) => f.predicate === predicate)!.episode_ids.sort();
    expect(cited('dentist')).toEqual([id('I see Dr. Kato for my teeth.')]);
    expect(cited('dentist_appointment')).toEqual([id('So your dentist appointment is on Friday at 3pm, right?'), id('Yes, that is right.')].sort());
    expect(cited('lives_in')).toEqual([id('京都にお住まいでしたね。'), id('ええ、そうです。')].sort());
    // the assistant's messages themselves made no jobs
    expect(m.jobs.totals().jobs).toBe(4);
  });

  it('resolves relative dates against the message time, in English and Japanese', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'I moved to Osaka last week.': [{ subject: 'me', predicate: 'lives_in', object: 'Osaka', object_type: 'place', fact: 'I live in Osaka.', cardinality: 'one', since: 'last week' }],
          '先週から佐藤さんが私の担当者です。': [{ subject: 'me', predicate: '担当者', object: '佐藤さん', fact: '私の担当者は佐藤さんです。', cardinality: 'one', since: '先週から' }],
          'I quit tennis 3 months ago.': [{ subject: 'me', predicate: 'plays', object: 'tennis', object_type: 'literal', fact: 'I played tennis.', since: '2025-01-01', until: '3 months ago', ended: true }],
        },
      },
      [
        { content: 'I moved to Osaka last week.', time: '2026-09-15T12:00:00Z' },
        { content: '先週から佐藤さんが私の担当者です。', time: '2026-09-15T09:00:00+09:00' },
        { content: 'I quit tennis 3 months ago.', time: '2026-09-15T12:00:00Z' },
      ],
    );
    // The model is told the wall time and weekday where each message was written (the user's zone, UTC here; Tokyo's offset kept with the second).
    expect(model.calls[0]!.prompt).toContain('written on 2026-09-15T12:00:00+00:00 (Tuesday)');
    expect(model.calls[1]!.prompt).toContain('written on 2026-09-15T09:00:00+09:00 (Tuesday)');
    const facts = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
    // "last week" is the week that began on Monday 7 September (issue 12), not the same hour 7 days back
    expect(facts.find((f) => f.object === 'Osaka')!.valid_at).toBe('2026-09-07T00:00:00.000Z');
    expect(facts.find((f) => f.object === 'Osaka')!.valid_at_precision).toBe('day');
    // Written at 09:00 in Tokyo (the offset is kept with the message): Monday 7 September there
    const ja = facts.find((f) => f.predicate === '担当者')!;
    expect(ja.valid_at).toBe('2026-09-06T15:00:00.000Z');
    expect(ja.valid_at_precision).toBe('day');
    expect(ja.fact).toBe('私の担当者は佐藤さんです。');
    expect(m.facts.search('担当').map((h) => h.fact.id)).toEqual([ja.id]);
    const tennis = facts.find((f) => f.object === 'tennis')!;
    // "3 months ago" is good to a day: 15 June from its start (issue 27), not 12:00 on it
    expect([tennis.valid_at, tennis.invalid_at]).toEqual(['2025-01-01T00:00:00.000Z', '2026-06-15T00:00:00.000Z']);
  });

  it("resolves a calendar date in the user's zone: 9月1日 at 08:00 in Tokyo is this year's 1 September", async () => {
    vi.stubEnv('TEMPORA_TZ', 'Asia/Tokyo');
    const { m } = await ingest(
      { extract: { '9月1日から東京で働いています。': [{ subject: 'me', predicate: 'works_in', object: '東京', object_type: 'place', fact: '私は東京で働いています。', cardinality: 'one', since: '9月1日から', until: '来年の3月まで' }] } },
      [{ content: '9月1日から東京で働いています。', time: '2026-09-01T08:00:00+09:00' }],
    );
    const fact = m.facts.list({ history: true }).find((f) => f.object === '東京')!;
    // until next March, still to come: held through March in Tokyo
    expect([fact.valid_at, fact.invalid_at]).toEqual(['2026-08-31T15:00:00.000Z', '2027-03-31T14:59:59.999Z']);
  });

  it('asks once about a synonymous predicate and closes the older fact by dates', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'I work at Acme.': [{ subject: 'me', predicate: 'works_at', object: 'Acme', object_type: 'organization', fact: 'I work at Acme.', cardinality: 'one' }],
          'My workplace is Globex now.': [{ subject: 'me', predicate: 'workplace', object: 'Globex', object_type: 'organization', fact: 'My workplace is Globex.', cardinality: 'one' }],
        },
        judge: (stored, fresh) => (stored.includes('Acme') && fresh.includes('Globex') ? 'contradiction' : 'unrelated'),
      },
      [
        { content: 'I work at Acme.', time: '2026-03-01T00:00:00Z' },
        { content: 'My workplace is Globex now.', time: '2026-09-01T00:00:00Z' },
      ],
    );
    expect(model.calls.map((c) => c.kind)).toEqual(['extract', 'extract', 'judge']);
    const acme = m.facts.list({ history: true }).find((f) => f.object === 'Acme' && f.expired_at === null)!;
    const globex = m.facts.list().find((f) => f.object === 'Globex')!;
    expect(acme.invalid_at).toBe(globex.valid_at);
    expect(acme.invalidated_by).toBe(globex.id);
    expect(m.facts.list().map((f) => f.object)).toEqual(['Globex']);
  });

  it('saves a late-arriving older fact already closed when the model calls it a contradiction', async () => {
    const { m } = await ingest(
      {
        extract: {
          'I live in Osaka.': [{ subject: 'me', predicate: 'lives_in', object: 'Osaka', object_type: 'place', fact: 'I live in Osaka.', cardinality: 'one' }],
          'Before that I resided in Kyoto, since 2025.': [{ subject: 'me', predicate: 'resides_in', object: 'Kyoto', object_type: 'place', fact: 'I resided in Kyoto.', cardinality: 'one', since: '2025' }],
        },
        judge: () => 'contradiction',
      },
      [
        { content: 'I live in Osaka.', time: '2026-09-10T00:00:00Z' },
        { content: 'Before that I resided in Kyoto, since 2025.', time: '2026-09-20T00:00:00Z' },
      ],
    );
    const kyoto = m.facts.list({ history: true }).find((f) => f.object === 'Kyoto' && f.expired_at === null)!;
    const osaka = m.facts.list().find((f) => f.object === 'Osaka')!;
    expect([kyoto.valid_at, kyoto.invalid_at, kyoto.invalidated_by]).toEqual(['2025-01-01T00:00:00.000Z', osaka.valid_at, osaka.id]);
    expect(osaka.invalid_at).toBeNull();
    expect(m.facts.list({ asOf: day('2026-01-01') }).map((f) => f.object)).toEqual(['Kyoto']);
  });

  it('equal dates across slots: the later message wins, whichever message is learned first (rule 3)', async () => {
    const script = {
      extract: {
        'I reside in Kyoto since 2026-09-01.': [{ subject: 'me', predicate: 'resides_in', object: 'Kyoto', object_type: 'place' as const, fact: 'I reside in Kyoto.', cardinality: 'one' as const, since: '2026-09-01' }],
        'I live in Osaka since 2026-09-01.': [{ subject: 'me', predicate: 'lives_in', object: 'Osaka', object_type: 'place' as const, fact: 'I live in Osaka.', cardinality: 'one' as const, since: '2026-09-01' }],
      },
      judge: () => 'contradiction' as const,
    };
    const kyoto = { content: 'I reside in Kyoto since 2026-09-01.', time: '2026-09-20T00:00:00Z' };
    const osaka = { content: 'I live in Osaka since 2026-09-01.', time: '2026-09-10T00:00:00Z' };
    for (const order of [[osaka, kyoto], [kyoto, osaka]]) {
      const { m } = await ingest(script, order);
      const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
      const byObject = new Map(live.map((f) => [f.object, f]));
      // Kyoto was said later (20 Sep), so Kyoto holds; Osaka is closed at Kyoto's valid_at, by Kyoto.
      expect(byObject.get('Kyoto')?.invalid_at).toBeNull();
      expect([byObject.get('Osaka')?.invalid_at, byObject.get('Osaka')?.invalidated_by]).toEqual(['2026-09-01T00:00:00.000Z', byObject.get('Kyoto')?.id]);
      expect(m.facts.list().map((f) => f.object)).toEqual(['Kyoto']);
    }
  });

  it('merges a duplicate said in other words, keeping both source episodes', async () => {
    const { m } = await ingest(
      {
        extract: {
          'I like sushi.': [{ subject: 'me', predicate: 'likes', object: 'sushi', object_type: 'thing', fact: 'I like sushi.' }],
          'Sushi is my favourite food.': [{ subject: 'me', predicate: 'favourite_food', object: 'sushi', object_type: 'thing', fact: 'Sushi is my favourite food.' }],
        },
        judge: () => 'duplicate',
      },
      [
        { content: 'I like sushi.', time: '2026-09-01T00:00:00Z' },
        { content: 'Sushi is my favourite food.', time: '2026-09-05T00:00:00Z' },
      ],
    );
    const facts = m.facts.list();
    expect(facts).toHaveLength(1);
    expect(facts[0]!.predicate).toBe('likes');
    expect(facts[0]!.episode_ids).toHaveLength(2);
  });

  it('resolves names: honorifics match at once, ambiguous ones are asked in the same judgement call', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'Sato Kenji is my colleague.': [{ subject: 'Sato Kenji', predicate: 'colleague_of', object: 'me', fact: 'Sato Kenji is my colleague.' }],
          'Kenji likes golf.': [{ subject: 'Kenji', predicate: 'likes', object: 'golf', object_type: 'literal', fact: 'Kenji likes golf.' }],
          '田中さんは東京に住んでいます。': [{ subject: '田中さん', predicate: 'lives_in', object: '東京', object_type: 'place', fact: '田中さんは東京に住んでいます。', cardinality: 'one' }],
          '田中は大阪に引っ越した。': [{ subject: '田中', predicate: 'lives_in', object: '大阪', object_type: 'place', fact: '田中は大阪に引っ越した。', cardinality: 'one' }],
        },
        sameName: (fresh, known) => fresh === 'Kenji' && known === 'Sato Kenji',
      },
      [
        { content: 'Sato Kenji is my colleague.', time: '2026-09-01T00:00:00Z' },
        { content: 'Kenji likes golf.', time: '2026-09-02T00:00:00Z' },
        { content: '田中さんは東京に住んでいます。', time: '2026-09-03T00:00:00Z' },
        { content: '田中は大阪に引っ越した。', time: '2026-09-04T00:00:00Z' },
      ],
    );
    const kenji = m.entities.find('Kenji')!;
    expect(kenji.name).toBe('Sato Kenji');
    expect(kenji.aliases).toContain('Kenji');
    expect(model.calls.filter((c) => c.kind === 'judge')).toHaveLength(1);
    expect(m.facts.list({ subject: '田中さん' }).map((f) => f.object)).toEqual(['大阪']);
  });

  it('retries a failing job, then parks it with its error, and goes on with the rest', async () => {
    const { m, events } = await ingest(
      { extract: { 'fine message': [{ subject: 'me', predicate: 'likes', object: 'tea', object_type: 'literal', fact: 'I like tea.' }] }, failOn: 'poison' },
      [
        { content: 'poison message', time: '2026-09-01T00:00:00Z' },
        { content: 'fine message', time: '2026-09-02T00:00:00Z' },
      ],
    );
    expect(m.jobs.counts()).toMatchObject({ done: 1, parked: 1, pending: 0, running: 0 });
    const parked = m.jobs.parked()[0]!;
    expect(parked.attempts).toBe(3);
    expect(parked.last_error).toMatch(/scripted failure/);
    expect(events.filter((e) => e.type === 'job-failed').map((e) => (e as { parked: boolean }).parked)).toEqual([false, false, true]);
    expect(m.facts.list().map((f) => f.object)).toEqual(['tea']);
  });

  it('counts the model calls of a try that failed after them', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'I work at Acme.': [{ subject: 'me', predicate: 'works_at', object: 'Acme', object_type: 'organization', fact: 'I work at Acme.', cardinality: 'one' }],
          'My workplace is Globex now.': [{ subject: 'me', predicate: 'workplace', object: 'Globex', object_type: 'organization', fact: 'My workplace is Globex.', cardinality: 'one' }],
        },
        failJudge: true,
      },
      [
        { content: 'I work at Acme.', time: '2026-09-01T00:00:00Z' },
        { content: 'My workplace is Globex now.', time: '2026-09-10T00:00:00Z' },
      ],
    );
    const parked = m.jobs.parked();
    expect(parked).toHaveLength(1);
    // three tries, each one extraction that succeeded and a judgement that failed
    expect(model.calls.filter((c) => c.kind === 'judge')).toHaveLength(3);
    expect(parked[0]!).toMatchObject({ attempts: 3, model_calls: 3, last_error: 'scripted judgement failure' });
    expect(parked[0]!.prompt_tokens).toBeGreaterThan(0);
  });

  it('stores each message once (idempotent) and recovers jobs left running by a crash', async () => {
    const m = openMemory({ dataDir: ':memory:' });
    const first = m.messages.append({ role: 'user', content: 'hello', time: '2026-09-01T00:00:00Z', conversation: 'c1' });
    const again = m.messages.append({ role: 'user', content: 'hello', time: '2026-09-01T00:00:00Z', conversation: 'c1' });
    expect(again.duplicate).toBe(true);
    expect(again.episode.id).toBe(first.episode.id);
    expect(m.jobs.claimNext()!.status).toBe('running');
    expect(m.jobs.claimNext()).toBeUndefined();
    expect(m.jobs.recoverInterrupted()).toBe(1);
    expect(m.jobs.counts()).toMatchObject({ pending: 1, running: 0 });
    expect(() => m.messages.append({ role: 'robot' as never, content: 'x', time: '2026-09-01' })).toThrow(/role must be one of/);
    expect(() => m.messages.append({ role: 'user', content: 'x', time: '2026-13-01' })).toThrow(/time:/);
  });

  it('waits for a model instead of failing jobs', async () => {
    const m = openMemory({ dataDir: ':memory:' });
    let model: ReturnType<typeof scriptedModel> | null = null;
    const worker = new IngestionWorker(m, { model: () => model });
    m.messages.append({ role: 'user', content: 'I like tea.', time: '2026-09-01T00:00:00Z' });
    worker.start();
    await worker.whenIdle();
    expect(m.jobs.counts()).toMatchObject({ pending: 1 });
    model = scriptedModel({ extract: { 'I like tea.': [{ subject: 'me', predicate: 'likes', object: 'tea', object_type: 'literal', fact: 'I like tea.' }] } });
    worker.notify();
    await new Promise((r) => setTimeout(r, 20));
    await worker.whenIdle();
    await worker.stop();
    expect(m.jobs.counts()).toMatchObject({ done: 1, pending: 0 });
  });

  it('closes an open fact when a message says it stopped, without a date', async () => {
    const { m } = await ingest(
      {
        extract: {
          'I go to the gym.': [{ subject: 'me', predicate: 'goes_to', object: 'the gym', object_type: 'place', fact: 'I go to the gym.' }],
          'I stopped going to the gym.': [{ subject: 'me', predicate: 'goes_to', object: 'the gym', object_type: 'place', fact: 'I stopped going to the gym.', until: 'now', ended: true }],
          'I quit chess.': [{ subject: 'me', predicate: 'plays', object: 'chess', object_type: 'literal', fact: 'I quit chess.', until: 'now', ended: true }],
        },
      },
      [
        { content: 'I go to the gym.', time: '2026-05-01T00:00:00Z' },
        { content: 'I stopped going to the gym.', time: '2026-09-01T00:00:00Z' },
        { content: 'I quit chess.', time: '2026-09-02T00:00:00Z' },
      ],
    );
    expect(m.facts.list()).toEqual([]);
    const gym = m.facts.list({ asOf: day('2026-06-01') });
    expect(gym.map((f) => [f.object, f.invalid_at])).toEqual([['the gym', '2026-09-01T00:00:00.000Z']]);
    expect(gym[0]!.episode_ids).toHaveLength(2);
    // nothing was open to close for chess: nothing invented
    expect(m.facts.list({ history: true }).some((f) => f.object === 'chess')).toBe(false);
  });

  it('matches romanised honorifics without asking the model', async () => {
    const { m, model } = await ingest(
      {
        extract: {
          'Yamada-sensei teaches piano.': [{ subject: 'Yamada-sensei', predicate: 'teaches', object: 'piano', object_type: 'literal', fact: 'Yamada-sensei teaches piano.' }],
          'Yamada lives in Kobe.': [{ subject: 'Yamada', predicate: 'lives_in', object: 'Kobe', object_type: 'place', fact: 'Yamada lives in Kobe.', cardinality: 'one' }],
        },
      },
      [
        { content: 'Yamada-sensei teaches piano.', time: '2026-09-01T00:00:00Z' },
        { content: 'Yamada lives in Kobe.', time: '2026-09-02T00:00:00Z' },
      ],
    );
    expect(model.calls.filter((c) => c.kind === 'judge')).toHaveLength(0);
    expect(m.facts.list({ subject: 'Yamada-sensei' }).map((f) => f.object).sort()).toEqual(['Kobe', 'piano']);
  });
});
