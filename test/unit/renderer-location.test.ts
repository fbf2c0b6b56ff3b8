import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, RENDERER_META_CSP } from '../../shared/csp';
import { APP_ENTRY_URL, isAppUrl, rendererFileFor, rendererLocation } from '../../electron/main/renderer-location';

describe('renderer location', () => {
  it('is app://tempora in production, even when a dev server URL leaks into the environment', () => {
    expect(rendererLocation({ isPackaged: true, devServerUrl: 'http://localhost:5173' })).toEqual({
      entryUrl: APP_ENTRY_URL,
      origin: 'app://tempora',
      dev: false,
    });
    expect(rendererLocation({ isPackaged: false, devServerUrl: undefined }).origin).toBe('app://tempora');
  });

  it('is the dev server in development', () => {
    expect(rendererLocation({ isPackaged: false, devServerUrl: 'http://localhost:5173/' })).toEqual({
      entryUrl: 'http://localhost:5173/',
      origin: 'http://localhost:5173',
      dev: true,
    });
  });
});

describe('trusted sender URLs', () => {
  it('accept the app’s own pages only', () => {
    expect(isAppUrl('app://tempora/index.html', 'app://tempora')).toBe(true);
    expect(isAppUrl('app://tempora/index.html#/facts', 'app://tempora')).toBe(true);
    expect(isAppUrl('app://evil/index.html', 'app://tempora')).toBe(false);
    expect(isAppUrl('app://tempora.evil/index.html', 'app://tempora')).toBe(false);
    expect(isAppUrl('https://tempora/index.html', 'app://tempora')).toBe(false);
    expect(isAppUrl('file:///tmp/index.html', 'app://tempora')).toBe(false);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('http://localhost:5173/src/main.tsx', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('', 'app://tempora')).toBe(false);
    expect(isAppUrl(null, 'app://tempora')).toBe(false);
    expect(isAppUrl('not a url', 'app://tempora')).toBe(false);
  });
});

describe('app:// file mapping', () => {
  const dir = resolve('/srv/out/renderer');

  it('serves files inside the renderer directory', () => {
    expect(rendererFileFor('app://tempora/', dir)).toBe(join(dir, 'index.html'));
    expect(rendererFileFor('app://tempora/index.html', dir)).toBe(join(dir, 'index.html'));
    expect(rendererFileFor('app://tempora/assets/index-abc.js?x=1#y', dir)).toBe(join(dir, 'assets', 'index-abc.js'));
    expect(rendererFileFor('app://tempora/%E6%8B%85%E5%BD%93.css', dir)).toBe(join(dir, '担当.css'));
  });

  it('refuses other hosts and schemes', () => {
    expect(rendererFileFor('app://other/index.html', dir)).toBeNull();
    expect(rendererFileFor('file:///etc/passwd', dir)).toBeNull();
    expect(rendererFileFor('app://tempora/%00.html', dir)).toBeNull();
    expect(rendererFileFor('app://tempora/%E0%A4%A', dir)).toBeNull();
  });

  it.each([
    'app://tempora/../../etc/passwd',
    'app://tempora/%2e%2e/%2e%2e/etc/passwd',
    'app://tempora/..%2f..%2fetc%2fpasswd',
    'app://tempora/assets/..%2f..%2f..%2f..%2fetc%2fpasswd',
    'app://tempora/%5c..%5c..%5cetc%5cpasswd',
  ])('never leaves the renderer directory: %s', (url) => {
    const file = rendererFileFor(url, dir);
    if (file !== null) expect(file.startsWith(dir + sep)).toBe(true);
  });
});

describe('content security policy', () => {
  it('allows only the app’s own scripts, styles and connections in production', () => {
    expect(RENDERER_CSP).toContain("default-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toContain('unsafe');
    expect(RENDERER_META_CSP).not.toContain('frame-ancestors');
  });
});
