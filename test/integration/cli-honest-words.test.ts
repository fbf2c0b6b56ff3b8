/**
 * What the `tempora` process says about itself is true: a zone nobody knows is refused the same way
 * whether it came from --tz or $TEMPORA_TZ (naming which), the help says how zone-less times are
 * read (in the user's zone), and a usage error — a command line missing what it needs — exits 2,
 * as docs/cli.md says, with one line naming what is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';

let dir: string;

const tempora = (args: string[], env: NodeJS.ProcessEnv = {}) => temporaCommand([...args, '--data', join(dir, 'data')], { env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error', ...env } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-words-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ZONE_HINT = '(use an IANA name like Asia/Tokyo, or an offset like +09:00)';

describe('the tempora process says what is true', () => {
  it('refuses an unknown zone from $TEMPORA_TZ as it refuses one from --tz, naming where it came from', async () => {
    const fromOption = await tempora(['facts', '--tz', 'Bogus/Zone']);
    expect(fromOption).toMatchObject({ code: 1, stdout: '', stderr: `tempora: --tz: unknown time zone "Bogus/Zone" ${ZONE_HINT}\n` });
    const fromEnvironment = await tempora(['facts'], { TEMPORA_TZ: 'Bogus/Zone' });
    expect(fromEnvironment).toMatchObject({ code: 1, stdout: '', stderr: `tempora: $TEMPORA_TZ: unknown time zone "Bogus/Zone" ${ZONE_HINT}\n` });
    // --tz chooses the zone: the environment's is then not used, so not refused.
    const chosen = await tempora(['observe', '--help', '--tz', 'Asia/Tokyo'], { TEMPORA_TZ: 'Bogus/Zone' });
    expect(chosen.code).toBe(0);
    // An empty one is as good as unset.
    expect((await tempora(['help'], { TEMPORA_TZ: '' })).code).toBe(0);
  }, 60_000);

  it('says in --help that a time without a zone is read in your zone', async () => {
    const help = await tempora(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/no zone: UTC/);
    expect(help.stdout).toContain('Times (T) are dates, times or phrases, read in your time zone (--tz, else $TEMPORA_TZ, else the system’s) unless\nthey name one: 2026-09-10, 2026-09-10T09:00, 2026-09-10T09:00:00+09:00');
  }, 60_000);

  it('exits 2 for a command line missing what it needs, as docs/cli.md says', async () => {
    const noModel = await tempora(['ingest', 'messages.jsonl']);
    expect(noModel).toMatchObject({ code: 2, stderr: "tempora: ingest needs --model PATH (a GGUF chat model; see 'tempora models')\nRun 'tempora help ingest' for usage.\n" });
    const noChatModel = await tempora(['chat']);
    expect(noChatModel.code).toBe(2);
    expect(noChatModel.stderr).toMatch(/^tempora: chat needs --model PATH/);
    const noEmbedding = await tempora(['reindex']);
    expect(noEmbedding).toMatchObject({ code: 2, stderr: "tempora: reindex needs --embedding-model PATH (no embedding model was used here before)\nRun 'tempora help reindex' for usage.\n" });
    expect((await tempora(['frobnicate'])).code).toBe(2);
    expect((await tempora(['show'])).code).toBe(2);
    expect((await tempora(['facts', '--bogus'])).code).toBe(2);
  }, 60_000);
});
