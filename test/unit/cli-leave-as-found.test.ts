/**
 * A command refused on a new memory directory takes back what it made (cli/memory-dir.ts
 * `leaveAsFound`) — but never a store another process opened there meanwhile and stored something
 * in, whether it still has it open or closed it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveAsFound, prepareForWrite } from '../../electron/cli/memory-dir';
import { databasePath, openMemory } from '../../electron/memory/index';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function newDir() {
  const root = mkdtempSync(join(tmpdir(), 'tempora-leave-'));
  roots.push(root);
  return { path: join(root, 'new', 'memory'), label: '--data' };
}

describe('a refused command on a new directory', () => {
  it('takes back the empty store it made, and the directories', () => {
    const dir = newDir();
    const made = prepareForWrite(dir);
    openMemory({ dataDir: dir.path }).close();
    leaveAsFound(dir, made);
    expect(existsSync(join(dir.path, '..'))).toBe(false);
  });

  it('leaves a store another process stored a message in meanwhile', () => {
    const dir = newDir();
    const made = prepareForWrite(dir);
    const other = openMemory({ dataDir: dir.path });
    const { episode } = other.messages.append({ role: 'user', content: 'Kept: I moved to Osaka.', time: '2026-12-05T10:00:00.000Z' });
    other.close();
    leaveAsFound(dir, made);
    expect(existsSync(databasePath(dir.path))).toBe(true);
    const reopened = openMemory({ dataDir: dir.path });
    expect(reopened.messages.learning(episode.id)).not.toBeNull();
    reopened.close();
  });

  it('leaves a store another process stored a message in and still has open', () => {
    const dir = newDir();
    const made = prepareForWrite(dir);
    const other = openMemory({ dataDir: dir.path });
    try {
      other.messages.append({ role: 'user', content: 'Kept too.', time: '2026-12-05T10:00:00.000Z' });
      leaveAsFound(dir, made);
      expect(existsSync(databasePath(dir.path))).toBe(true);
    } finally {
      other.close();
    }
  });
});
