/**
 * Process-wide hardening, following Electron's security checklist: no permissions, no navigation
 * away from the app, no new windows, no <webview>, a CSP on the dev server's responses (production
 * responses get theirs from protocol.ts).
 */
import { app, type Session } from 'electron';
import { RENDERER_DEV_CSP } from './csp';
import { isAppUrl, type RendererLocation } from './renderer-location';

/** Denies every permission request and check: the app uses none (camera, notifications, ...). */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** In development, adds the dev CSP to the dev server's responses. */
export function applyDevCsp(session: Session, location: RendererLocation): void {
  if (!location.dev) return;
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, location.origin)) {
      callback({});
      return;
    }
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_DEV_CSP] } });
  });
}

/** Every web contents, present and future: stay on the app's own URLs, open nothing new. */
export function lockDownWebContents(location: RendererLocation): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => {
      if (!isAppUrl(event.url, location.origin)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      if (!isAppUrl(event.url, location.origin)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // Links that want a new window go nowhere for now; vetted https links will be opened with
    // shell.openExternal when the UI needs them (issue 5).
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
