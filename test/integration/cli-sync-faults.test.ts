/**
 * `tempora sync` when something is wrong, through the real door (spawned processes, memory
 * directories and folders): a sync that fails before it syncs changes nothing and creates no
 * memory; a device name another device on the target already has is refused at first contact, and a
 * rename reaches the target at the sync that makes it; a damaged segment is said once, in one
 * sentence, and `sync status` lists its device as blocked; a target that is not there is said in
 * words that read as English.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeConversation } from '../fixtures/chat-exports';
import { temporaProcess, type Exit } from './cli-helpers';

let dir: string;

const tempora = temporaProcess;

const PASS = { TEMPORA_SYNC_PASSPHRASE: 'correct horse battery staple' };

/** A new folder under the test's directory. */
function folderNamed(name: string): string {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
}

/** Tells a memory one fact (creating it). */
async function tell(data: string, fact: string): Promise<void> {
  const file = join(dir, `${fact.replace(/\W+/g, '-')}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ subject: 'Sato', predicate: 'likes', object: fact, fact, reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'many' })}\n`);
  const told = await tempora(['observe', file, '--data', data]);
  expect(told.code, told.stderr).toBe(0);
}

async function sync(data: string, folder: string, more: string[] = [], env: NodeJS.ProcessEnv = PASS): Promise<Exit> {
  return tempora(['sync', '--folder', folder, '--data', data, ...more], env);
}

async function statusOf(data: string): Promise<{ device: { id: string; name: string }; devices: { id: string; name: string }[]; blocked: { id: string; segment: string; reason: string }[] }> {
  const status = await tempora(['sync', 'status', '--data', data, '--json']);
  expect(status.code, status.stderr).toBe(0);
  return JSON.parse(status.stdout) as never;
}

/** What a sync read of its folder: listings (each walk from the folder down) and each file read, its bytes per read (test/fixtures/count-folder-reads.mjs). */
interface FolderReads {
  listings: number;
  reads: Record<string, number[]>;
}

async function countedSync(data: string, folder: string, more: string[]): Promise<FolderReads> {
  const out = join(dir, `reads-${Math.random().toString(36).slice(2)}.json`);
  const hook = pathToFileURL(resolve(import.meta.dirname, '../fixtures/count-folder-reads.mjs')).href;
  const synced = await sync(data, folder, more, { ...PASS, NODE_OPTIONS: `--import=${hook}`, TEMPORA_COUNT_READS_OF: folder, TEMPORA_COUNT_READS_OUT: out });
  expect(synced.code, synced.stderr).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as FolderReads;
}

function segmentsOf(folder: string, device: string): string[] {
  const path = join(folder, 'devices', device, 'segments');
  return readdirSync(path).filter((name) => statSync(join(path, name)).isFile());
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-sync-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a sync that fails before it syncs changes nothing', () => {
  it('keeps the name when the folder is not there or the passphrase is wrong', async () => {
    const folder = folderNamed('Sync-1');
    const data = join(dir, 'dB');
    await tell(data, 'tea');
    expect((await sync(data, folder, ['--name', 'デスク'])).code).toBe(0);

    const missing = await sync(data, join(dir, 'nonexistent'), ['--name', 'ノートPC']);
    expect(missing.code).toBe(1);
    expect((await statusOf(data)).device.name).toBe('デスク');

    const wrong = await sync(data, folder, ['--name', 'ノートPC'], { TEMPORA_SYNC_PASSPHRASE: 'wrong passphrase' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^tempora: This passphrase does not open this sync target/);
    expect((await statusOf(data)).device.name).toBe('デスク');
  });

  it('creates no memory in a new directory, as `facts` and `sync status` do not', async () => {
    const fresh = join(dir, 'never-synced');
    const short = await sync(fresh, folderNamed('Sync-2'), ['--name', 'ノートPC'], { TEMPORA_SYNC_PASSPHRASE: 'short' });
    expect(short.code).toBe(1);
    expect(short.stderr).toBe('tempora: The sync passphrase must have at least 8 characters.\n');
    expect(existsSync(join(fresh, 'memory.sqlite'))).toBe(false);

    const missing = await sync(fresh, join(dir, 'nonexistent'));
    expect(missing.code).toBe(1);
    expect(existsSync(join(fresh, 'memory.sqlite'))).toBe(false);

    const status = await tempora(['sync', 'status', '--data', fresh]);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/^tempora: no memory in .*never-synced \(nothing has been stored there yet/);
    expect(existsSync(join(fresh, 'memory.sqlite'))).toBe(false);
  });
});

describe('device names across the target', () => {
  it('refuses at first contact a name another device on the target has, creating nothing', async () => {
    const folder = folderNamed('Sync-3');
    const [s1, s2] = [join(dir, 's1'), join(dir, 's2')];
    await tell(s1, 'coffee');
    expect((await sync(s1, folder, ['--name', 'desk'])).code).toBe(0);
    for (const name of ['desk', ' Desk ']) {
      const taken = await sync(s2, folder, ['--name', name]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toBe('tempora: Another device that syncs with this memory is already named “desk”: give this one a name of its own.\n');
      expect(existsSync(join(s2, 'memory.sqlite'))).toBe(false);
    }
    const own = await sync(s2, folder, ['--name', 'study']);
    expect(own.code, own.stderr).toBe(0);
    expect((await statusOf(s2)).device.name).toBe('study');
  });

  it('a rename with nothing to send reaches the target at that sync', async () => {
    const folder = folderNamed('Sync-4');
    const [s1, s2, s3] = [join(dir, 'r1'), join(dir, 'r2'), join(dir, 'r3')];
    await tell(s1, 'matcha');
    expect((await sync(s1, folder, ['--name', 'desk'])).code).toBe(0);
    const renamed = await sync(s1, folder, ['--name', 'office']);
    expect(renamed.code, renamed.stderr).toBe(0);
    // The old name is free on the target, the new one is taken.
    const taken = await sync(s3, folder, ['--name', 'Office']);
    expect(taken.stderr).toBe('tempora: Another device that syncs with this memory is already named “office”: give this one a name of its own.\n');
    expect((await sync(s3, folder, ['--name', 'desk'])).code).toBe(0);
    // Another device sees the new name.
    expect((await sync(s2, folder, ['--name', 'laptop'])).code).toBe(0);
    const s1Id = (await statusOf(s1)).device.id;
    expect((await statusOf(s2)).devices.find((d) => d.id === s1Id)?.name).toBe('office');
    // Its own name again sends nothing more.
    const before = segmentsOf(folder, s1Id).length;
    expect((await sync(s1, folder, ['--name', 'office'])).code).toBe(0);
    expect(segmentsOf(folder, s1Id)).toHaveLength(before);
  });

  it('a sync with --name lists the folder once and reads the key check and the other device’s latest segment once', async () => {
    const folder = folderNamed('Sync-4b');
    const [n1, n2, n3] = [join(dir, 'n1'), join(dir, 'n2'), join(dir, 'n3')];
    await tell(n1, 'sencha');
    expect((await sync(n1, folder, ['--name', 'desk'])).code).toBe(0);
    const deskId = (await statusOf(n1)).device.id;
    const [segment] = segmentsOf(folder, deskId);
    const name = `devices/${deskId}/segments/${segment}`;
    const size = statSync(join(folder, name)).size;
    // A memory with something to send, and one made by this sync (first contact).
    await tell(n2, 'hojicha');
    for (const data of [n2, n3]) {
      const counted = await countedSync(data, folder, ['--name', data === n2 ? 'study' : 'lab']);
      expect({ listings: counted.listings, segment: counted.reads[name], keyCheck: counted.reads.keycheck?.length }).toEqual({ listings: 1, segment: [size], keyCheck: 1 });
    }
    expect((await statusOf(n3)).devices.map((d) => d.name)).toEqual(['desk', 'study']);
  });

  it('sync status says in words when another device seen has this device’s name', async () => {
    const folder = folderNamed('Sync-5');
    const [t1, t2] = [join(dir, 't1'), join(dir, 't2')];
    await tell(t1, 'water');
    expect((await sync(t1, folder, ['--name', 'twin'])).code).toBe(0);
    // Named elsewhere before it saw the other one.
    expect((await sync(t2, folderNamed('Sync-5-elsewhere'), ['--name', 'twin'])).code).toBe(0);
    expect((await sync(t2, folder)).code).toBe(0);
    const t1Id = (await statusOf(t1)).device.id;
    const status = await tempora(['sync', 'status', '--data', t2]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`\nAnother device, ${t1Id.slice(0, 8)}, is also named twin: give this one a name of its own with --name.\n`);
    const alone = await tempora(['sync', 'status', '--data', t1]);
    expect(alone.stdout).not.toContain('also named');
  });

  it('a sync says it too, as soon as it sees the other: two devices left on the host’s name', async () => {
    const folder = folderNamed('Sync-5-host');
    const [h1, h2] = [join(dir, 'h1'), join(dir, 'h2')];
    await tell(h1, 'barley');
    const first = await sync(h1, folder);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain('also named');
    await tell(h2, 'rice');
    const second = await sync(h2, folder);
    expect(second.code, second.stderr).toBe(0);
    const [one, two] = [await statusOf(h1), await statusOf(h2)];
    expect(two.device.name).toBe(one.device.name);
    expect(second.stdout).toContain(`\nAnother device, ${one.device.id.slice(0, 8)}, is also named ${one.device.name}: give this one a name of its own with --name.\n`);
    expect((await sync(h1, folder)).stdout).toContain(`\nAnother device, ${two.device.id.slice(0, 8)}, is also named`);
    expect((await sync(h2, folder, ['--json'])).stdout).not.toContain('also named');
  });
});

describe('a damaged segment from another device', () => {
  it('is said once, the others still apply, and sync status lists its device as blocked', async () => {
    const folder = folderNamed('Sync-6');
    const [a, b, c] = [join(dir, 'a'), join(dir, 'b'), join(dir, 'c')];
    await tell(a, 'lemonade');
    expect((await sync(a, folder, ['--name', 'a'])).code).toBe(0);
    await tell(b, 'cocoa');
    expect((await sync(b, folder, ['--name', 'b'])).code).toBe(0);
    const aId = (await statusOf(a)).device.id;
    const [segment] = segmentsOf(folder, aId);
    const name = `devices/${aId}/segments/${segment}`;
    const path = join(folder, name);
    const bytes = readFileSync(path);
    const changed = Buffer.from(bytes);
    changed.writeUInt8(changed.readUInt8(changed.length - 3) ^ 0xff, changed.length - 3); // one byte of the ciphertext changed
    writeFileSync(path, changed);

    const synced = await sync(c, folder, ['--name', 'c']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout.split(name)).toHaveLength(2); // named once
    expect(synced.stdout).toContain(`\nRefused: The segment ${name} could not be opened (it was changed or cut short, renamed, or sealed with another passphrase).\n`);
    const facts = await tempora(['facts', '--data', c, '--json']);
    expect((JSON.parse(facts.stdout) as { fact: string }[]).map((f) => f.fact)).toEqual(['cocoa']);

    const status = await tempora(['sync', 'status', '--data', c]);
    expect(status.stdout).toContain('Devices seen: 2\n');
    expect(status.stdout).toContain(`\n  ${aId}: blocked. The segment ${name} could not be opened (it was changed or cut short, renamed, or sealed with another passphrase). Its later segments wait until it is put right.\n`);
    const blocked = (await statusOf(c)).blocked;
    expect(blocked).toEqual([expect.objectContaining({ id: aId, segment: name, reason: `The segment ${name} could not be opened (it was changed or cut short, renamed, or sealed with another passphrase).` })]);

    // Put right, the next sync applies it and the device is no longer blocked.
    writeFileSync(path, bytes);
    expect((await sync(c, folder)).code).toBe(0);
    expect((await statusOf(c)).blocked).toEqual([]);
    expect((await tempora(['sync', 'status', '--data', c])).stdout).not.toContain('blocked');
  });

  it('is no longer listed as blocked once its device’s segments are gone from the target', async () => {
    const folder = folderNamed('Sync-6b');
    const [a, b, c] = [join(dir, 'gone-a'), join(dir, 'gone-b'), join(dir, 'gone-c')];
    await tell(a, 'barley tea');
    expect((await sync(a, folder, ['--name', 'a'])).code).toBe(0);
    await tell(b, 'yuzu');
    expect((await sync(b, folder, ['--name', 'b'])).code).toBe(0);
    const aId = (await statusOf(a)).device.id;
    const path = join(folder, 'devices', aId, 'segments', segmentsOf(folder, aId)[0]!);
    writeFileSync(path, Buffer.from('not a segment'));
    expect((await sync(c, folder, ['--name', 'c'])).code).toBe(0);
    expect((await statusOf(c)).blocked.map((d) => d.id)).toEqual([aId]);

    // The user cleans the folder of that device.
    rmSync(join(folder, 'devices', aId), { recursive: true });
    expect((await sync(c, folder)).code).toBe(0);
    expect((await statusOf(c)).blocked).toEqual([]);
    const status = await tempora(['sync', 'status', '--data', c]);
    expect(status.stdout).not.toContain(aId);
    expect(status.stdout).toContain('Devices seen: 1\n');
  });
});

describe('a segment not on the target while a later one is', () => {
  it('stops its device there, said in words, and applies both once it comes (a synced folder brings files in any order)', async () => {
    const [folder, copy] = [folderNamed('Sync-gap'), folderNamed('Sync-gap-copy')];
    const [a, b] = [join(dir, 'gap-a'), join(dir, 'gap-b')];
    for (const fact of ['green tea', 'cat', 'piano']) {
      await tell(a, fact);
      expect((await sync(a, folder, ['--name', 'a'])).code).toBe(0);
    }
    const aId = (await statusOf(a)).device.id;
    const segments = segmentsOf(folder, aId).sort();
    expect(segments).toHaveLength(3);
    // B's copy of the folder gets A's first and third segments; the second is still on its way.
    const bring = (segment: string) => {
      mkdirSync(join(copy, 'devices', aId, 'segments'), { recursive: true });
      writeFileSync(join(copy, 'devices', aId, 'segments', segment), readFileSync(join(folder, 'devices', aId, 'segments', segment)));
    };
    writeFileSync(join(copy, 'keycheck'), readFileSync(join(folder, 'keycheck')));
    bring(segments[0]!);
    bring(segments[2]!);
    const early = await sync(b, copy, ['--name', 'b']);
    expect(early.code, early.stderr).toBe(0);
    const tail = 'is not on the target, though a later one is: its later segments wait for it (a synced folder may still be bringing it).';
    expect(early.stdout).toContain(`applied 1 segment`);
    // A by the name its first segment, applied in this same sync, gave it; and so again next time.
    const words = `Segment 2 of a (${aId.slice(0, 8)}) ${tail}`;
    expect(early.stdout).toContain(`\nWaiting: ${words}\n`);
    expect((await sync(b, copy)).stdout).toContain(`\nWaiting: ${words}\n`);
    const facts = async () => (JSON.parse((await tempora(['facts', '--data', b, '--json'])).stdout) as { fact: string }[]).map((f) => f.fact).sort();
    expect(await facts()).toEqual(['green tea']);
    expect((await statusOf(b)).blocked).toEqual([expect.objectContaining({ id: aId, reason: words })]);

    bring(segments[1]!);
    const late = await sync(b, copy);
    expect(late.code, late.stderr).toBe(0);
    expect(late.stdout).toContain('applied 2 segments');
    expect(late.stdout).not.toContain('Waiting');
    expect(await facts()).toEqual(['cat', 'green tea', 'piano']);
    expect((await statusOf(b)).blocked).toEqual([]);
  });
});

describe('a memory that moves to another target', () => {
  it('sends everything there again and applies the others’ segments there from their first', async () => {
    const [old, moved] = [folderNamed('Sync-old'), folderNamed('Sync-new')];
    const [a, b, c] = [join(dir, 'move-a'), join(dir, 'move-b'), join(dir, 'move-c')];
    // A conversation with its title, from a history import, goes too.
    const chats = join(dir, 'move-chats.json');
    writeFileSync(chats, JSON.stringify([claudeConversation({ id: 'cv-move', name: '東京の生活', messages: [{ id: 'u1', sender: 'human', text: '渋谷に住んでいます。', time: '2024-07-10T03:00:05Z' }] })]));
    expect((await tempora(['import-chats', chats, '--data', a])).code).toBe(0);
    for (const fact of ['oolong', 'sencha']) {
      await tell(a, fact);
      expect((await sync(a, old, ['--name', 'a'])).code).toBe(0);
    }
    await tell(b, 'hojicha');
    expect((await sync(b, old, ['--name', 'b'])).code).toBe(0);
    expect((await sync(a, old)).code).toBe(0);
    const facts = async (data: string) => (JSON.parse((await tempora(['facts', '--data', data, '--json'])).stdout) as { fact: string }[]).map((f) => f.fact).sort();
    const all = ['hojicha', 'oolong', 'sencha'];
    expect(await facts(a)).toEqual(all);

    // A moves first: everything it holds goes to the new folder, B's facts among them.
    await tell(a, 'genmaicha');
    const movedA = await sync(a, moved);
    expect(movedA.code, movedA.stderr).toBe(0);
    expect(movedA.stdout).toContain('This memory had synced with another target: everything it holds was sent here again');
    expect((await sync(a, moved)).stdout).not.toContain('another target');
    // B follows: it sends its own again, and applies A's segments there from the first.
    await tell(b, 'kukicha');
    expect((await sync(b, moved)).stdout).toContain('another target');
    expect(await facts(b)).toEqual(['genmaicha', ...all, 'kukicha'].sort());
    // A new device on the new folder gets everything.
    expect((await sync(c, moved, ['--name', 'c'])).code).toBe(0);
    expect(await facts(c)).toEqual(['genmaicha', ...all, 'kukicha'].sort());
    expect((await sync(a, moved)).code).toBe(0);
    expect(await facts(a)).toEqual(await facts(c));
    const titles = async (data: string) => (JSON.parse((await tempora(['export', '--data', data])).stdout) as { conversations: { title: string }[] }).conversations.map((x) => x.title);
    expect(await titles(c)).toContain('東京の生活');
    expect((await titles(c)).sort()).toEqual((await titles(a)).sort());
  });
});

describe('a memory restored from a backup', () => {
  it('takes back what it sent after the backup, and numbers its new segments after those', async () => {
    const folder = folderNamed('Sync-restore');
    const [a, backup, b, c] = [join(dir, 'restore-a'), join(dir, 'restore-a-backup'), join(dir, 'restore-b'), join(dir, 'restore-c')];
    const facts = async (data: string) => (JSON.parse((await tempora(['facts', '--data', data, '--json'])).stdout) as { fact: string }[]).map((f) => f.fact).sort();
    await tell(a, 'oolong');
    expect((await sync(a, folder, ['--name', 'a'])).code).toBe(0);
    cpSync(a, backup, { recursive: true });
    for (const fact of ['sencha', 'hojicha']) {
      await tell(a, fact);
      expect((await sync(a, folder)).code).toBe(0);
    }
    expect((await sync(b, folder, ['--name', 'b'])).code).toBe(0);
    const id = (await statusOf(a)).device.id;
    expect(segmentsOf(folder, id)).toHaveLength(3);

    // The disk fails; the user restores last week's copy and goes on.
    rmSync(a, { recursive: true });
    cpSync(backup, a, { recursive: true });
    await tell(a, 'kukicha');
    const restored = await sync(a, folder);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Took back 6 records this device had sent from a later copy of this memory');
    expect(await facts(a)).toEqual(['hojicha', 'kukicha', 'oolong', 'sencha']);
    // Nothing the others applied was replaced: the new write went after them, and they get it.
    expect(segmentsOf(folder, id).map((name) => name.slice(0, 8))).toEqual(['00000001', '00000002', '00000003', '00000004']);
    expect((await sync(b, folder)).code).toBe(0);
    expect(await facts(b)).toEqual(['hojicha', 'kukicha', 'oolong', 'sencha']);
    expect((await sync(c, folder, ['--name', 'c'])).code).toBe(0);
    expect(await facts(c)).toEqual(['hojicha', 'kukicha', 'oolong', 'sencha']);
    // The next sync has nothing to take back.
    expect((await sync(a, folder)).stdout).not.toContain('Took back');
  });
});

describe('a target or key file that cannot be used is said in words', () => {
  it('a folder that is not there, a file in its place, a key file missing', async () => {
    const data = join(dir, 'words');
    const missing = await sync(data, join(dir, 'x'));
    expect(missing.stderr).toBe(`tempora: The sync folder ${join(dir, 'x')} is not there (is its drive connected?).\n`);
    const afile = join(dir, 'afile');
    writeFileSync(afile, 'not a folder');
    const file = await sync(data, afile);
    expect(file.stderr).toBe(`tempora: The sync folder ${afile} is a file, not a folder.\n`);
    const nokey = join(dir, 'nokey');
    const key = await sync(data, folderNamed('Sync-7'), ['--key-file', nokey], {});
    expect(key.code).toBe(1);
    expect(key.stderr).toBe(`tempora: --key-file ${nokey} cannot be read: no such file or directory\n`);
  });

  it('a folder of other files, or the memory’s own directory, is not made a target: nothing is written there', async () => {
    const docs = folderNamed('Documents');
    mkdirSync(join(docs, 'photos'));
    writeFileSync(join(docs, 'notes.txt'), 'my notes');
    const data = join(dir, 'own');
    const refused = await sync(data, docs);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `tempora: The folder ${docs} holds other files (notes.txt) but no Tempora key check: it is not a sync target, and nothing was written there. Choose an empty folder, or the one your other devices sync to.\n`,
    );
    expect(readdirSync(docs).sort()).toEqual(['notes.txt', 'photos']);
    expect(existsSync(data)).toBe(false);

    await tell(data, 'matcha');
    const before = readdirSync(data).sort();
    const itself = await sync(data, data);
    expect(itself.code).toBe(1);
    expect(itself.stderr).toMatch(/^tempora: The folder .+ holds other files \(.*memory\.sqlite.*\) but no Tempora key check: it is not a sync target/);
    expect(readdirSync(data).sort()).toEqual(before);
  });
});
