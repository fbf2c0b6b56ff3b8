/**
 * Process-wide hardening, following Electron's security checklist: no permissions, no navigation
 * away from the app, no new windows, no <webview>, vetted https links handed to the user's browser,
 * a CSP on the dev server's responses (production responses get theirs from protocol.ts).
 */
import { app, shell, type Session, type WebContents } from 'electron';
import { RENDERER_DEV_CSP } from '../../shared/csp';
import { isLocalDownload, isVettedExternalUrl } from './external-links';
import { isAppUrl, type RendererLocation } from './renderer-location';

/** Denies every permission request and check: the app uses none (camera, notifications, ...). */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // Saving the memory export is a download of a blob the page made; nothing else may download.
  session.on('will-download', (event, item) => {
    if (!isLocalDownload(item.getURL())) event.preventDefault();
  });
}

/** In development, adds the dev CSP to the dev server's responses. */
export function applyDevCsp(session: Session, location: RendererLocation): void {
  if (!location.dev) return;
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, location.origin)) {
      callback({});
      return;
    }
    // The checker cannot evaluate a constant here; the production policy is checked in its <meta> form.
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_DEV_CSP] } }); // eng-disable CSP_GLOBAL_CHECK: dev server only
  });
}

/** Opens a link in the user's browser when it passes the allow-list; returns whether it did. */
export function openExternalIfVetted(url: string): boolean {
  if (!isVettedExternalUrl(url)) return false;
  void shell.openExternal(url).catch(() => undefined); // eng-disable OPEN_EXTERNAL_JS_CHECK: https allow-list above (external-links.ts)
  return true;
}

/** Every web contents, present and future: stay on the app's own URLs, open nothing new. */
export function lockDownWebContents(location: RendererLocation): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, location));
}

export function hardenWebContents(contents: WebContents, location: RendererLocation): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url, location.origin)) return;
    event.preventDefault();
    openExternalIfVetted(event.url);
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url, location.origin)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url, location.origin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // target=_blank links and window.open: never a new Electron window; vetted https links go to
  // the user's browser.
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfVetted(url);
    return { action: 'deny' };
  });
}
