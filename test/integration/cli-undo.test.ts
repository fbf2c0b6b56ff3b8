/**
 * `tempora undo MESSAGE_ID` and `tempora redo MESSAGE_ID` as a spawned process: the message id is
 * the one `tempora show FACT_ID` lists under Source messages; undo says what it took back and how to
 * redo, redo applies the same learning again (no model), and the memory holds what it held before.
 * Refusals are one sentence, exit 1 for a message that cannot be undone, 2 for a missing id.
 * The learning is made beforehand with the scripted model.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { openMemory } from '../../electron/memory/index';
import { scriptedModel } from '../fixtures/scripted-model';

const lives = (city: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const }];
let dir: string;
let data: string;
let osaka: string;

const tempora = (...args: string[]) => temporaCommand([...args, '--data', data], { env: { TEMPORA_TZ: 'Asia/Tokyo', LANG: 'en_GB.UTF-8' } });

/** The facts held now, every valid time: [object, valid_at, invalid_at]. */
const livesIn = () => {
  const memory = openMemory({ dataDir: data });
  try {
    return memory
      .facts.list({ history: true })
      .filter((f) => f.expired_at === null)
      .map((f) => [f.object, f.valid_at, f.invalid_at]);
  } finally {
    memory.close();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-undo-'));
  data = join(dir, 'data');
  const memory = openMemory({ dataDir: data });
  const conversation = memory.conversations.create('Moving').id;
  memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-09-01T09:00:00+09:00', timeZone: 'Asia/Tokyo', conversation });
  osaka = memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-15T09:00:00+09:00', timeZone: 'Asia/Tokyo', conversation }).episode.id;
  const worker = new IngestionWorker(memory, { model: () => scriptedModel({ extract: { 'I live in Tokyo.': lives('Tokyo'), 'I moved to Osaka.': lives('Osaka') } }) });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  memory.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora undo / redo', () => {
  it('takes back what the message shown as a source taught, says how to redo, and redoes it', async () => {
    const learned = livesIn();
    const osakaFact = (await tempora('facts', '--json').then((r) => JSON.parse(r.stdout) as { id: string; object: string }[])).find((f) => f.object === 'Osaka')!;
    const shown = await tempora('show', osakaFact.id);
    expect(shown.stdout).toContain(`${osaka}  said 15 Sept 2026, 09:00  "I moved to Osaka."`);

    const undone = await tempora('undo', osaka);
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    expect(undone.stdout).toBe(`Undone what message ${osaka} (“I moved to Osaka.”) taught: forgot 1 fact; reopened I live in Tokyo.\nTo apply it again: tempora redo ${osaka}\n`);
    expect(livesIn()).toEqual([['Tokyo', '2026-09-01T00:00:00.000Z', null]]);

    const redone = await tempora('redo', osaka);
    expect(redone.code).toBe(0);
    expect(redone.stdout).toMatch(new RegExp(`^Redone what message ${osaka} \\(“I moved to Osaka\\.”\\) taught: Learned: I live in Osaka\\. · Closed: I live in Tokyo\\. \\(1 Sept – 15 Sept 2026\\)\\nTo take it back: tempora undo ${osaka}\\n$`));
    expect(livesIn()).toEqual(learned);
  }, 60_000);

  it('refuses in one sentence and changes nothing', async () => {
    const before = livesIn();
    const missing = await tempora('undo', 'epi_nowhere');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('tempora: no message with id epi_nowhere\n');
    const notUndone = await tempora('redo', osaka);
    expect(notUndone.code).toBe(1);
    expect(notUndone.stderr).toBe(`tempora: message ${osaka} is not undone: there is nothing to redo\n`);
    const noId = await tempora('undo');
    expect(noId.code).toBe(2);
    expect(noId.stderr).toBe("tempora: undo needs MESSAGE_ID\nRun 'tempora help undo' for usage.\n");
    expect(livesIn()).toEqual(before);
  }, 60_000);
});

describe('tempora undo twice', () => {
  it('says when it was undone in the user\'s zone, not in UTC, and changes nothing', async () => {
    expect((await tempora('undo', osaka)).code).toBe(0);
    const undone = livesIn();
    const again = await tempora('undo', osaka);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(new RegExp(`^tempora: message ${osaka} was already undone \\(at \\d{1,2} \\w+ \\d{4}, \\d\\d:\\d\\d GMT\\+9\\): there is nothing left to undo\\n$`));
    expect(livesIn()).toEqual(undone);
    expect((await tempora('redo', osaka)).code).toBe(0);
  }, 60_000);
});

describe('tempora undo on an observation', () => {
  it('says it is an observation, not undone by undo, and names the command that takes it back; the memory is unchanged', async () => {
    const before = livesIn();
    writeFileSync(join(dir, 'kyoto.jsonl'), `${JSON.stringify({ subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-10-01T09:00:00+09:00', cardinality: 'one' })}\n`);
    const observed = await tempora('observe', join(dir, 'kyoto.jsonl'), '--json');
    expect(observed.code).toBe(0);
    const kyoto = (JSON.parse(observed.stdout) as { episodeIds: string[] }).episodeIds[0]!;
    const withKyoto = livesIn();

    const refused = await tempora('undo', kyoto);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `tempora: message ${kyoto} is an observation (given with tempora observe or by an agent), not learned by a model, and undo takes back only what a model learned; ` +
        `to take back what it added and closed, forget it with what it taught (tempora forget --episode ${kyoto}, or in the app Forget on a fact it gave, with its sources), or correct a fact (tempora edit FACT_ID, or Edit on its page)\n`,
    );
    expect(refused.stderr).not.toMatch(/not for learning/);
    expect(livesIn()).toEqual(withKyoto);

    // What it points to does what it says: Kyoto goes and Osaka, which it closed, is open again.
    const forgot = await tempora('forget', '--episode', kyoto);
    expect(forgot.code).toBe(0);
    expect(livesIn()).toEqual(before);

    // Still an observation once the user has closed the fact it gave (its claims are the user's now).
    writeFileSync(join(dir, 'nara.jsonl'), `${JSON.stringify({ subject: 'me', predicate: 'likes', object: 'Nara', fact: 'I like Nara.', reference_time: '2026-10-02T09:00:00+09:00' })}\n`);
    const nara = (JSON.parse((await tempora('observe', join(dir, 'nara.jsonl'), '--json')).stdout) as { episodeIds: string[] }).episodeIds[0]!;
    const memory = openMemory({ dataDir: data });
    const liked = memory.facts.list({ subject: 'me', predicate: 'likes' }).find((f) => f.object === 'Nara')!.id;
    memory.close();
    expect((await tempora('close', liked, '--at', '2027-01-01')).code).toBe(0);
    const again = await tempora('undo', nara);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^tempora: message ${nara} is an observation \\(given with tempora observe or by an agent\\)`));
  }, 60_000);
});
