/**
 * How another agent starts the desktop app's `tempora mcp` (Settings → Connect an agent): on Linux,
 * the installed package's launcher bin/tempora (what /usr/bin/tempora links to); elsewhere, and from
 * a build that is not packaged, the app's own binary run as Node (ELECTRON_RUN_AS_NODE, as bin/tempora
 * does) on the built command out/main/cli.js, with better-sqlite3 built for that binary. A data
 * directory other than the app's default (TEMPORA_DATA_DIR) is passed on. No electron import.
 */
import { dirname, join } from 'node:path';
import type { StdioLaunch } from '../engine/agent-configs';

export interface AppLayout {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** The app's binary (process.execPath). */
  execPath: string;
  /** app.getAppPath(): <resources>/app.asar when packaged, the checkout otherwise. */
  appPath: string;
  /** better-sqlite3 for this binary (native-binding.ts), when found. */
  nativeBinding?: string;
  /** Set when the memory is not at the app's default place. */
  dataDir?: string;
}

export function agentLaunch(layout: AppLayout): StdioLaunch {
  const data = layout.dataDir ? ['--data', layout.dataDir] : [];
  if (layout.isPackaged && layout.platform === 'linux') return { command: join(dirname(layout.execPath), 'bin', 'tempora'), args: ['mcp', ...data] };
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1', ...(layout.nativeBinding ? { TEMPORA_SQLITE_BINDING: layout.nativeBinding } : {}) };
  return { command: layout.execPath, args: [join(layout.appPath, 'out', 'main', 'cli.js'), 'mcp', ...data], env };
}
