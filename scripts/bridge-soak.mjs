#!/usr/bin/env node
/**
 * Soak of the loopback bridge (not a test): `tempora serve` as its own process, on a temporary
 * store seeded with a few hundred facts and a small renderer, under N WebSocket clients (default
 * 50) for M minutes (default 10). Each client calls in a loop (listFacts, search, listEntities,
 * modelStatus, factDetails), fetches an asset every couple of seconds (a third of them abandoned
 * mid-body), and reconnects now and then. Every minute it prints the server's open descriptors,
 * its RSS, the calls made and their latency (p50 / p95 / max); flat descriptors and memory are
 * what a healthy bridge shows.
 *
 *   node scripts/bridge-soak.mjs [--minutes 10] [--clients 50]
 *
 * Linux (reads /proc/PID). Needs no build: it runs the CLI through tsx, as `npm run tempora` does.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli', 'main.ts')];

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`bridge-soak: --${name} needs a positive number`);
    process.exit(2);
  }
  return value;
}
if (process.argv.includes('--help')) {
  console.log('node scripts/bridge-soak.mjs [--minutes 10] [--clients 50]');
  process.exit(0);
}
const MINUTES = option('minutes', 10);
const CLIENTS = Math.round(option('clients', 50));
const PAUSE_MS = 10; // between one client's calls
const ASSET_EVERY_MS = 2_000;
const RECONNECT_EVERY_MS = 45_000;

// ---------- the store, the renderer, the server ----------

const dir = mkdtempSync(join(tmpdir(), 'tempora-soak-'));
const rendererDir = join(dir, 'renderer');
mkdirSync(join(rendererDir, 'assets'), { recursive: true });
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src \'none\'"><title>soak</title><script type="module" src="./assets/app.js"></script></head><body></body></html>\n');
writeFileSync(join(rendererDir, 'assets', 'app.js'), `/* ${'soak '.repeat(200_000)} */\n`); // ~1 MB, as a real bundle
writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body { margin: 0 }\n');

const places = ['Kyoto', 'Osaka', 'Tokyo', 'Sapporo', 'Nagoya', 'Fukuoka', 'Sendai', 'Kobe'];
const lines = [];
for (let i = 0; i < 400; i++) {
  const day = String(1 + (i % 28)).padStart(2, '0');
  const month = String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0');
  const who = `person ${i % 40}`;
  const place = places[i % places.length];
  lines.push(JSON.stringify({ subject: who, predicate: 'lives in', object: place, fact: `${who} lives in ${place}.`, reference_time: `2025-${month}-${day}T10:00:00+09:00`, cardinality: 'one' }));
  lines.push(JSON.stringify({ subject: who, predicate: 'likes', object: `dish ${i % 17}`, fact: `${who} likes dish ${i % 17}.`, reference_time: `2025-${month}-${day}T12:00:00+09:00` }));
}
writeFileSync(join(dir, 'seed.jsonl'), `${lines.join('\n')}\n`);
execFileSync(process.execPath, [...CLI, 'observe', join(dir, 'seed.jsonl'), '--data', join(dir, 'data')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });

const server = spawn(process.execPath, [...CLI, 'serve', '--data', join(dir, 'data'), '--renderer', rendererDir, '--port', '0', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
let serverErr = '';
server.stderr.on('data', (chunk) => (serverErr += chunk.toString()));
const info = await new Promise((done, fail) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk.toString();
    const end = out.indexOf('\n}');
    if (end >= 0) done(JSON.parse(out.slice(0, end + 2)));
  });
  server.once('exit', (code) => fail(new Error(`serve exited (${code}): ${serverErr}`)));
});
const { port, token } = info;
const origin = `http://127.0.0.1:${port}`;

function get(path, headers = {}, abandon = false) {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      if (abandon) res.once('data', () => req.destroy());
      else res.resume();
      res.on('end', () => done(res));
    });
    req.on('error', () => undefined);
    req.on('close', () => done(null));
    req.end();
  });
}
const exchange = await get(`/?token=${token}`);
const cookie = String([].concat(exchange?.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0];
if (!cookie) throw new Error('the bridge did not hand out its cookie');

// ---------- measurements ----------

const descriptors = () => (existsSync(`/proc/${server.pid}/fd`) ? readdirSync(`/proc/${server.pid}/fd`).length : NaN);
const rssMb = () => {
  const line = existsSync(`/proc/${server.pid}/status`) ? readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m) : null;
  return line ? Number(line[1]) / 1024 : NaN;
};
let latencies = [];
let errors = 0;
let assets = 0;
let reconnects = 0;
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

// ---------- the clients ----------

let running = true;
const calls = [
  () => ['listFacts', { limit: 50 }],
  () => ['search', { query: places[Math.floor(Math.random() * places.length)] }],
  () => ['listEntities', {}],
  () => ['modelStatus', {}],
  () => ['factDetails', { id: 'no-such-fact' }],
];

async function client(n) {
  let lastAsset = Date.now() + n * 37;
  let assetCount = 0;
  while (running) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { origin, headers: { Cookie: cookie } });
    const opened = await new Promise((done) => {
      ws.once('open', () => done(true));
      ws.once('error', () => done(false));
    });
    if (!opened) {
      errors++;
      continue;
    }
    const pending = new Map();
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type !== 'result') return;
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    });
    ws.once('close', () => {
      for (const done of pending.values()) done(null);
      pending.clear();
    });
    const until = Date.now() + RECONNECT_EVERY_MS * (0.5 + Math.random());
    let id = 0;
    while (running && Date.now() < until && ws.readyState === WebSocket.OPEN) {
      const [name, req] = calls[id % calls.length]();
      const started = performance.now();
      const reply = await new Promise((done) => {
        pending.set(++id, done);
        ws.send(JSON.stringify({ type: 'call', id, name, request: req }));
      });
      latencies.push(performance.now() - started);
      if (!reply || (!reply.ok && name !== 'factDetails')) errors++;
      if (Date.now() - lastAsset > ASSET_EVERY_MS) {
        lastAsset = Date.now();
        const abandon = ++assetCount % 3 === 0;
        const res = await get(assetCount % 2 ? '/assets/app.js' : '/', { Cookie: cookie }, abandon);
        if (!abandon && res?.statusCode !== 200) errors++;
        assets++;
      }
      await new Promise((done) => setTimeout(done, PAUSE_MS));
    }
    if (ws.readyState !== WebSocket.CLOSED) {
      const closed = new Promise((done) => ws.once('close', done));
      ws.close();
      await Promise.race([closed, new Promise((done) => setTimeout(done, 2_000))]);
    }
    reconnects++;
  }
}

console.log(`bridge-soak: ${CLIENTS} clients for ${MINUTES} min against pid ${server.pid} on port ${port}`);
console.log('minute  fds  rss_mb  calls  p50_ms  p95_ms  max_ms  assets  reconnects  errors');
const print = (label) => {
  const sorted = latencies.sort((a, b) => a - b);
  const row = [label.padStart(6), String(descriptors()).padStart(4), rssMb().toFixed(1).padStart(7), String(sorted.length).padStart(6), quantile(sorted, 0.5).toFixed(2).padStart(7), quantile(sorted, 0.95).toFixed(2).padStart(7), (sorted.at(-1) ?? NaN).toFixed(1).padStart(7), String(assets).padStart(7), String(reconnects).padStart(11), String(errors).padStart(7)];
  console.log(row.join(' '));
  latencies = [];
  assets = 0;
  reconnects = 0;
  errors = 0;
};
print('start');
const startDescriptors = descriptors();
const workers = Array.from({ length: CLIENTS }, (_, n) => client(n));
// A row per minute (the last one at the end, when --minutes is not whole).
for (let elapsed = 0, total = MINUTES * 60_000; elapsed < total; ) {
  const step = Math.min(60_000, total - elapsed);
  await new Promise((done) => setTimeout(done, step));
  elapsed += step;
  print(String(Math.round((elapsed / 60_000) * 10) / 10));
}
running = false;
await Promise.all(workers);
// Every client has gone: give the server a moment (at most 5 s) to close its side, then measure.
for (const until = Date.now() + 5_000; descriptors() > startDescriptors && Date.now() < until; ) await new Promise((done) => setTimeout(done, 50));
print('idle');
server.kill('SIGTERM');
const code = await new Promise((done) => server.once('exit', done));
rmSync(dir, { recursive: true, force: true });
console.log(`bridge-soak: serve stopped (exit ${code})`);
process.exit(code === 0 ? 0 : 1);
