/**
 * `tempora sync` through the real door (issue 31 item 6): spawned processes, two memory directories
 * and one folder between them. A fact told on one is found on the other, and back; the folder holds
 * only ciphertext; `sync status` names the devices; a wrong or missing passphrase is refused in words
 * and changes nothing; a long sync says how far it is on stderr.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaProcess } from './cli-helpers';
import { openMemory } from '../../electron/memory/index';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let folder: string;
let laptop: string;
let desktop: string;

const tempora = temporaProcess;

const PASS = { TEMPORA_SYNC_PASSPHRASE: 'correct horse battery staple' };

function filesUnder(path: string): string[] {
  return readdirSync(path).flatMap((name) => {
    const full = join(path, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function factsOf(data: string): Promise<string[]> {
  const listed = await tempora(['facts', '--data', data, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { fact: string }[]).map((f) => f.fact).sort();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-sync-'));
  folder = join(dir, 'Sync');
  mkdirSync(folder);
  laptop = join(dir, 'laptop');
  desktop = join(dir, 'desktop');
  writeFileSync(join(dir, 'told.jsonl'), `${JSON.stringify({ subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' })}\n`);
  writeFileSync(join(dir, 'back.jsonl'), `${JSON.stringify({ subject: 'Aoki', predicate: 'works_at', object: 'Globex', fact: 'Aoki works at Globex.', reference_time: '2026-09-02T10:00:00+09:00', cardinality: 'one' })}\n`);
  // As Notepad on Windows writes it: a byte-order mark and a CRLF.
  writeFileSync(join(dir, 'key.txt'), `\uFEFF${PASS.TEMPORA_SYNC_PASSPHRASE}\r\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora sync, two devices and a folder', () => {
  it('a fact told on one device is found on the other, and back', async () => {
    expect((await tempora(['observe', join(dir, 'told.jsonl'), '--data', laptop])).code).toBe(0);
    const sent = await tempora(['sync', '--folder', folder, '--data', laptop, '--name', 'laptop'], PASS);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^Synced with the folder .*: sent \d+ records; applied 0 segments/);

    // The other device reads the passphrase from a key file (the byte-order mark is not part of it).
    const got = await tempora(['sync', '--folder', folder, '--data', desktop, '--name', 'desktop', '--key-file', join(dir, 'key.txt')]);
    expect(got.stderr).toBe('');
    expect(got.stdout).toMatch(/applied 1 segment \(\d+ records\) from 1 device\./);
    expect(await factsOf(desktop)).toEqual(['I live in Osaka.']);

    expect((await tempora(['observe', join(dir, 'back.jsonl'), '--data', desktop])).code).toBe(0);
    expect((await tempora(['sync', '--folder', folder, '--data', desktop], PASS)).code).toBe(0);
    expect((await tempora(['sync', '--folder', folder, '--data', laptop], PASS)).code).toBe(0);
    expect(await factsOf(laptop)).toEqual(['Aoki works at Globex.', 'I live in Osaka.']);

    // Only ciphertext on the folder.
    for (const file of filesUnder(folder)) expect(readFileSync(file).toString('latin1')).not.toMatch(/Osaka|Globex/);
  });

  it('sync status names this device, the last sync, the devices seen and what is not sent', async () => {
    const status = await tempora(['sync', 'status', '--data', laptop]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^This device: laptop \([0-9a-f]{32}\)\n/);
    expect(status.stdout).toMatch(/\nLast sync: .*2\d{3}/);
    expect(status.stdout).toContain('Not sent yet: 0 records');
    // The desktop's first sync had nothing to send but its name: a segment of no records said it.
    expect(status.stdout).toMatch(/Devices seen: 1\n {2}desktop \([0-9a-f]{32}\): 2 segments applied, last at \d/);
    const json = JSON.parse((await tempora(['sync', 'status', '--data', laptop, '--json'])).stdout) as { device: { name: string }; unsent: number; devices: { name: string }[] };
    expect(json.device.name).toBe('laptop');
    expect(json.devices.map((d) => d.name)).toEqual(['desktop']);
  });

  it('sync status counts what is not sent in the word sync sends it in: records', async () => {
    const counted = join(dir, 'counted');
    expect((await tempora(['observe', join(dir, 'told.jsonl'), '--data', counted])).code).toBe(0);
    const status = await tempora(['sync', 'status', '--data', counted]);
    const unsent = /\nNot sent yet: (\d+) records\n/.exec(status.stdout);
    expect(unsent, status.stdout).not.toBeNull();
    const other = join(dir, 'Other');
    mkdirSync(other);
    const sent = await tempora(['sync', '--folder', other, '--data', counted], PASS);
    expect(sent.stdout).toMatch(new RegExp(`: sent ${unsent![1]} records;`));
  });

  it('without --folder, syncs with the folder set in the app, and says so; with none set, says how to give one', async () => {
    const app = join(dir, 'app-set');
    expect((await tempora(['observe', join(dir, 'told.jsonl'), '--data', app])).code).toBe(0);
    const none = await tempora(['sync', '--data', app], PASS);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^tempora: sync needs --folder DIR \(the folder the devices share\), or a folder set in the app \(Settings → Sync\)\n/);
    // (A folder of its own: the other tests count what the shared one holds.)
    const appFolder = join(dir, 'AppFolder');
    mkdirSync(appFolder);
    const memory = openMemory({ dataDir: app });
    memory.settings.update({ syncTarget: { kind: 'folder', path: appFolder } });
    memory.close();
    const synced = await tempora(['sync', '--data', app], PASS);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toBe(`Syncing with ${appFolder}, the folder set in the app (Settings → Sync).\n`);
    expect(synced.stdout).toMatch(/^Synced with the folder .*: sent \d+ records;/);
    expect(readdirSync(appFolder).length).toBeGreaterThan(0);
    expect((await tempora(['sync', 'status', '--data', app])).stdout).toContain(`\nSync folder: ${appFolder} (set in the app)\n`);
  });

  it('sync status says which folder is set (or none) and what the last sync used; a plain sync refused names that', async () => {
    const oneOff = join(dir, 'one-off');
    expect((await tempora(['observe', join(dir, 'told.jsonl'), '--data', oneOff])).code).toBe(0);
    const before = await tempora(['sync', 'status', '--data', oneOff]);
    expect(before.stdout).toContain('\nLast sync: never\n');
    expect(before.stdout).toContain('\nSync folder: none set in the app (tempora sync needs --folder DIR each time)\n');
    const used = join(dir, 'OneOffFolder');
    mkdirSync(used);
    expect((await tempora(['sync', '--folder', used, '--data', oneOff], PASS)).code).toBe(0);
    const after = await tempora(['sync', 'status', '--data', oneOff]);
    expect(after.stdout).toMatch(/\nLast sync: \d+ \w+ 2\d{3}, \d\d:\d\d, with the folder /);
    expect(after.stdout).toContain(`, with the folder ${used}\n`);
    expect(after.stdout).toContain('\nSync folder: none set in the app (tempora sync needs --folder DIR each time)\n');
    expect((JSON.parse((await tempora(['sync', 'status', '--data', oneOff, '--json'])).stdout) as { lastTarget: string }).lastTarget).toBe(`the folder ${used}`);
    const plain = await tempora(['sync', '--data', oneOff], PASS);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(`tempora: sync needs --folder DIR (the folder the devices share), or a folder set in the app (Settings → Sync); the last sync was with the folder ${used}\nRun 'tempora help sync' for usage.\n`);
  });

  it('--watch keeps syncing until Ctrl-C, says a round only when something moved, then stops cleanly', async () => {
    // A memory and folder of its own: the other tests count what the shared ones hold.
    const watched = join(dir, 'watched');
    const watchFolder = join(dir, 'WatchFolder');
    mkdirSync(watchFolder);
    expect((await tempora(['observe', join(dir, 'told.jsonl'), '--data', watched])).code).toBe(0);
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'sync', '--folder', watchFolder, '--data', watched, '--watch', '--every', '1'], {
      cwd: root,
      env: { ...process.env, TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error', ...PASS },
    });
    let out = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const rounds = () => (out.match(/^Synced with /gm) ?? []).length;
    const said = (n: number) => new Promise<void>((done) => (rounds() >= n ? done() : child.stdout.on('data', () => rounds() >= n && done())));
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // The first round is said; the quiet ones after it (a second apart) are not.
    await said(1);
    await new Promise((done) => setTimeout(done, 3500));
    expect(rounds(), out).toBe(1);
    // Something to send: the next round says it.
    expect((await tempora(['observe', join(dir, 'back.jsonl'), '--data', watched])).code).toBe(0);
    await said(2);
    expect(out.split('\n').filter((l) => l.startsWith('Synced with '))[1]).toMatch(/: sent [1-9]\d* records?;/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('a wrong or missing passphrase is refused in words and changes nothing', async () => {
    const third = join(dir, 'third');
    const wrong = await tempora(['sync', '--folder', folder, '--data', third], { TEMPORA_SYNC_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).toBe(1);
    // Nothing prompts here: it says how to give the passphrase, not to type it.
    expect(wrong.stderr).toBe(
      'tempora: This passphrase does not open this sync target: it was set up with another one. ' +
        'Set $TEMPORA_SYNC_PASSPHRASE to the passphrase your other devices sync with, or put it on the first line of a file given with --key-file FILE.\n',
    );
    writeFileSync(join(dir, 'wrong-key.txt'), 'not the passphrase\n');
    const wrongFile = await tempora(['sync', '--folder', folder, '--data', third, '--key-file', join(dir, 'wrong-key.txt')]);
    expect(wrongFile.code).toBe(1);
    expect(wrongFile.stderr).toBe(
      'tempora: This passphrase does not open this sync target: it was set up with another one. ' +
        `Put the passphrase your other devices sync with on the first line of ${join(dir, 'wrong-key.txt')} (the --key-file).\n`,
    );
    // No memory is made by a sync refused before it syncs.
    expect((await tempora(['facts', '--data', third])).stderr).toMatch(/^tempora: no memory in /);
    const none = await tempora(['sync', '--folder', folder, '--data', third]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('tempora: sync needs a passphrase: set $TEMPORA_SYNC_PASSPHRASE or give --key-file FILE\n');
    const missing = await tempora(['sync', '--folder', join(dir, 'no-such-folder'), '--data', third], PASS);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^tempora: .*no-such-folder/);
  });

  it('a device joining late is told on stderr how far its sync is, segment by segment', async () => {
    const late = join(dir, 'late');
    // TEMPORA_PROGRESS=1: the piped stderr stands in for a terminal.
    const joined = await tempora(['sync', '--folder', folder, '--data', late, '--name', 'late'], { ...PASS, TEMPORA_PROGRESS: '1' });
    expect(joined.code, joined.stderr).toBe(0);
    // One segment from the laptop, two from the desktop (its name, then its fact): three progress
    // lines, then the line cleared for the report.
    const [before, first, second, third, cleared, ...rest] = joined.stderr.split('\r');
    expect([before, cleared, rest]).toEqual(['', '\x1b[K', []]);
    expect(first).toMatch(/^applying: 1 of 3 segments \(\d+ records?\)\W\[K$/);
    expect(second).toMatch(/^applying: 2 of 3 segments \(\d+ records?\)\W\[K$/);
    expect(third).toMatch(/^applying: 3 of 3 segments \(\d+ records\)\W\[K$/);
    const records = Number(/3 of 3 segments \((\d+) records\)/.exec(joined.stderr)![1]);
    expect(joined.stdout).toContain(`applied 3 segments (${records} records) from 2 devices.`);
    expect(await factsOf(late)).toEqual(['Aoki works at Globex.', 'I live in Osaka.']);
    // --json says nothing on stderr; nor does a sync whose stderr is a log file (no carriage returns or erase codes).
    const again = await tempora(['sync', '--folder', folder, '--data', join(dir, 'later'), '--json'], PASS);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    const logged = await tempora(['sync', '--folder', folder, '--data', join(dir, 'logged')], PASS);
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stdout).toMatch(/applied \d+ segments/);
    expect(logged.stderr).toBe('');
    // The late device has seen "desktop": that name is refused for it in words, and nothing is synced.
    const taken = await tempora(['sync', '--folder', folder, '--data', late, '--name', 'Desktop'], PASS);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe('tempora: Another device that syncs with this memory is already named “desktop”: give this one a name of its own.\n');
    const status = await tempora(['sync', 'status', '--data', late]);
    expect(status.stdout).toMatch(/^This device: late \(/);
  });

  it('a first sync that cannot set its segments aside says so in words and applies nothing', async () => {
    // Four more segments from the laptop: a device joining now takes the first sync in one write,
    // which sets what it downloads aside in the temporary folder first.
    for (const i of [1, 2, 3, 4]) {
      const told = join(dir, `more-${i}.jsonl`);
      writeFileSync(told, `${JSON.stringify({ subject: `Friend ${i}`, predicate: 'likes', object: 'tea', fact: `Friend ${i} likes tea.`, reference_time: '2026-09-03T10:00:00+09:00', cardinality: 'many' })}\n`);
      expect((await tempora(['observe', told, '--data', laptop])).code).toBe(0);
      expect((await tempora(['sync', '--folder', folder, '--data', laptop], PASS)).code).toBe(0);
    }
    // Where it sets them aside, beside the memory's file, is taken by a file.
    const fresh = join(dir, 'fresh');
    const spool = join(fresh, 'memory.sqlite.sync-spool');
    mkdirSync(fresh);
    writeFileSync(spool, 'not a folder');
    const refused = await tempora(['sync', '--folder', folder, '--data', fresh, '--json'], PASS);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`tempora: A first sync could not set the segments it downloads aside in the folder ${spool} (EEXIST: file already exists, mkdir '${spool}'); nothing was applied.\n`);
    // Nothing was applied: the memory the sync opened there holds nothing.
    expect(await factsOf(fresh)).toEqual([]);
    rmSync(spool);
    const synced = await tempora(['sync', '--folder', folder, '--data', fresh, '--json'], PASS);
    expect(synced.code, synced.stderr).toBe(0);
    expect(await factsOf(fresh)).toEqual(['Aoki works at Globex.', 'Friend 1 likes tea.', 'Friend 2 likes tea.', 'Friend 3 likes tea.', 'Friend 4 likes tea.', 'I live in Osaka.']);
  });
});
