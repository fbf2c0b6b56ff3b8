/**
 * When a vector table is compacted and its old versions removed (electron/memory/vectors/
 * vector-upkeep.ts): only once writes have been quiet for the quiet time, never during a burst of
 * them, and at once on open when the last session left old versions — with the quiet time driven by
 * a clock the test moves (no waiting). Deletes (a forget) still take vectors out at once. Real LanceDB.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VectorIndex, type VectorRow } from '../../electron/memory/vectors/vector-index';
import type { UpkeepTimer } from '../../electron/memory/vectors/vector-upkeep';

const DIM = 64;
const QUIET = 90_000;

/** Timers that fire only when the test moves the clock. */
class TestClock {
  now = 0;
  private timers: { at: number; run: () => void; live: boolean }[] = [];
  readonly timer: UpkeepTimer = (run, ms) => {
    const t = { at: this.now + ms, run, live: true };
    this.timers.push(t);
    return { cancel: () => void (t.live = false) };
  };
  get armed(): number {
    return this.timers.filter((t) => t.live).length;
  }
  advance(ms: number): void {
    this.now += ms;
    for (const t of this.timers.filter((x) => x.live && x.at <= this.now)) {
      t.live = false;
      t.run();
    }
  }
}

function row(i: number): VectorRow {
  const vector = new Float32Array(DIM);
  vector[i % DIM] = 1; // one axis per row (ids below DIM)
  vector[(i + 1) % DIM] = 0.1;
  return { id: `fct_${i}`, kind: 'fact', vector, hash: `h${i}` };
}

const files = (dir: string, sub: string) => readdirSync(join(dir, 'items.lance', sub)).filter((f) => !f.startsWith('latest'));
const versions = (dir: string) => files(dir, '_versions').length;
const dataFiles = (dir: string) => files(dir, 'data').length;

let root: string;
let n = 0;
const open: VectorIndex[] = [];
async function openIndex(dir: string, clock: TestClock, options: Parameters<typeof VectorIndex.open>[2] = {}): Promise<VectorIndex> {
  // keepVersionsMs 0: the clean-up keeps no recent version (the default keeps a minute's for other processes)
  const index = await VectorIndex.open(dir, DIM, { table: 'items', kinds: ['fact'], annMinRows: Number.POSITIVE_INFINITY, upkeepQuietMs: QUIET, upkeepTimer: clock.timer, keepVersionsMs: 0, ...options });
  open.push(index);
  return index;
}

beforeAll(() => {
  process.env.LANCEDB_LOG ??= 'error';
  root = mkdtempSync(join(tmpdir(), 'tempora-upkeep-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((index) => index.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('vector table upkeep', () => {
  it('keeps every version through a burst of writes, and compacts and removes them once writes were quiet for the quiet time', async () => {
    const dir = join(root, `t${n++}`);
    const clock = new TestClock();
    const errors: unknown[] = [];
    // compactAfterWrites 4: a long burst is still compacted now and then, but loses no version
    const index = await openIndex(dir, clock, { compactAfterWrites: 4, onError: (e) => errors.push(e) });
    let before = versions(dir);
    for (let w = 0; w < 10; w++) {
      await index.upsert([0, 1, 2, 3, 4].map((k) => row(w * 5 + k)));
      await index.flush();
      expect(clock.armed).toBe(1); // one quiet timer, re-armed by each write
      expect(versions(dir)).toBeGreaterThan(before); // nothing removed
      before = versions(dir);
      clock.advance(QUIET - 1); // just inside the quiet time: the next write comes before it ends
      await index.flush();
    }
    expect(versions(dir)).toBeGreaterThanOrEqual(11);
    expect(dataFiles(dir)).toBeGreaterThan(1);

    clock.advance(1); // the quiet time is over
    expect(clock.armed).toBe(0);
    await index.flush();
    expect(versions(dir)).toBe(1);
    expect(dataFiles(dir)).toBe(1); // compacted, and the files of the old versions gone
    expect(await index.count()).toBe(50);
    expect((await index.search(row(23).vector, { limit: 1 }))[0]!.id).toBe('fct_23');
    expect(errors).toEqual([]);

    // the next write arms the timer again
    await index.upsert([row(50)]);
    await index.flush();
    expect(clock.armed).toBe(1);
    expect(versions(dir)).toBe(2);
  });

  it('closing does the upkeep still due; a table opened with old versions waits for its first quiet moment and keeps what another process may read', async () => {
    const dir = join(root, `t${n++}`);
    const first = await openIndex(dir, new TestClock());
    for (let w = 0; w < 5; w++) await first.upsert([row(w)]);
    await first.flush();
    expect(versions(dir)).toBeGreaterThanOrEqual(6);
    expect(dataFiles(dir)).toBe(5);

    // another handle (a session that did not close, another process) finds the old versions; with
    // the default minute kept, `first` (whose handle still reads its own last version) keeps working
    const clock = new TestClock();
    const other = await openIndex(dir, clock, { keepVersionsMs: 60_000 });
    await other.flush();
    expect(clock.armed).toBe(1);
    expect(versions(dir)).toBeGreaterThanOrEqual(6); // not under the first searches
    expect(await other.count()).toBe(5);
    clock.advance(QUIET);
    await other.flush();
    expect(versions(dir)).toBeGreaterThanOrEqual(6); // all younger than a minute: kept
    expect(await other.count()).toBe(5);
    await other.close();

    await first.upsert([row(5)]); // first's quiet time has not passed: close does the upkeep (keeping none: keepVersionsMs 0)
    await first.close();
    expect(versions(dir)).toBe(1);
    expect(dataFiles(dir)).toBe(1);

    const third = await openIndex(dir, clock);
    await third.flush();
    expect(clock.armed).toBe(0); // nothing was due
    expect(await third.count()).toBe(6);
    await third.close();
  });

  it('with an ANN index a quiet moment compacts and removes old versions only from 32 writes on', async () => {
    const dir = join(root, `t${n++}`);
    const clock = new TestClock();
    const index = await openIndex(dir, clock, { annMinRows: 40 });
    await index.upsert(Array.from({ length: 40 }, (_, i) => row(i)));
    await index.flush();
    expect(index.annIndexed).toBe(true); // built (and compacted) after that write
    const quiet = async () => {
      clock.advance(QUIET);
      await index.flush();
    };
    await quiet();
    const fragmentsAfterBuild = dataFiles(dir);
    expect(versions(dir)).toBe(1);
    for (let w = 0; w < 31; w++) await index.upsert([row(40 + (w % 20))]);
    await quiet();
    // 31 writes: nothing compacted (no index part added), so the old versions hold little: left as they are
    expect(versions(dir)).toBeGreaterThan(31);
    expect(dataFiles(dir)).toBe(fragmentsAfterBuild + 31);
    await index.upsert([row(45)]); // the 32nd
    await quiet();
    expect(versions(dir)).toBe(1);
    expect(dataFiles(dir)).toBeLessThan(fragmentsAfterBuild + 32); // compacted
    expect((await index.search(row(45).vector, { limit: 1 }))[0]!.id).toBe('fct_45');
    expect(await index.count()).toBe(60); // fct_40 … fct_59 added
  });

  it('a delete (a forget) takes the vector out at once, long before any upkeep', async () => {
    const dir = join(root, `t${n++}`);
    const clock = new TestClock();
    const index = await openIndex(dir, clock);
    await index.upsert([row(1), row(2), row(3)]);
    await index.delete(['fct_2']);
    expect(clock.armed).toBe(1); // the upkeep has not run
    expect((await index.search(row(2).vector, { limit: 3 })).map((h) => h.id)).not.toContain('fct_2');
    expect(await index.ids()).toEqual(new Set(['fct_1', 'fct_3']));
  });
});
