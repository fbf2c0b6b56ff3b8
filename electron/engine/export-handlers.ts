/**
 * The API calls of exporting through the screens (shared/export-download.ts): each open export is
 * the memory's export stream (one snapshot, read a record at a time on a connection of its own), kept
 * here by id between the page's pulls. An export nobody pulls for IDLE_MS is closed (a page closed
 * mid-way must not hold a read snapshot, and with it the database's write-ahead log, for ever); at
 * most MAX_OPEN are open at once; the memory ends any still open when it closes. Part of createApiHandlers.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import type { ExportStream } from '../memory/index';
import type { TemporaEngine } from './engine';

type ExportCalls = 'exportBegin' | 'exportRead' | 'exportCancel';
type ExportHandlers = { [N in ExportCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

/** An export not pulled for this long is closed. */
export const IDLE_MS = 60_000;
/** Exports open at once (each holds a read snapshot). */
export const MAX_OPEN = 4;

export function exportHandlers(engine: TemporaEngine): ExportHandlers {
  const open = new Map<string, { stream: ExportStream; idle: NodeJS.Timeout }>();
  const end = (exportId: string) => {
    const held = open.get(exportId);
    if (!held) return;
    clearTimeout(held.idle);
    held.stream.close();
    open.delete(exportId);
  };
  const idleTimer = (exportId: string) => {
    const timer = setTimeout(() => end(exportId), IDLE_MS);
    timer.unref();
    return timer;
  };
  return {
    exportBegin: async () => {
      if (open.size >= MAX_OPEN) throw new ApiError('invalid_input', `${MAX_OPEN} exports are already being saved: let one finish, or cancel it`);
      const stream = engine.memory.transfer.openExport();
      const exportId = `exp_${randomBytes(10).toString('hex')}`;
      open.set(exportId, { stream, idle: idleTimer(exportId) });
      const { conversations, episodes, entities, facts } = stream.counts;
      return { exportId, exportedAt: stream.exportedAt, counts: { conversations, episodes, entities, facts }, totalRecords: stream.totalRecords };
    },
    exportRead: async ({ exportId }) => {
      const held = open.get(exportId);
      if (!held) throw new ApiError('invalid_input', 'this export is no longer open (it was cancelled, finished, or left unread for a minute): start it again', { field: 'exportId' });
      clearTimeout(held.idle);
      let text: string | null;
      try {
        text = held.stream.next();
      } catch (error) {
        end(exportId);
        throw error;
      }
      const piece = { text: text ?? '\n', records: held.stream.records, totalRecords: held.stream.totalRecords, done: text === null };
      if (piece.done) end(exportId);
      else held.idle = idleTimer(exportId);
      return piece;
    },
    exportCancel: async ({ exportId }) => {
      end(exportId);
      return { ok: true as const };
    },
  };
}
