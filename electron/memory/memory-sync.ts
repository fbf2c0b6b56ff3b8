/**
 * memory.sync: this memory's side of sync (issue 31; docs/sync.md) — this device, what it has not
 * sent, the segments it wrote, another device's segment applied in one write
 * (sync/sync-store.ts). A write that applied something is told as facts changed for reason
 * 'synced', with no narrower scope: a segment may touch anything.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryKernel } from './memory-kernel';
import { SyncStore } from './sync/sync-store';
import { BulkLoadHelper } from './transfer/bulk-load-helper';

export function memorySync(kernel: MemoryKernel): SyncStore {
  return new SyncStore(
    kernel.store,
    (fn, told, options) => kernel.write(fn, (result) => (told(result) ? { kind: 'facts', reason: 'synced', changes: kernel.settle() } : null), options),
    {
      checkpointInBackground: () => kernel.checkpointInBackground(),
      fullTextWorker: () => {
        const helper = kernel.readonly || kernel.path === ':memory:' ? null : BulkLoadHelper.spawn(kernel.store.db, kernel.path, kernel.nativeBinding, { fullTextOnly: true });
        // Its scratch database is removed when it exits: settled() waits for that.
        if (helper) kernel.inBackground(helper.exited);
        return helper;
      },
      // Beside the memory's file, on its disk; an in-memory store's in the system's temporary folder.
      spoolDir: kernel.path === ':memory:' ? join(tmpdir(), 'tempora-sync-spool') : `${kernel.path}.sync-spool`,
      lockFile: kernel.path === ':memory:' ? null : `${kernel.path}.sync-lock`,
    },
  );
}
