/**
 * Which links may leave the app for the user's browser (shell.openExternal). Only https, only to
 * a short allow-list of hosts the UI links to (model cards and licences, the project's page), no
 * credentials, no unusual port. Anything else is dropped. Pure: no electron import (unit-tested).
 */

/** Hosts the UI may link to, matched exactly (no subdomains). */
export const EXTERNAL_HOSTS: readonly string[] = ['huggingface.co', 'github.com'];

const MAX_URL_LENGTH = 2048;

export function isVettedExternalUrl(candidate: unknown): candidate is string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_URL_LENGTH) return false;
  // Control characters and spaces have no business in a link we hand to the operating system.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f]/.test(candidate)) return false;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    url.port === '' &&
    EXTERNAL_HOSTS.includes(url.hostname)
  );
}

/** A download the page itself made (saving the memory export: a blob or data URL), not a remote file. */
export function isLocalDownload(url: string): boolean {
  return url.startsWith('blob:') || url.startsWith('data:');
}
