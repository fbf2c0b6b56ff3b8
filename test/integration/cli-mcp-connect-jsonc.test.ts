/**
 * `tempora mcp connect CLIENT` on config files with comments (JSONC: VS Code's mcp.json, hand-edited
 * Cursor files), as a spawned process with HOME pointed at a temporary folder: Tempora's entry goes in
 * by a minimal edit, so every comment, trailing comma, the other servers and their layout stay byte for
 * byte, and `--remove` gives back the file exactly as it was; a file that is broken is refused naming
 * the file, line and column, and is left as it was (bytes, time, no backup). Settings → Connect an
 * agent reads and writes through the same code (its handlers are called here as the screen does).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaSync } from './cli-helpers';
import { agentHandlers } from '../../electron/engine/agent-handlers';

let home: string;

const tempora = (...args: string[]) =>
  temporaSync(args, { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TEMPORA_DATA_DIR: join(home, 'tempora-data'), TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' });

const backups = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.bak')).sort();
const jsonc = (text: string) => parse(text, [], { allowTrailingComma: true }) as { servers: Record<string, Record<string, unknown>> };
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What `after` has that `before` has not, when it is `before` with one piece put in at `at` (else null). */
function insertedAt(before: string, after: string, at: number): string | null {
  const tail = before.slice(at);
  return after.startsWith(before.slice(0, at)) && after.endsWith(tail) ? after.slice(at, after.length - tail.length) : null;
}

// VS Code's own mcp.json as users keep it: comments of both kinds, trailing commas, another server.
const VSCODE = `{
  // Servers for Copilot's agent mode
  "servers": {
    /* GitHub's remote server, with a key */
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/", // the remote one
      "headers": { "Authorization": "Bearer \${input:gh-token}" },
    }, // after github
  },
  "inputs": [
    { "type": "promptString", "id": "gh-token", "password": true }, // asked once
  ],
}
`;
/** Where Tempora's entry goes in VS Code's file: after the other server and the comment on its line. */
const AFTER_GITHUB = VSCODE.indexOf('// after github') + '// after github'.length;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tempora-mcp-connect-jsonc-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('tempora mcp connect on a config with comments', () => {
  it('adds Tempora to VS Code’s mcp.json keeping every comment, comma and the other server byte for byte; --remove gives the file back', () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    writeFileSync(file, VSCODE);

    const added = tempora('mcp', 'connect', 'vscode');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    // Only Tempora's entry was put in: after the other server and its comment, in the file's indentation
    // and with a trailing comma as the file has them.
    const inserted = insertedAt(VSCODE, after, AFTER_GITHUB);
    expect(inserted).toMatch(/^\n {4}"tempora": \{\n {6}"type": "stdio",\n {6}"command": [^\n]+\n {6}"args": \[\n[\s\S]*\n {4}\},$/);
    expect(after).toContain('    }, // after github\n    "tempora": {\n');
    const config = jsonc(after);
    expect(config.servers.github).toEqual(jsonc(VSCODE).servers.github);
    expect(config.servers.tempora!.type).toBe('stdio');
    expect(config.servers.tempora!.args).toContain('mcp');
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(join(dir, backups(dir)[0]!), 'utf8')).toBe(VSCODE);

    expect(tempora('mcp', 'connect', 'vscode').out).toContain('already has this entry; nothing changed');
    expect(readFileSync(file, 'utf8')).toBe(after);

    const removed = tempora('mcp', 'connect', 'vscode', '--remove');
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(VSCODE);
    expect(backups(dir)).toHaveLength(2);
  });

  it('puts the entry after a server with a comment on its line and no trailing comma, without moving the comment', () => {
    const dir = join(home, '.cursor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const before = '{\r\n\t"mcpServers": {\r\n\t\t"other": { "command": "x", "args": [] } // mine\r\n\t}\r\n}\r\n';
    writeFileSync(file, before);

    expect(tempora('mcp', 'connect', 'cursor').code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith('{\r\n\t"mcpServers": {\r\n\t\t"other": { "command": "x", "args": [] }, // mine\r\n\t\t"tempora": {\r\n\t\t\t"command": ')).toBe(true);
    expect(after.endsWith('\r\n\t\t}\r\n\t}\r\n}\r\n')).toBe(true);
    expect(after.replace(/\r\n/g, '')).not.toMatch(/\n/);

    expect(tempora('mcp', 'connect', 'cursor', '--remove').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('replaces an old Tempora entry in place: the comment above it and the servers around it stay', () => {
    const dir = join(home, '.cursor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const head = '{\n  "mcpServers": {\n    // Tempora, my memory\n    "tempora": ';
    const tail = ', /* keep */\n    "zed": { "command": "z" },\n  },\n}\n';
    writeFileSync(file, `${head}{ "command": "old-tempora" }${tail}`);

    expect(tempora('mcp', 'connect', 'cursor').out).toContain('Replaced the Tempora entry.');
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(`${head}{\n      "command": `)).toBe(true);
    expect(after.endsWith(`\n    }${tail}`)).toBe(true);
    expect((jsonc(after) as unknown as { mcpServers: Record<string, { command: string }> }).mcpServers.tempora!.command).toBe(process.execPath);

    // Taken out with its comma: the comments stay, the one on its line too, and so does the other server.
    expect(tempora('mcp', 'connect', 'cursor', '--remove').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{\n  "mcpServers": {\n    // Tempora, my memory\n    /* keep */\n    "zed": { "command": "z" },\n  },\n}\n');
  });

  it('refuses a broken file naming the file, line and column, and leaves it as it was: bytes, time, no backup', () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const broken = '// mine\n{"servers": {';
    writeFileSync(file, broken);
    const past = new Date('2024-01-02T03:04:05Z');
    utimesSync(file, past, past);
    for (const args of [['vscode'], ['vscode', '--remove']]) {
      const result = tempora('mcp', 'connect', ...args);
      expect(result.code).toBe(1);
      expect(result.out).toBe('');
      expect(result.err).toBe(`tempora: ${file} is not JSON (line 2, column 14: close brace expected); it was left as it is: fix it or move it away, then run this again.\n`);
    }
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(statSync(file).mtimeMs).toBe(past.getTime());
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });

  it('refuses a file with the servers key twice, or Tempora twice, naming both lines, and leaves it as it was', () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    const twice: Record<string, [text: string, said: string]> = {
      servers: ['{\n  "servers": { "a": { "command": "a" } },\n  // added later\n  "servers": {}\n}\n', '"servers" twice (lines 2 and 4)'],
      tempora: ['{\n  "servers": {\n    "tempora": { "command": "x" },\n    "tempora": { "command": "y" }\n  }\n}\n', '"tempora" twice in "servers" (lines 3 and 4)'],
    };
    for (const [text, said] of Object.values(twice)) {
      writeFileSync(file, text);
      for (const args of [['vscode'], ['vscode', '--remove']]) {
        const result = tempora('mcp', 'connect', ...args);
        expect(result.code).toBe(1);
        expect(result.err).toBe(`tempora: ${file} has ${said}, and an agent reads only one of them; it was left as it is: make them one, then run this again.\n`);
      }
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual(['mcp.json']);
    }
  });
});

describe('Settings → Connect an agent on a config with comments (the same code)', () => {
  const handlers = () => agentHandlers({ system: () => ({ env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, platform: 'linux' }) });
  const vscode = async () => (await handlers().agentClients({})).clients.find((client) => client.client === 'vscode')!;

  it('reads VS Code’s mcp.json with comments, connects and removes keeping them', async () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    writeFileSync(file, VSCODE);
    expect(await vscode()).toMatchObject({ problem: null, current: 'none' });

    const connected = await handlers().connectAgent({ client: 'vscode', way: 'stdio' });
    expect(connected.changed).toBe(true);
    expect(connected.client).toMatchObject({ problem: null, current: 'stdio' });
    expect(insertedAt(VSCODE, readFileSync(file, 'utf8'), AFTER_GITHUB)).toMatch(/^\n {4}"tempora": \{[\s\S]*\},$/);

    const removed = await handlers().disconnectAgent({ client: 'vscode' });
    expect(removed.changed).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(VSCODE);
  });

  it('says where a broken file is broken, in one sentence, and leaves it alone', async () => {
    const dir = join(home, '.config', 'Code', 'User');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{\n  "servers": {\n    "a": 1 2\n  }\n}\n');
    const sentence = `${file} is not JSON (line 3, column 12); it was left as it is: fix it or move it away, then try again.`;
    expect((await vscode()).problem).toBe(sentence);
    await expect(handlers().connectAgent({ client: 'vscode', way: 'stdio' })).rejects.toThrow(new RegExp(`^${escaped(sentence)}$`));
    expect(readFileSync(file, 'utf8')).toBe('{\n  "servers": {\n    "a": 1 2\n  }\n}\n');
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });
});
