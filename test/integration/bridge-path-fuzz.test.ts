/**
 * Fuzz of the paths and encodings a request can name (fast-check, bounded, part of `npm test`),
 * against the running bridge over raw sockets, so that any byte reaches the request line: random
 * segments, percent-encodings of every character, dot segments (plain, encoded, fullwidth),
 * encoded slashes and backslashes, NUL and control characters, unicode, overlong UTF-8, with the
 * session cookie, a forged one or none.
 *
 * The invariants: never a 5xx and never a dropped connection without an answer; a 200 only with
 * the valid cookie and only with the content of a real file of the renderer (or the page);
 * never a byte of the file outside the renderer directory; every spelling of a real file with the
 * cookie is that file.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { FIXTURE_TITLE, rawRequest, writeFixtureRenderer } from './bridge-helpers';

const RUNS = 200;
const SECRET = 'the secret outside the renderer directory';

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let cookie: string;
/** What a 200 may carry: each real file of the renderer (the page is recognised by its title). */
let files: Map<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-path-fuzz-'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  writeFileSync(join(dir, 'renderer', 'assets', '抹茶 100%.js'), 'matcha();\n');
  files = new Map(['/assets/app.js', '/assets/app.css', '/assets/抹茶 100%.js'].map((path) => [path, readFileSync(join(dir, 'renderer', path), 'utf8')]));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  const exchange = await rawRequest(bridge.port, `/?token=${bridge.token}`);
  cookie = String(([] as string[]).concat(exchange.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]!;
});

afterAll(async () => {
  await bridge?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
}

/** One request written by hand (any bytes in the target); resolves with the answer, or status 0 for none. */
function send(target: string, cookieHeader: string | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port: bridge.port }, () => {
      const cookieLine = cookieHeader === null ? '' : `Cookie: ${cookieHeader}\r\n`;
      // write, not end: Node's server drops a half-closed request whose answer is not ready yet.
      socket.write(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n${cookieLine}Connection: close\r\n\r\n`, 'utf8'));
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0);
      const at = text.indexOf('\r\n\r\n');
      resolve({ status, body: at < 0 ? '' : text.slice(at + 4) });
    });
  });
}

/** Characters a path may carry as they are (RFC 3986 pchar); all others are always encoded. */
const PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;

/** Percent-encodes some characters of `text` (as UTF-8; always those that must be), in upper or lower case hex. */
const spelledOut = (text: string) =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).chain((which) =>
    fc.boolean().map((lower) =>
      [...text]
        .map((char, i) => {
          if (char === '/' || (!which[i] && PLAIN.test(char))) return char;
          const hex = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
          return lower ? hex : hex.toUpperCase();
        })
        .join(''),
    ),
  );

const byte = fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`);
const segment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2e', 'secret.txt', 'assets', 'index.html', 'app.js', '', '．．', '%EF%BC%8E%EF%BC%8E'),
  fc.constantFrom('%00', '%2f', '%2F', '%5c', '\\', '%0a', '%0d%0a', '%7f', '%c2%85', '%', '%g1', '%e0%a4%a'),
  fc.constantFrom('%C0%AE', '%C0%AF', '%E0%80%AE', '%F0%80%80%AE', '%C1%9C', '%ED%A0%80', '%F4%90%80%80'),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.array(byte, { maxLength: 6 }).map((bytes) => bytes.join('')),
  fc.constantFrom(encodeURIComponent(join('/', 'tmp')), '%2e%2e%2fsecret.txt', '..%5csecret.txt'),
);
/** Real names with random segments put before them: most land near, a few on, a real file. */
const nearReal = fc
  .tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom(['assets', 'app.js'], ['assets', 'app.css'], ['index.html'], ['assets', 'link-to-secret.txt'], ['assets', 'notes.unknownext']))
  .map(([noise, real]) => [...noise, ...real]);
const garbagePath = fc
  .tuple(fc.oneof(fc.array(segment, { minLength: 1, maxLength: 8 }), nearReal), fc.option(fc.constantFrom('?token=wrong', '?token=', '?x=%zz', '?token=%00', '#frag'), { nil: '' }))
  .map(([segments, query]) => `/${segments.join('/')}${query}`);

const isPage = (body: string) => body.includes(FIXTURE_TITLE) && body.includes(`connect-src ws://127.0.0.1:${bridge.port}`);

describe('paths and encodings', () => {
  it('any path: 4xx or a real file of the renderer, never a 5xx, never the file outside', async () => {
    await fc.assert(
      fc.asyncProperty(garbagePath, fc.constantFrom('good', 'none', 'forged'), async (target, who) => {
        const header = who === 'good' ? cookie : who === 'forged' ? cookie.replace(/=.*/, '=forged') : null;
        const answer = await send(target, header);
        expect(answer.status, target).toBeGreaterThanOrEqual(200);
        expect(answer.status, target).toBeLessThan(500);
        expect(answer.body).not.toContain(SECRET);
        if (answer.status === 200) {
          expect(who, `${target} served without the cookie`).toBe('good');
          expect(isPage(answer.body) || [...files.values()].includes(answer.body), `${target} served something that is not a renderer file`).toBe(true);
        } else {
          expect([303, 400, 401, 404], target).toContain(answer.status);
          expect(answer.body).not.toContain(FIXTURE_TITLE);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('every spelling of a real file (encoded, dot segments, doubled slashes) is that file with the cookie, 401 without', async () => {
    const real = fc.constantFrom('/', '/index.html', ...files.keys());
    const noise = fc.array(fc.constantFrom('', './', '/'), { maxLength: 3 }).map((parts) => parts.join(''));
    const spelling = real.chain((path) => fc.tuple(fc.constant(path), spelledOut(path), noise));
    await fc.assert(
      fc.asyncProperty(spelling, async ([path, spelled, prefix]) => {
        const target = `/${prefix}${spelled.slice(1)}`;
        const answer = await send(target, cookie);
        expect(answer.status, target).toBe(200);
        if (path === '/' || path === '/index.html') expect(isPage(answer.body), target).toBe(true);
        else expect(answer.body, target).toBe(files.get(path));
        const without = await send(target, null);
        expect(without.status, target).toBe(401);
      }),
      { numRuns: RUNS },
    );
  });

  it('the bridge still serves the printed address afterwards', async () => {
    expect((await rawRequest(bridge.port, `/?token=${bridge.token}`)).status).toBe(303);
    expect((await send('/', cookie)).status).toBe(200);
  });
});
