/**
 * `tempora mcp connect CLIENT` (issue #30, item 3), as a spawned process with HOME (and
 * XDG_CONFIG_HOME) pointed at a temporary folder: it finds the client's config file, shows the entry,
 * writes it beside what was there with a backup of the old file, `--remove` takes it out again; an
 * unknown client, a client that is not installed and a config that is not JSON get one sentence each
 * and change nothing (the broken file is never overwritten).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaSync } from './cli-helpers';

const root = resolve(import.meta.dirname, '../..');
let home: string;

const tempora = (...args: string[]) =>
  temporaSync(args, { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TEMPORA_DATA_DIR: join(home, 'tempora-data'), TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' });

const json = (path: string): Record<string, Record<string, Record<string, unknown>>> => JSON.parse(readFileSync(path, 'utf8'));
const backups = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.bak')).sort();

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tempora-mcp-connect-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('tempora mcp connect', () => {
  it('adds Tempora to Claude Desktop beside the servers already there, with a backup, and --remove takes it out', () => {
    const dir = join(home, '.config', 'Claude');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'claude_desktop_config.json');
    const before = { mcpServers: { other: { command: 'other-server' } }, globalShortcut: 'Ctrl+Space' };
    writeFileSync(file, JSON.stringify(before, null, 2));

    const added = tempora('mcp', 'connect', 'claude-desktop');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const config = json(file);
    expect(config.globalShortcut).toBe('Ctrl+Space');
    expect(config.mcpServers!.other).toEqual({ command: 'other-server' });
    const entry = config.mcpServers!.tempora as { command: string; args: string[] };
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual(['--import', join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(root, 'electron', 'cli', 'main.ts'), 'mcp', '--data', join(home, 'tempora-data'), '--tz', 'UTC']);
    expect(added.out).toContain(`Claude Desktop: ${file}`);
    expect(added.out).toContain(JSON.stringify({ tempora: entry }, null, 2));
    expect(backups(dir)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, backups(dir)[0]!), 'utf8'))).toEqual(before);
    expect(added.out).toContain(`The old file is kept as ${join(dir, backups(dir)[0]!)}.`);
    expect(added.out).toContain('Restart Claude Desktop');

    // Again: the same entry is there, nothing to change.
    const again = tempora('mcp', 'connect', 'claude-desktop');
    expect(again.code).toBe(0);
    expect(again.out).toContain('already has this entry; nothing changed');
    expect(backups(dir)).toHaveLength(1);

    const removed = tempora('mcp', 'connect', 'claude-desktop', '--remove');
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(json(file)).toEqual(before);
    expect(removed.out).toContain(`Removed Tempora from Claude Desktop (${file})`);
    const gone = tempora('mcp', 'connect', 'claude-desktop', '--remove');
    expect(gone.out).toContain('has no Tempora entry; nothing changed');
  });

  it('passes the zone on as --data is, so the agent reads "先週" in the zone the user asked for', () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const args = () => (json(file).servers!.tempora as { args: string[] }).args;
    const given = tempora('mcp', 'connect', 'vscode', '--tz', 'America/Los_Angeles');
    expect(given.err).toBe('');
    expect(given.code).toBe(0);
    expect(args().slice(-5)).toEqual(['mcp', '--data', join(home, 'tempora-data'), '--tz', 'America/Los_Angeles']);
    expect(tempora('mcp', 'connect', 'vscode', '--tz', 'America/Los_Angeles').out).toContain('already has this entry; nothing changed');
    // $TEMPORA_TZ, when no --tz is given.
    const fromEnv = temporaSync(['mcp', 'connect', 'vscode'], { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TEMPORA_DATA_DIR: join(home, 'tempora-data'), TEMPORA_TZ: 'Asia/Tokyo' });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.out).toContain('Replaced the Tempora entry.');
    expect(args().slice(-2)).toEqual(['--tz', 'Asia/Tokyo']);
  });

  it('writes each client’s own shape where it looks: Cursor, VS Code, LM Studio, Jan', () => {
    const where = {
      cursor: [join(home, '.cursor'), 'mcp.json', 'mcpServers'],
      vscode: [join(home, '.config', 'Code', 'User'), 'mcp.json', 'servers'],
      'lm-studio': [join(home, '.lmstudio'), 'mcp.json', 'mcpServers'],
      jan: [join(home, '.local', 'share', 'Jan', 'data'), 'mcp_config.json', 'mcpServers'],
    } as const;
    for (const [client, [dir, name, key]] of Object.entries(where)) {
      mkdirSync(dir, { recursive: true });
      const result = tempora('mcp', 'connect', client);
      expect(result.err, client).toBe('');
      expect(result.code, client).toBe(0);
      const entry = json(join(dir, name))[key]!.tempora!;
      expect(entry.args, client).toContain('mcp');
      if (client === 'vscode') expect(entry.type).toBe('stdio');
      if (client === 'jan') expect(entry.active).toBe(true);
      expect(backups(dir), client).toEqual([]); // there was no old file to keep
    }
  });

  it('refuses a config that is not JSON in words, and never overwrites it', () => {
    const dir = join(home, '.cursor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{ "mcpServers": { "other": { "command": "x", } }');
    const result = tempora('mcp', 'connect', 'cursor');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(new RegExp(`^tempora: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not JSON \\(line 1, column 49: close brace expected\\); it was left as it is: fix it or move it away, then run this again\\.\\n$`));
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "other": { "command": "x", } }');
    expect(backups(dir)).toEqual([]);
  });

  it('keeps the file\'s indentation, its byte-order mark and who may read it', () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    // VS Code writes its files with tabs; a secret in another server's env is why the file is 0600.
    const before = { servers: { gh: { type: 'http', url: 'https://x', headers: { Authorization: 'Bearer secret' } } }, inputs: [] };
    writeFileSync(file, `\uFEFF${JSON.stringify(before, null, '\t')}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);

    const added = tempora('mcp', 'connect', 'vscode');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{\n\t"servers": {\n\t\t"gh": {')).toBe(true);
    expect(text).not.toMatch(/^ /m);
    expect(JSON.parse(text.slice(1)).servers.gh).toEqual(before.servers.gh);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Four spaces stay four spaces, and --remove gives back the file as it was.
    const lm = join(home, '.lmstudio');
    mkdirSync(lm);
    const lmFile = join(lm, 'mcp.json');
    const four = `${JSON.stringify({ mcpServers: { other: { command: 'x' } } }, null, 4)}\n`;
    writeFileSync(lmFile, four);
    expect(tempora('mcp', 'connect', 'lm-studio').code).toBe(0);
    expect(readFileSync(lmFile, 'utf8')).toMatch(/^ {8}"tempora": \{$/m);
    expect(tempora('mcp', 'connect', 'lm-studio', '--remove').code).toBe(0);
    expect(readFileSync(lmFile, 'utf8')).toBe(four);
  });

  it('refuses a read-only config in words and changes nothing', () => {
    const dir = join(home, '.cursor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const before = '{ "mcpServers": { "tempora": { "command": "old" } } }\n';
    writeFileSync(file, before);
    chmodSync(file, 0o444);
    for (const args of [['cursor'], ['cursor', '--remove']]) {
      const result = tempora('mcp', 'connect', ...args);
      expect(result.code).toBe(1);
      expect(result.out).toBe('');
      expect(result.err).toBe(`tempora: ${file} is read-only; it was left as it is: make it writable, then run this again.\n`);
    }
    chmodSync(file, 0o644);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(backups(dir)).toEqual([]);
  });

  it('says when a client is not installed, and names the clients it knows for an unknown one', () => {
    const missing = tempora('mcp', 'connect', 'lm-studio');
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`tempora: LM Studio does not seem to be installed: there is no ${join(home, '.lmstudio')}. Install it and open it once, then run this again.\n`);
    expect(existsSync(join(home, '.lmstudio'))).toBe(false);

    const unknown = tempora('mcp', 'connect', 'chatgpt');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('tempora: mcp connect: unknown client "chatgpt" (one of: claude-desktop, cursor, vscode, lm-studio, jan)');
    const none = tempora('mcp', 'connect');
    expect(none.code).toBe(2);
    expect(none.err).toContain('mcp connect needs CLIENT (one of: claude-desktop, cursor, vscode, lm-studio, jan)');
    const other = tempora('mcp', 'plug');
    expect(other.code).toBe(2);
    expect(other.err).toContain('mcp: unknown subcommand "plug" (use: mcp, mcp connect CLIENT)');
  });
});
