/**
 * The path a bridge request names (electron/server/request-target.ts): decoded exactly once,
 * normalised, and anything that could name something else than what is checked refused with 400.
 */
import { describe, expect, it } from 'vitest';
import { encodePath, readRequestTarget } from '../../electron/server/request-target';

const pathOf = (raw: string) => {
  const target = readRequestTarget(raw);
  return target.ok ? target.path : `${target.status}`;
};

describe('readRequestTarget', () => {
  it.each([
    ['/', '/'],
    ['/index.html', '/index.html'],
    ['/%69ndex.html', '/index.html'],
    ['/index%2ehtml', '/index.html'],
    ['/./assets/./app.js', '/assets/app.js'],
    ['//assets//app.js', '/assets/app.js'],
    ['/assets/', '/assets/'],
    ['/%252e%252e/x', '/%2e%2e/x'],
    ['/%E6%8A%B9%E8%8C%B6.js', '/抹茶.js'],
    ['/a%20b.js', '/a b.js'],
  ])('%s names %s', (raw, path) => {
    expect(pathOf(raw)).toBe(path);
  });

  it.each([
    '',
    'index.html',
    '*',
    'http://127.0.0.1:1/index.html',
    '/..',
    '/../secret',
    '/assets/../index.html',
    '/%2e%2e/secret',
    '/.%2E/secret',
    '/assets%2fapp.js',
    '/assets%2Fapp.js',
    '/assets%5capp.js',
    '/assets\\app.js',
    '/app.js%00',
    '/app.js%0d%0a',
    '/app.js%7f',
    '/app.js%c2%85',
    '/%C0%AE%C0%AE/secret',
    '/%E0%A4%A',
    '/%',
    '/%zz',
    '/%ED%A0%80',
    '/a#b',
    `/${'a'.repeat(9000)}`,
  ])('%j is 400, saying why', (raw) => {
    const target = readRequestTarget(raw);
    expect(target.ok).toBe(false);
    if (!target.ok) {
      expect(target.status).toBe(400);
      expect(target.message).toMatch(/^Bad request: .+\.$/);
    }
  });

  it('keeps the query apart, undecoded in the path', () => {
    const target = readRequestTarget('/?token=a%2Fb&x=1');
    expect(target.ok && target.path).toBe('/');
    expect(target.ok && target.query.get('token')).toBe('a/b');
    // A query with a broken escape is still read (URLSearchParams leaves it as it is).
    expect(readRequestTarget('/?token=%zz').ok).toBe(true);
  });

  it('encodePath gives a path that decodes once to the same path', () => {
    for (const path of ['/assets/app.js', '/抹茶 %.js', '/a?b#c.js', '/%2e%2e']) {
      expect(decodeURIComponent(encodePath(path))).toBe(path);
      expect(encodePath(path).split('/').length).toBe(path.split('/').length);
    }
  });
});
