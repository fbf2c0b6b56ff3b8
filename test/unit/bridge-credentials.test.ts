/**
 * The bridge's session cookie (electron/server/bridge-credentials.ts): its attributes, its name
 * per port, and which Cookie headers and queries count as showing the credential.
 */
import { describe, expect, it } from 'vitest';
import { hasSessionCookie, newCredentials, presentedCredential, sessionCookie } from '../../electron/server/bridge-credentials';

const credentials = newCredentials(4321);
const good = `${credentials.cookieName}=${credentials.cookieSecret}`;

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, for the whole bridge, named after the port, with its own secret', () => {
    expect(sessionCookie(credentials)).toBe(`tempora_4321=${credentials.cookieSecret}; HttpOnly; SameSite=Strict; Path=/`);
    expect(credentials.cookieSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(credentials.cookieSecret).not.toBe(credentials.token);
    const other = newCredentials(4321);
    expect(other.cookieSecret).not.toBe(credentials.cookieSecret);
    expect(other.token).not.toBe(credentials.token);
  });

  it.each([
    [good, true],
    [`a=1; ${good}; b=2`, true],
    [` ${good} `, true],
    [`${credentials.cookieName}=stale; ${good}`, true],
    [[`a=1`, good], true],
    [undefined, false],
    ['', false],
    [`${credentials.cookieName}=`, false],
    [`${credentials.cookieName}=${credentials.token}`, false],
    [`tempora_1=${credentials.cookieSecret}`, false],
    [`x${credentials.cookieName}=${credentials.cookieSecret}`, false],
    [`${credentials.cookieName}=${credentials.cookieSecret}x`, false],
    [credentials.cookieSecret, false],
  ])('Cookie %j shows the session: %s', (header, expected) => {
    expect(hasSessionCookie(header, credentials)).toBe(expected);
  });

  it('a token in the query must be right, even beside a good cookie', () => {
    expect(presentedCredential(new URLSearchParams({ token: credentials.token }), undefined, credentials)).toBe('token');
    expect(presentedCredential(new URLSearchParams({ token: 'stale' }), good, credentials)).toBe('wrong-token');
    expect(presentedCredential(new URLSearchParams({ token: '' }), good, credentials)).toBe('wrong-token');
    expect(presentedCredential(new URLSearchParams(), good, credentials)).toBe('cookie');
    expect(presentedCredential(new URLSearchParams({ t: credentials.token }), undefined, credentials)).toBe('none');
  });
});
