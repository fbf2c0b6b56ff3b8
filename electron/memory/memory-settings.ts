/** Memory's settings: Tempora's one settings store (shared/settings-schema.ts), so that every door reads the same. */
import type { Settings } from '../../shared/settings-schema';
import type { MemoryKernel } from './memory-kernel';
import { readSettings, writeSettings } from './store/settings';

export class MemorySettings {
  constructor(private readonly kernel: MemoryKernel) {}

  read(): Settings {
    return readSettings(this.kernel.store);
  }

  /** Changes the settings named in `patch`; a value the schema refuses changes nothing. Returns them all. */
  update(patch: Partial<Settings>): Settings {
    const { store } = this.kernel;
    return store.db.transaction(() => writeSettings(store, patch)).immediate();
  }
}
