/**
 * Tempora's main process: one instance, data in the user-data directory, the memory opened with
 * the Electron-ABI build of better-sqlite3, one hardened window.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, session } from 'electron';
import { openMemory } from '../memory/index';
import { registerIpc } from './ipc';
import { findNativeBinding, electronNativeBindingPath } from './native-binding';
import { registerAppScheme, serveRenderer } from './protocol';
import { rendererLocation } from './renderer-location';
import { applyDevCsp, denyAllPermissions, lockDownWebContents } from './security';
import { createMainWindow } from './window';

type Memory = ReturnType<typeof openMemory>;

const RENDERER_DIR = join(import.meta.dirname, '../renderer');

function start(): void {
  const location = rendererLocation({ isPackaged: app.isPackaged, devServerUrl: process.env['ELECTRON_RENDERER_URL'] });
  let mainWindow: BrowserWindow | null = null;
  let memory: Memory | null = null;

  registerAppScheme();
  lockDownWebContents(location);

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => app.quit());

  app.on('will-quit', () => {
    memory?.close();
    memory = null;
  });

  void app.whenReady().then(() => {
    denyAllPermissions(session.defaultSession);
    applyDevCsp(session.defaultSession, location);
    serveRenderer(RENDERER_DIR);

    memory = openMemoryOrExplain();
    if (!memory) {
      app.exit(1);
      return;
    }
    registerIpc(memory, location.origin);
    mainWindow = createMainWindow(location);
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  });
}

function openMemoryOrExplain(): Memory | null {
  const context = {
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    electronVersion: process.versions.electron,
  };
  const nativeBinding = findNativeBinding(context);
  const dataDir = app.getPath('userData');
  try {
    return openMemory(nativeBinding ? { dataDir, nativeBinding } : { dataDir });
  } catch (error) {
    const hint = nativeBinding
      ? ''
      : `\n\nbetter-sqlite3 built for Electron was not found at ${electronNativeBindingPath(context)}. ` +
        'Run `npm start`, which builds it (scripts/ensure-electron.mjs).';
    dialog.showErrorBox('Tempora could not open its memory', `${(error as Error).message}\n\nData directory: ${dataDir}${hint}`);
    return null;
  }
}

if (app.requestSingleInstanceLock()) {
  start();
} else {
  // Another instance holds the lock; it gets a 'second-instance' event and focuses its window.
  app.quit();
}
