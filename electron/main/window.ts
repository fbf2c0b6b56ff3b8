/** The main window: sandboxed, context-isolated, no Node in the page, only the preload's API. */
import { join } from 'node:path';
import { BrowserWindow, nativeTheme } from 'electron';
import type { RendererLocation } from './renderer-location';

/** The preload bundle electron-vite writes next to out/main (CommonJS; see electron.vite.config.ts). */
const PRELOAD_PATH = join(import.meta.dirname, '../preload/index.cjs');

export function createMainWindow(location: RendererLocation): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 480,
    minHeight: 360,
    show: false,
    title: 'Tempora',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#18181b' : '#ffffff',
    webPreferences: {
      preload: PRELOAD_PATH, // eng-disable PRELOAD_JS_CHECK: reviewed: exposes only the contract's calls and onEvent
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click would otherwise ask for a new window (denied anyway by the window-open handler).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(location.entryUrl);
  return window;
}
