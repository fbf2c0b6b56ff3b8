/**
 * Exporting through the API (exportBegin / exportRead / exportCancel), as the screens do over IPC
 * and the bridge: the counts up front, pieces that join to the memory's own export, a progress that
 * reaches the total, and in words: an export cancelled, finished or left unread is no longer open;
 * a fifth export at once is refused. Writes made while a page pulls do not enter the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_MS, MAX_OPEN } from '../../electron/engine/export-handlers';
import type { ExportBegun, ExportPiece } from '../../shared/export-download';
import { withEngine, type ApiCall } from '../fixtures/engine-calls';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tempora-export-calls-'));
  dirs.push(d);
  return d;
};

async function pullAll(call: ApiCall, exportId: string): Promise<ExportPiece[]> {
  const pieces: ExportPiece[] = [];
  for (;;) {
    const piece = (await call('exportRead', { exportId })) as ExportPiece;
    pieces.push(piece);
    if (piece.done) return pieces;
  }
}

const timeless = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": ""');

describe('export through the API', () => {
  it('counts first, then pieces that join to the memory’s export (with its final newline), the progress reaching the total', async () => {
    await withEngine(dataDir(), async (call, engine) => {
      engine.memory.facts.observe([
        { subject: 'me', predicate: 'manager', object: 'Aiko Tanaka', fact: 'My manager is Aiko Tanaka.', reference_time: '2026-09-01T09:00:00+09:00' },
        { subject: 'me', predicate: 'lives_in', object: '東京', fact: '東京に住んでいる。', reference_time: '2026-09-02T09:00:00+09:00' },
      ]);
      const begun = (await call('exportBegin')) as ExportBegun;
      expect(begun.counts).toEqual({ conversations: 1, episodes: 2, entities: 3, facts: 2 });
      // A write while the page pulls is not in this file.
      engine.memory.facts.observe([{ subject: 'me', predicate: 'hobby', object: 'salsa', fact: 'I dance salsa.', reference_time: '2026-09-03T09:00:00+09:00' }]);
      const pieces = await pullAll(call, begun.exportId);
      const text = pieces.map((p) => p.text).join('');
      expect(text.endsWith('}\n')).toBe(true);
      expect(pieces.at(-1)!.records).toBe(begun.totalRecords);
      const doc = JSON.parse(text) as { exported_at: string; facts: { fact: string }[] };
      expect(doc.exported_at).toBe(begun.exportedAt);
      expect(doc.facts.map((f) => f.fact)).toEqual(['My manager is Aiko Tanaka.', '東京に住んでいる。']);
      // Finished: no longer open.
      await expect(call('exportRead', { exportId: begun.exportId })).rejects.toThrow(/this export is no longer open/);
      // And the next export holds the write.
      const again = (await call('exportBegin')) as ExportBegun;
      expect(again.counts.facts).toBe(3);
      expect(timeless((await pullAll(call, again.exportId)).map((p) => p.text).join(''))).toBe(timeless(`${JSON.stringify(engine.memory.transfer.export(), null, 2)}\n`));
    });
  });

  it('cancelled or left unread for a minute, an export is closed and says so; a fifth at once is refused in words', async () => {
    await withEngine(dataDir(), async (call, engine) => {
      engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T09:00:00Z' }]);
      const cancelled = (await call('exportBegin')) as ExportBegun;
      await call('exportCancel', { exportId: cancelled.exportId });
      await expect(call('exportRead', { exportId: cancelled.exportId })).rejects.toThrow(/this export is no longer open \(it was cancelled, finished, or left unread for a minute\): start it again/);

      vi.useFakeTimers();
      const left = (await call('exportBegin')) as ExportBegun;
      vi.advanceTimersByTime(IDLE_MS - 1);
      expect(((await call('exportRead', { exportId: left.exportId })) as ExportPiece).done).toBe(false);
      vi.advanceTimersByTime(IDLE_MS);
      await expect(call('exportRead', { exportId: left.exportId })).rejects.toThrow(/no longer open/);
      vi.useRealTimers();

      const open: ExportBegun[] = [];
      for (let i = 0; i < MAX_OPEN; i++) open.push((await call('exportBegin')) as ExportBegun);
      await expect(call('exportBegin')).rejects.toThrow(`${MAX_OPEN} exports are already being saved: let one finish, or cancel it`);
      await call('exportCancel', { exportId: open[0]!.exportId });
      await expect(call('exportBegin')).resolves.toMatchObject({ counts: { facts: 1 } });
      await expect(call('exportRead', { exportId: 'not-an-id' })).rejects.toThrow(/exportId: must be an id given by exportBegin/);
    });
  });
});
