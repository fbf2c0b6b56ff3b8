/**
 * The renderer's one way to reach the app core. For now only the Electron transport (the preload's
 * `window.tempora`); the loopback-bridge transport joins it behind the same interface in issue 5.
 */
import type { TemporaApi } from '../../shared/api-contract';

export function getApi(): TemporaApi {
  const api = window.tempora;
  if (!api) {
    throw new Error('The Tempora API is not available: this page must be opened by the Tempora app.');
  }
  return api;
}
