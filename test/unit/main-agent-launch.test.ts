/**
 * How another agent starts the desktop app's `tempora mcp` (electron/main/agent-launch.ts): the
 * installed Linux package's launcher bin/tempora; elsewhere, and unpackaged, the app's binary as Node
 * on the built out/main/cli.js with better-sqlite3 for that binary; a data directory of its own passed on.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentLaunch } from '../../electron/main/agent-launch';

const linuxApp = { isPackaged: true, platform: 'linux' as const, execPath: '/opt/Tempora/tempora', appPath: '/opt/Tempora/resources/app.asar' };

describe('agentLaunch', () => {
  it('is bin/tempora beside the binary in the installed Linux package', () => {
    expect(agentLaunch(linuxApp)).toEqual({ command: join('/opt/Tempora', 'bin', 'tempora'), args: ['mcp'] });
    expect(agentLaunch({ ...linuxApp, dataDir: '/data/mine' })).toEqual({ command: join('/opt/Tempora', 'bin', 'tempora'), args: ['mcp', '--data', '/data/mine'] });
  });

  it('is the app binary as Node on the built command on macOS and Windows, and unpackaged', () => {
    const mac = { isPackaged: true, platform: 'darwin' as const, execPath: '/Applications/Tempora.app/Contents/MacOS/Tempora', appPath: '/Applications/Tempora.app/Contents/Resources/app.asar', nativeBinding: '/n/better_sqlite3.node' };
    expect(agentLaunch(mac)).toEqual({
      command: mac.execPath,
      args: [join(mac.appPath, 'out', 'main', 'cli.js'), 'mcp'],
      env: { ELECTRON_RUN_AS_NODE: '1', TEMPORA_SQLITE_BINDING: '/n/better_sqlite3.node' },
    });
    const checkout = { isPackaged: false, platform: 'linux' as const, execPath: '/repo/node_modules/electron/dist/electron', appPath: '/repo' };
    expect(agentLaunch(checkout)).toEqual({ command: checkout.execPath, args: [join('/repo', 'out', 'main', 'cli.js'), 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  });
});
