/**
 * The API calls of Settings → Sync over the sync service (electron/sync/sync-service.ts): the state
 * (target without its secrets, this device, status), save (checked against the target's key check
 * first), sync now (its progress pushed as `syncProgress` events) and pause. A refusal is one sentence (invalid_input), and nothing changes.
 * The sync core is the memory's sync room (memory.sync) run by sync-runner.ts; until the memory
 * offers it, the state says so and "Sync now" is refused in words. Part of createApiHandlers.
 */
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import type { SyncProgress } from '../../shared/sync-contract';
import { syncOnce, type SyncMemory } from '../sync/sync-runner';
import { SyncSecretStore, type SecretSealer } from '../sync/sync-secrets';
import { SyncService, SyncServiceError, type SyncCore } from '../sync/sync-service';
import { deviceNamedOnTarget, sameName } from '../sync/device-names';
import type { TemporaEngine } from './engine';

type SyncCalls = 'syncState' | 'saveSync' | 'syncNow' | 'setSyncPaused';
type SyncHandlers = { [N in SyncCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

/** The memory's sync room, when this memory has one (memory.sync: electron/memory/sync/sync-store.ts). */
type MemorySync = SyncMemory & {
  status(): ReturnType<SyncCore['status']>;
  setDeviceName(name: string): void;
  known(): { id: string | null; name: string };
  cursor(device: string): number;
  devicesSeen(): { id: string; name: string }[];
};

export function syncCoreOf(memory: object): SyncCore | null {
  const sync = (memory as { sync?: MemorySync }).sync;
  if (!sync || typeof sync.status !== 'function') return null;
  return {
    status: () => sync.status(),
    deviceName: () => sync.known().name,
    setDeviceName: (name) => sync.setDeviceName(name),
    nameTakenOnTarget: async (target, cipher, name) => {
      const me = sync.known();
      if (sameName(me.name, name)) return null;
      const seen = sync.devicesSeen();
      return deviceNamedOnTarget(target, cipher, name, { me: me.id, cursor: (device) => sync.cursor(device), nameSeen: (device) => seen.find((d) => d.id === device)?.name });
    },
    run: (target, cipher, onProgress) => syncOnce(sync, target, cipher, { onProgress }),
  };
}

export function syncHandlers(engine: TemporaEngine, sealer: SecretSealer | null = null, core: () => SyncCore | null = () => syncCoreOf(engine.memory)): SyncHandlers {
  const progress = (payload: SyncProgress) => engine.emit({ name: 'syncProgress', payload });
  const service = new SyncService(engine.memory.settings, new SyncSecretStore(join(engine.options.dataDir), sealer), core, progress);
  const refused = (error: unknown): never => {
    if (error instanceof SyncServiceError) throw new ApiError('invalid_input', error.message, { detail: error.detail });
    throw error;
  };
  return {
    syncState: async () => service.state(),
    saveSync: async (request) => service.save(request).catch(refused),
    syncNow: async () => service.syncNow().catch(refused),
    setSyncPaused: async ({ paused }) => service.setPaused(paused),
  };
}
