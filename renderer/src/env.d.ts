// Ambient declarations for the renderer (a script file: no top-level import/export).

interface Window {
  /** Exposed by electron/preload; absent when the page is opened anywhere else. */
  readonly tempora?: import('../../shared/api-contract').TemporaIpcApi;
}

declare module '*.css';
