/**
 * `tempora show FACT_ID` reads like the fact page: each version says why it was written and what
 * changed from the one before, times in the user's zone ($TEMPORA_TZ) at their precision.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { runTempora } from './cli-helpers';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-show-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora show', () => {
  it('says why each version exists and what changed, in the zone', () => {
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    const memory = openMemory({ dataDir: join(dir, 'data'), clock });
    const observe = (object: string, at: string) =>
      memory.facts.observe([{ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: at, cardinality: 'one' }]);
    observe('A', '2026-09-01T01:00:00Z');
    const a = memory.facts.edit(memory.facts.list()[0]!.id, { fact: 'My manager is A-san.' });
    observe('B', '2026-09-15T01:00:00Z');
    memory.close();

    const run = runTempora(dir, clock, ['show', a.id], { TEMPORA_TZ: 'Asia/Tokyo', LANG: 'en_GB.UTF-8' });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const why = run.out.split('\n').filter((l) => l.trim().startsWith('why:')).map((l) => l.trim().replace(/fct_\w+|epi_\w+/g, 'ID'));
    expect(why).toEqual(['why: observed (structured input) (message ID)', 'why: your edit', 'why: closed by another fact (fact ID)']);
    expect(run.out).toContain('sentence: “My manager is A.” → “My manager is A-san.”');
    // B's start was implied by its line (no valid_at): a day, in the user's zone.
    expect(run.out).toContain('true until: still true → 15 Sept 2026\n');
  });

  it('names what closed the fact as it is now: the closing fact edited since is shown in its current version', () => {
    const clock = steppingClock('2026-11-01T00:00:00.000Z');
    const memory = openMemory({ dataDir: join(dir, 'data'), clock });
    const observe = (object: string, at: string) =>
      memory.facts.observe([{ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: at, cardinality: 'one' }]);
    observe('A', '2026-09-01T01:00:00Z');
    observe('B', '2026-09-15T01:00:00Z');
    const [b, a] = memory.facts.list({ history: true }).sort((x, y) => (x.valid_at < y.valid_at ? 1 : -1));
    const edited = memory.facts.edit(b!.id, { object: 'B-bucho', fact: 'My manager is B-bucho.' });
    memory.close();

    const run = runTempora(dir, clock, ['show', a!.id, '--json'], { TEMPORA_TZ: 'Asia/Tokyo' });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.out) as { closedBy: { id: string; fact: string } }).closedBy).toMatchObject({ id: edited.id, fact: 'My manager is B-bucho.' });
    const text = runTempora(dir, clock, ['show', a!.id], { TEMPORA_TZ: 'Asia/Tokyo', LANG: 'en_GB.UTF-8' }).out;
    expect(text).toContain(`Closed by ${edited.id}: My manager is B-bucho. (since 15 Sept 2026)`);
  });
});
