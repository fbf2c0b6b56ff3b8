/**
 * Tempora's main process: one instance, data in the user-data directory, the engine (memory,
 * models, ingestion, vectors) opened with the Electron-ABI build of better-sqlite3, every call of
 * the API contract on IPC, engine events pushed to the windows, one hardened window, and a quit
 * that lets the ingestion job in flight finish (or returns it to the queue) before exiting.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, safeStorage, session } from 'electron';
import { EVENT_CHANNEL, type ApiEventEnvelope } from '../../shared/api-contract';
import { createApiHandlers } from '../engine/api-handlers';
import { TemporaEngine } from '../engine/engine';
import { agentLaunch, type AppLayout } from './agent-launch';
import { defaultCommandDir, putCommandOnPath } from './command-on-path';
import { holdQuitUntilShutdown } from './graceful-quit';
import { McpService } from './mcp-service';
import { registerIpc, unregisterIpc } from './ipc';
import { electronNativeBindingPath, findNativeBinding } from './native-binding';
import { registerAppScheme, serveRenderer } from './protocol';
import { isAppUrl, rendererLocation } from './renderer-location';
import { applyDevCsp, denyAllPermissions, lockDownWebContents } from './security';
import { createMainWindow } from './window';

const RENDERER_DIR = join(import.meta.dirname, '../renderer');

function start(): void {
  const location = rendererLocation({ isPackaged: app.isPackaged, devServerUrl: process.env['ELECTRON_RENDERER_URL'] });
  let mainWindow: BrowserWindow | null = null;
  let engine: TemporaEngine | null = null;
  let mcp: McpService | null = null;

  // Every renderer sandboxed, whatever a window's webPreferences say (Electron's checklist).
  app.enableSandbox();
  registerAppScheme();
  lockDownWebContents(location);

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => app.quit());

  // Graceful quit: hold the quit once, close the engine (the ingestion job in flight finishes or
  // goes back to the queue; chats stop; SQLite and LanceDB close cleanly), then exit for real.
  holdQuitUntilShutdown(app, async () => {
    const closing = engine;
    const closingMcp = mcp;
    engine = null;
    mcp = null;
    unregisterIpc();
    await closingMcp?.close().catch(() => undefined);
    await closing?.close();
  });

  void app.whenReady().then(async () => {
    denyAllPermissions(session.defaultSession);
    applyDevCsp(session.defaultSession, location);
    serveRenderer(RENDERER_DIR);

    const opened = await openEngineOrExplain();
    if (!opened) {
      app.exit(1);
      return;
    }
    engine = opened;
    const service = new McpService(opened, (error) => console.error(`tempora: mcp: ${error.message}`));
    mcp = service;
    const handlers = createApiHandlers(opened, {
      pickModelFile: () => pickModelFile(mainWindow),
      pickChatExport: () => pickChatExport(mainWindow),
      mcp: service,
      agentLaunch: () => launchForAgents(),
      ...commandOnPathHere(),
      ...keychainSealer(),
    });
    registerIpc(handlers, location.origin);
    opened.onEvent((event) => sendToWindows(event, location.origin));

    mainWindow = createMainWindow(location);
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
    // The models used last time load after the window is up, so it appears at once; the Models
    // screen hears about it through modelsChanged.
    void loadLastModels(opened);
    // MCP over HTTP for other local agents, when the user turned it on (off by default).
    void service.start().catch((error: unknown) => console.error(`tempora: mcp: could not start: ${(error as Error).message}`));
  });
}

/**
 * Sync's kept key sealed by the system's keychain (Keychain, DPAPI, libsecret/KWallet) where
 * Electron has one; Linux's 'basic_text' fallback is no keychain, so there the owner-only file alone.
 */
function keychainSealer(): { secretSealer?: { seal(text: string): Buffer; open(sealed: Buffer): string } } {
  if (!safeStorage.isEncryptionAvailable()) return {};
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return {};
  return { secretSealer: { seal: (text) => safeStorage.encryptString(text), open: (sealed) => safeStorage.decryptString(sealed) } };
}

async function openEngineOrExplain(): Promise<TemporaEngine | null> {
  const context = {
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    electronVersion: process.versions.electron,
  };
  const nativeBinding = findNativeBinding(context);
  // TEMPORA_DATA_DIR is honoured as by the `tempora` command (tests point it at a temporary folder).
  const dataDir = process.env['TEMPORA_DATA_DIR'] || app.getPath('userData');
  try {
    return await TemporaEngine.open({ dataDir, autoLoadModels: false, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (error) {
    const hint = nativeBinding
      ? ''
      : `\n\nbetter-sqlite3 built for Electron was not found at ${electronNativeBindingPath(context)}. ` +
        'Run `npm start`, which builds it (scripts/ensure-electron.mjs).';
    dialog.showErrorBox('Tempora could not open its memory', `${(error as Error).message}\n\nData directory: ${dataDir}${hint}`);
    return null;
  }
}

/** The app's layout, for starting its command from elsewhere. */
function appLayout(): AppLayout {
  const context = { isPackaged: app.isPackaged, appPath: app.getAppPath(), resourcesPath: process.resourcesPath, electronVersion: process.versions.electron };
  const nativeBinding = findNativeBinding(context);
  const dataDir = process.env['TEMPORA_DATA_DIR'];
  return { isPackaged: app.isPackaged, platform: process.platform, execPath: process.execPath, appPath: app.getAppPath(), ...(nativeBinding ? { nativeBinding } : {}), ...(dataDir ? { dataDir } : {}) };
}

/** How another agent starts this app's `tempora mcp` (Settings → Connect an agent). */
function launchForAgents() {
  return agentLaunch(appLayout());
}

/** "Put tempora on the PATH": the installed app on macOS and Windows (on Linux the package does it). */
function commandOnPathHere() {
  if (!app.isPackaged || process.platform === 'linux') return {};
  const dir = defaultCommandDir({ platform: process.platform, execPath: process.execPath });
  return { commandOnPath: { dir, put: () => putCommandOnPath(appLayout(), { dir, path: process.env['PATH'] }) } };
}

/** What TemporaEngine.open({ autoLoadModels: true }) does, but after the window is shown. */
async function loadLastModels(engine: TemporaEngine): Promise<void> {
  try {
    await engine.models.autoLoad();
    if (engine.models.host.embeddingModel) await engine.vectors.attach();
    engine.worker.notify();
  } catch (error) {
    engine.models.lastError = (error as Error).message;
  }
  engine.emit({ name: 'modelsChanged', payload: {} });
}

/** Engine events go to every window that shows the app's own page (and nowhere else). */
function sendToWindows(event: ApiEventEnvelope, appOrigin: string): void {
  for (const window of BrowserWindow.getAllWindows()) {
    const contents = window.webContents;
    if (contents.isDestroyed() || !isAppUrl(contents.getURL(), appOrigin)) continue;
    contents.send(EVENT_CHANNEL, event);
  }
}

async function pickModelFile(parent: BrowserWindow | null): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Choose a GGUF model file',
    properties: ['openFile'],
    filters: [{ name: 'GGUF models', extensions: ['gguf'] }],
  };
  const result = parent && !parent.isDestroyed() ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** A ChatGPT or Claude export: the path goes to the engine, which streams the file (no 200 MB through IPC). */
async function pickChatExport(parent: BrowserWindow | null): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Choose a ChatGPT or Claude export',
    properties: ['openFile'],
    filters: [{ name: 'Chat exports (.zip, conversations.json)', extensions: ['zip', 'json'] }],
  };
  const result = parent && !parent.isDestroyed() ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

// --user-data-dir=DIR (Chromium's switch) moves the user-data directory, and with it the
// single-instance lock, which lives there: a test run with its own DIR neither hands its start to a
// Tempora the user has open nor reads that one's memory. Must happen before the lock and 'ready'.
const userDataDir = app.commandLine.getSwitchValue('user-data-dir');
if (userDataDir) app.setPath('userData', userDataDir);

if (app.requestSingleInstanceLock()) {
  start();
} else {
  // Another instance holds the lock; it gets a 'second-instance' event and focuses its window.
  app.quit();
}
