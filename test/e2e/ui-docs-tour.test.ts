/**
 * The screens as a user meets them, on a realistic memory (test/fixtures/a-life.ts: two years of a
 * life, the user's own facts among ~280 fact versions, English and Japanese, times in Tokyo), in
 * Chromium over the bridge: every screen shows its content with no page error, light and dark. The
 * README's pictures come from here (TEMPORA_DOCS_SCREENSHOTS=1), not from the tiny model's nonsense.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';
import { aLife } from '../fixtures/a-life';

describe.skipIf(CHROMIUM_MISSING !== null)('a tour of the screens on a realistic memory', () => {
  const ui = useUi(() => {
    const life = aLife();
    return {
      zone: 'Asia/Tokyo',
      engine: { startWorker: false },
      seed: (engine) => {
        engine.memory.facts.observe(life.observations, { where: 'two years of conversations', conversation: { id: 'cnv_life', title: 'Notes from two years' } });
        const conversation = 'cnv_tour';
        const asked = new Date(life.now - 3_600_000).toISOString();
        engine.memory.messages.append({ role: 'user', content: 'Who is my manager now, and who was it when I lived in Osaka?', time: asked, conversation, conversationTitle: 'Managers over time', learn: false });
        const { episode } = engine.memory.messages.append({
          role: 'assistant',
          content: 'Your manager now is Mei Suzuki, since you joined Hoshi Labs. While you lived in Osaka your manager was Aiko Tanaka at first, then Kenji Sato.',
          time: new Date(life.now - 3_590_000).toISOString(),
          conversation,
          learn: false,
        });
        const used = engine.memory.facts.list({ history: true, subject: 'me' }).filter((f) => f.predicate === 'manager' || f.predicate === 'lives_in');
        engine.memory.messages.recordFacts(episode.id, used.map((f) => f.id));
      },
      shotPrefix: 'tour',
    };
  });

  beforeAll(async () => {
    await ui().page.setViewportSize({ width: 1280, height: 800 });
  });

  it('chat: the answer, the facts it used folded to one line', async () => {
    const { page } = ui();
    await go(page, '#/chat/cnv_tour');
    await expect.poll(() => page.locator('.message-text').last().textContent()).toContain('Mei Suzuki');
    await screenshot(page, 'chat', { docs: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'chat-dark', { docs: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('timeline: opens on the user, with now in view', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    await page.locator('.tl-group[data-group="me"]').waitFor();
    const axis = page.locator('.tl-axis');
    const from = Number(await axis.getAttribute('data-from'));
    const to = Number(await axis.getAttribute('data-to'));
    expect(from).toBeLessThan(Date.now());
    expect(to).toBeGreaterThan(Date.now());
    // The user's own group is open from the start (no click: the screen opens on the user).
    expect(await page.locator('.tl-group[data-group="me"] .tl-group-toggle').getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('.tl-row[data-row="me · manager"]').count()).toBe(1);
    await screenshot(page, 'timeline', { docs: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'timeline-dark', { docs: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('facts: newest first, and a fact’s page with its slot’s history', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await page.locator('.fact-row').first().waitFor();
    await screenshot(page, 'facts', { docs: true });
    const manager = ui().engine.memory.facts.list({ subject: 'me' }).find((f) => f.predicate === 'manager')!;
    await go(page, `#/facts/${manager.id}`);
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toContain('Mei Suzuki');
    // The slot's whole history: three managers, newest first.
    await expect.poll(() => page.locator('.slot-history').textContent()).toMatch(/Mei Suzuki[\s\S]*Kenji Sato[\s\S]*Aiko Tanaka/);
    await screenshot(page, 'fact-page', { docs: true });
  });

  it('what changed: by month, newest first, the user’s own changes among them', async () => {
    const { page } = ui();
    await go(page, '#/changes');
    // (Changes still to come are folded above: the first row in view is one that has happened.)
    await page.locator('.change-row').filter({ visible: true }).first().waitFor();
    await page.getByLabel('About').fill('me');
    await page.getByLabel('About').press('Enter');
    await expect.poll(() => page.locator('.change-row').allTextContents().then((rows) => rows.join('\n'))).toMatch(/manager: ?Kenji Sato → Mei Suzuki/);
    await screenshot(page, 'changes', { docs: true });
  });

  it('settings: the zone, learning, MCP and where the memory lives', async () => {
    const { page } = ui();
    await go(page, '#/settings');
    await expect.poll(() => page.locator('.settings-screen').textContent()).toContain('Asia/Tokyo');
    await screenshot(page, 'settings', { docs: true });
  });

  it('export and import', async () => {
    const { page } = ui();
    await go(page, '#/data');
    await page.getByRole('button', { name: /Export/ }).first().waitFor();
    await screenshot(page, 'export-import', { docs: true });
  });

  it('no page error on any screen', () => {
    expect(ui().browser.problems).toEqual([]);
  });
});
