/**
 * `tempora import-chats` refuses in words a file with nothing to import (`[]`) and a zip that is
 * damaged or cut short, naming the file, and creates no memory for either.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { sampleClaudeExport, writeZip } from '../fixtures/chat-exports';
import { cliSandbox } from './cli-helpers';

const box = cliSandbox('tempora-cli-chats-nothing-');

async function tempora(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { stdout: (t: string) => (out += t), stderr: (t: string) => (err += t), cwd: box.dir, env: { TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error' }, clock: box.clock };
  const code = await runAsync([...argv, '--data', join(box.dir, 'data')], io);
  return { code, out, err };
}

describe('tempora import-chats: nothing to import', () => {
  it('a file holding no conversations is refused in words and creates no memory', async () => {
    box.write('conversations.json', '[]\n');
    for (const extra of [[], ['--dry-run']]) {
      const refused = await tempora('import-chats', 'conversations.json', ...extra);
      expect(refused).toEqual({ code: 1, out: '', err: 'tempora: conversations.json: nothing to import: the file holds no conversations\n' });
    }
    expect(existsSync(join(box.dir, 'data'))).toBe(false);
  });

  it('a zip cut short is said in our words, naming the file, and creates no memory', async () => {
    const zip = join(box.dir, 'export.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleClaudeExport()) });
    const bytes = readFileSync(zip);
    writeFileSync(zip, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const refused = await tempora('import-chats', 'export.zip');
    expect(refused).toEqual({ code: 1, out: '', err: 'tempora: export.zip: the zip is damaged or cut short, so it cannot be read: download the export again\n' });
    expect(existsSync(join(box.dir, 'data'))).toBe(false);
  });
});
