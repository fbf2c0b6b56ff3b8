/**
 * A first sync's segment checks on the machine's other core (electron/sync/segment-checks.ts): the
 * worker reads and checks each spooled segment as it is added, and the main thread takes them in
 * order, exactly as readSegment would give them — a segment refused in the same words — and whatever
 * the worker cannot do (stopped, a file it cannot read) this thread does itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentChecks } from '../../electron/sync/segment-checks';
import { encodeSegment, readSegment, recordOf, SegmentError, type SegmentCipher } from '../../electron/sync/segments';
import { SYNC_FORMAT } from '../../shared/sync-records';

const plain: SegmentCipher = { seal: (_name, bytes) => bytes, open: (_name, bytes) => bytes };
const DEVICE = 'a'.repeat(32);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `n` segments of `perSegment` messages each, spooled to files as a first sync spools them; `tamper` changes one record's text after sealing. */
async function spooled(n: number, perSegment: number, tamper?: number): Promise<{ name: string; file: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-checks-test-'));
  dirs.push(dir);
  const out: { name: string; file: string }[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const records = Array.from({ length: perSegment }, (_, i) =>
      recordOf(DEVICE, '2026-11-01T00:00:00.000Z', { kind: 'episode', id: `epi_${seq}_${i}`, conversation_id: null, role: 'user', content: `message ${i} of segment ${seq}: 昨日は雨でした`, reference_time: '2026-11-01T00:00:00.000Z', created_at: '2026-11-01T00:00:00.000Z', utc_offset: '+09:00', time_zone: 'Asia/Tokyo' }),
    );
    const { name, bytes } = await encodeSegment({ format: SYNC_FORMAT, device: DEVICE, deviceName: 'desk', seq }, records, plain);
    let content = bytes;
    if (seq === tamper) content = gzipSync(Buffer.from(gunzipSync(bytes).toString('utf8').replace('昨日は雨でした', '昨日は晴れでした')));
    const file = join(dir, String(seq));
    writeFileSync(file, content);
    out.push({ name, file });
  }
  return out;
}

/** What the main thread would read on its own. */
function inThread(segment: { name: string; file: string }, bytes: Buffer) {
  try {
    return readSegment(segment.name, bytes);
  } catch (error) {
    if (error instanceof SegmentError) return { refused: error.message };
    throw error;
  }
}

describe('segment checks on a worker', () => {
  it('gives every segment in order as readSegment reads it, a bad one refused in the same words, all checked on the worker', async () => {
    const segments = await spooled(12, 50, 7);
    const checks = SegmentChecks.start({ worker: true });
    try {
      for (const segment of segments) checks.add(segment);
      checks.end();
      const taken = segments.map(() => checks.take());
      expect(taken).toEqual(segments.map((s) => inThread(s, readFileSync(s.file))));
      expect(taken[6]).toEqual({ refused: expect.stringMatching(/^Record 1 of the segment devices\/a{32}\/segments\/00000007-[0-9a-f]{16} does not match its id\.$/) });
      expect(taken.filter((t) => 'records' in t)).toHaveLength(11);
      expect(checks.checkedByWorker).toBe(12);
      expect(() => checks.take()).toThrow('no segment 13: 12 were spooled');
    } finally {
      checks.close();
    }
  });

  it('takes segments added while it works, and after it is stopped checks the rest in this thread', async () => {
    const segments = await spooled(6, 20);
    const checks = SegmentChecks.start({ worker: true });
    try {
      checks.add(segments[0]!);
      checks.add(segments[1]!);
      expect(checks.take()).toMatchObject({ header: { seq: 1 } });
      for (const segment of segments.slice(2)) checks.add(segment);
      checks.end();
      expect(checks.take()).toMatchObject({ header: { seq: 2 } });
      checks.close();
      expect(segments.slice(2).map(() => checks.take())).toMatchObject([3, 4, 5, 6].map((seq) => ({ header: { seq }, records: { length: 20 } })));
      expect(checks.checkedByWorker).toBe(2);
    } finally {
      checks.close();
    }
  });

  it('a spooled file the worker cannot read is read by this thread, which fails as it would alone', async () => {
    const [segment] = await spooled(1, 5);
    const checks = SegmentChecks.start({ worker: true });
    try {
      checks.add({ name: segment!.name, file: `${segment!.file}-gone` });
      checks.end();
      expect(() => checks.take()).toThrow(/ENOENT/);
      expect(checks.checkedByWorker).toBe(0);
    } finally {
      checks.close();
    }
  });

  it('passes over a segment unread when asked, on the worker and without it, and the order holds', async () => {
    const segments = await spooled(3, 5);
    for (const worker of [true, false]) {
      const checks = SegmentChecks.start({ worker });
      try {
        segments.forEach((s) => checks.add(s));
        checks.end();
        checks.skip();
        expect(checks.take()).toMatchObject({ header: { seq: 2 } });
        checks.skip();
        expect(() => checks.take()).toThrow('no segment 4: 3 were spooled');
      } finally {
        checks.close();
      }
    }
  });

  it('stopped at any moment, the worker leaves on its own and is never cut off inside a read (Node 20 aborts the process then)', async () => {
    const segments = await spooled(6, 400);
    for (let round = 0; round < 12; round++) {
      const checks = SegmentChecks.start({ worker: true });
      segments.forEach((s) => checks.add(s));
      checks.end();
      if (round % 2) expect(checks.take()).toMatchObject({ header: { seq: 1 } });
      for (const until = Date.now() + round; Date.now() < until; );
      checks.close();
      await expect(checks.exited).resolves.toBe(0);
    }
    await expect(SegmentChecks.start({ worker: false }).exited).resolves.toBeNull();
  });

  it('without a worker, checks each segment in this thread when it is taken', async () => {
    const segments = await spooled(3, 10, 2);
    const checks = SegmentChecks.start({ worker: false });
    segments.forEach((s) => checks.add(s));
    checks.end();
    expect(segments.map(() => checks.take())).toMatchObject([{ header: { seq: 1 } }, { refused: expect.stringContaining('does not match its id') }, { header: { seq: 3 } }]);
    expect(checks.checkedByWorker).toBe(0);
  });
});
