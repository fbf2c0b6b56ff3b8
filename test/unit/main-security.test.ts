/**
 * The Electron shell's checklist items that can be checked without Electron: the allow-list for
 * shell.openExternal, navigation and window-opening rules, permissions, the window's
 * webPreferences, and the graceful quit. Electron is replaced by stand-ins.
 */
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const opened: string[] = [];
const windows: Array<{ options: { webPreferences: Record<string, unknown> }; loaded: string[] }> = [];

vi.mock('electron', () => ({
  app: new EventEmitter(),
  shell: {
    openExternal: async (url: string) => {
      opened.push(url);
    },
  },
  nativeTheme: { shouldUseDarkColors: false },
  BrowserWindow: class {
    readonly loaded: string[] = [];
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      windows.push(this);
    }
    once() {}
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
  },
}));

const { isLocalDownload, isVettedExternalUrl } = await import('../../electron/main/external-links');
const { denyAllPermissions, hardenWebContents } = await import('../../electron/main/security');
const { createMainWindow } = await import('../../electron/main/window');
const { holdQuitUntilShutdown } = await import('../../electron/main/graceful-quit');
const { rendererLocation } = await import('../../electron/main/renderer-location');

const location = rendererLocation({ isPackaged: true, devServerUrl: undefined });

beforeEach(() => {
  opened.length = 0;
  windows.length = 0;
});

describe('links opened in the user’s browser', () => {
  it.each(['https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF', 'https://github.com/withcatai/node-llama-cpp#readme', 'https://huggingface.co/'])(
    'accepts %s',
    (url) => expect(isVettedExternalUrl(url)).toBe(true),
  );

  it.each([
    'http://huggingface.co/',
    'https://evil.example/',
    'https://huggingface.co.evil.example/',
    'https://evil.huggingface.co/',
    'https://user:pass@github.com/',
    'https://github.com:8443/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'ms-settings:',
    'https://github.com/a b',
    'https://github.com/\n',
    '',
    'not a url',
    `https://github.com/${'a'.repeat(3000)}`,
    42,
    null,
  ])('refuses %j', (url) => expect(isVettedExternalUrl(url)).toBe(false));

  it('lets the page save its own blobs, and nothing remote', () => {
    expect(isLocalDownload('blob:app://tempora/7d0c')).toBe(true);
    expect(isLocalDownload('data:application/json,{}')).toBe(true);
    expect(isLocalDownload('https://evil.example/x.exe')).toBe(false);
  });
});

class FakeContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  fire(name: string, url?: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

describe('every web contents', () => {
  let contents: FakeContents;
  beforeEach(() => {
    contents = new FakeContents();
    hardenWebContents(contents as unknown as Electron.WebContents, location);
  });

  it('stays on the app’s own pages', () => {
    expect(contents.fire('will-navigate', 'app://tempora/index.html#/facts')).toBe(false);
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(opened).toEqual([]);
  });

  it('hands a vetted https link to the browser instead of navigating to it', () => {
    expect(contents.fire('will-navigate', 'https://huggingface.co/Qwen')).toBe(true);
    expect(opened).toEqual(['https://huggingface.co/Qwen']);
  });

  it('never opens a new window; vetted links go to the browser', () => {
    expect(contents.windowOpenHandler?.({ url: 'https://github.com/x' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'app://tempora/index.html' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/x']);
  });

  it('refuses <webview>', () => {
    expect(contents.fire('will-attach-webview')).toBe(true);
  });
});

describe('permissions', () => {
  it('denies every request and check, and remote downloads', () => {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const session = Object.assign(new EventEmitter(), {
      setPermissionRequestHandler: (h: (...args: never[]) => unknown) => (handlers.request = h),
      setPermissionCheckHandler: (h: (...args: never[]) => unknown) => (handlers.check = h),
      setDevicePermissionHandler: (h: (...args: never[]) => unknown) => (handlers.device = h),
    });
    denyAllPermissions(session as unknown as Electron.Session);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
      let granted: boolean | undefined;
      (handlers.request as (w: unknown, p: string, cb: (g: boolean) => void) => void)({}, permission, (g) => (granted = g));
      expect(granted).toBe(false);
      expect((handlers.check as (w: unknown, p: string) => boolean)({}, permission)).toBe(false);
    }
    expect((handlers.device as (d: unknown) => boolean)({})).toBe(false);
    const download = (url: string) => {
      let prevented = false;
      session.emit('will-download', { preventDefault: () => (prevented = true) }, { getURL: () => url });
      return prevented;
    };
    expect(download('https://evil.example/payload.exe')).toBe(true);
    expect(download('blob:app://tempora/1234')).toBe(false);
  });
});

describe('the main window', () => {
  it('is sandboxed, context-isolated, without Node, webview or insecure content', () => {
    createMainWindow(location);
    const prefs = windows[0]!.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(windows[0]!.loaded).toEqual(['app://tempora/index.html']);
  });
});

describe('quitting', () => {
  function fakeApp() {
    const app = Object.assign(new EventEmitter(), { exits: [] as number[], exit: (code?: number) => app.exits.push(code ?? 0) });
    const quit = () => {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      return prevented;
    };
    return { app, quit };
  }

  it('holds the quit until the engine has closed, once, then exits', async () => {
    const { app, quit } = fakeApp();
    let finish!: () => void;
    let shutdowns = 0;
    holdQuitUntilShutdown(app, () => {
      shutdowns++;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(quit()).toBe(true);
    expect(quit()).toBe(true); // a second Cmd-Q while closing is absorbed
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shutdowns).toBe(1);
    expect(app.exits).toEqual([]);
    finish();
    await vi.waitFor(() => expect(app.exits).toEqual([0]));
    expect(quit()).toBe(false);
  });

  it('still exits (with status 1) when closing fails', async () => {
    const { app, quit } = fakeApp();
    const logged: string[] = [];
    holdQuitUntilShutdown(app, async () => Promise.reject(new Error('disk full')), { log: (m) => logged.push(m) });
    quit();
    await vi.waitFor(() => expect(app.exits).toEqual([1]));
    expect(logged.join()).toMatch(/disk full/);
  });

  it('gives up on a shutdown that hangs', async () => {
    const { app, quit } = fakeApp();
    const logged: string[] = [];
    holdQuitUntilShutdown(app, () => new Promise<void>(() => undefined), { timeoutMs: 50, log: (m) => logged.push(m) });
    quit();
    await vi.waitFor(() => expect(app.exits).toEqual([1]));
    expect(logged.join()).toMatch(/longer than/);
  });
});
