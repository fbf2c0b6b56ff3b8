/**
 * Settings → Connect an agent → "Put tempora on the PATH", in Chromium over the bridge, composed as
 * the macOS app composes it (electron/main/command-on-path.ts with a temporary folder as the target):
 * the button writes the launcher and says where, and whether that folder is on the PATH; a `tempora`
 * Tempora did not write is left alone, in words. Over a plain bridge the offer is not shown.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putCommandOnPath } from '../../electron/main/command-on-path';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let work: string;
let bin: string;

describe.skipIf(CHROMIUM_MISSING !== null)('Settings → Put tempora on the PATH', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'tempora-on-path-ui-'));
    bin = join(work, 'bin');
    mkdirSync(bin);
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const layout = { isPackaged: true, platform: 'darwin' as const, execPath: '/Applications/Tempora.app/Contents/MacOS/Tempora', appPath: '/Applications/Tempora.app/Contents/Resources/app.asar' };
  const ui = useUi(() => ({ zone: 'UTC', engine: { startWorker: false }, commandOnPath: { dir: bin, put: () => putCommandOnPath(layout, { dir: bin, path: '/usr/bin:/bin' }) }, shotPrefix: 'on-path' }));

  it('writes the launcher by keyboard and says where, and that its folder is not on the PATH', async () => {
    const { page } = ui();
    await go(page, '#/settings');
    const button = page.getByTestId('command-on-path');
    await button.waitFor();
    expect(await page.locator('.command-on-path').textContent()).toContain(`Puts tempora in ${bin}`);
    await button.focus();
    await button.press('Enter');
    const said = page.getByTestId('command-on-path-said');
    await expect.poll(() => said.count()).toBe(1);
    expect(await said.textContent()).toBe(`Wrote ${join(bin, 'tempora')}, but ${bin} is not on your PATH: add it, then open a new terminal and run tempora --help.`);
    expect(statSync(join(bin, 'tempora')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(bin, 'tempora'), 'utf8')).toContain("exec '/Applications/Tempora.app/Contents/MacOS/Tempora'");
    await screenshot(page, 'settings-command-on-path');
  });

  it('leaves a tempora it did not write alone, in words', async () => {
    const { page } = ui();
    writeFileSync(join(bin, 'tempora'), '#!/bin/sh\necho mine\n');
    await page.getByTestId('command-on-path').press('Enter');
    const alert = page.locator('.command-on-path').getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toBe(`${join(bin, 'tempora')} is already there and Tempora did not write it; it was left as it is: move it away, then try again.`);
    expect(readFileSync(join(bin, 'tempora'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });
});
