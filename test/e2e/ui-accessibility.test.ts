/**
 * Accessibility checked by a library, not by eye (issue #25): axe-core runs on every screen of a
 * realistic small memory — a few hundred facts over months (test/fixtures/long-conversations-memory.ts)
 * and the seed's Japanese ones, a conversation with an answer that used facts and a message the
 * model learned from, one learned message waiting for review — in light and dark, at 1280 and
 * 900 px wide, in Chromium over the bridge. No serious or critical violation is allowed; a failure
 * prints each one with its rule, help and the elements it found.
 *
 * Screens the navigation links to that this file does not know by name (a new one) are checked too,
 * as they open.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { longConversationsMemory } from '../fixtures/long-conversations-memory';
import { scriptedModel } from '../fixtures/scripted-model';
import { CHROMIUM_MISSING } from './helpers/browser';
import { learnAll } from './helpers/learn-all';
import { seedMemory } from './helpers/seed-memory';
import { go, useUi } from './helpers/ui-session';

const model = scriptedModel({
  extract: {
    'I moved to Yokohama last month.': [{ subject: 'me', subject_type: 'user', predicate: 'lives_in', object: 'Yokohama', object_type: 'place', fact: 'I live in Yokohama.', cardinality: 'one', since: '2026-10' }],
    'My sister Mei works at Sony.': [{ subject: 'Mei', subject_type: 'person', predicate: 'works_at', object: 'Sony', object_type: 'organization', fact: 'Mei works at Sony.', cardinality: 'one' }],
  },
});

let conversationId: string;
let factId: string;

/** A screen in a state worth checking: how to get there, and what shows it is ready. */
interface ScreenState {
  name: string;
  open(page: Page): Promise<void>;
}

const screens: ScreenState[] = [
  {
    name: 'Chat with a conversation and an answer',
    open: async (page) => {
      await go(page, `#/chat/${conversationId}`);
      await page.locator('.message.assistant').first().waitFor();
      await page.locator('.fact-chip').first().waitFor();
    },
  },
  {
    name: 'Timeline with groups open',
    open: async (page) => {
      await go(page, '#/timeline');
      await page.locator('.tl-group').first().waitFor();
      const closed = page.locator('.tl-group-toggle[aria-expanded="false"]');
      // Opening a group moves the others (the list is virtual): a header counted may be gone by the
      // click, so each round looks again, and a click that finds none is not an error.
      for (let round = 0; round < 100 && (await closed.count()) > 0; round++) await closed.first().click({ timeout: 2_000 }).catch(() => undefined);
      await page.locator('.tl-row').first().waitFor();
    },
  },
  {
    name: 'Facts',
    open: async (page) => {
      await go(page, '#/facts');
      await page.locator('.fact-row').first().waitFor();
    },
  },
  {
    name: 'A fact’s page',
    open: async (page) => {
      await go(page, `#/facts/${factId}`);
      await page.locator('.versions li').first().waitFor();
    },
  },
  {
    name: 'Review with an item',
    open: async (page) => {
      await go(page, '#/review');
      await page.getByTestId('review-item').first().waitFor();
    },
  },
  {
    name: 'Models',
    open: async (page) => {
      await go(page, '#/models');
      await page.locator('.models-screen h1').waitFor();
    },
  },
  {
    name: 'Export / Import',
    open: async (page) => {
      await go(page, '#/data');
      await page.locator('main h1').first().waitFor();
    },
  },
];
const KNOWN_ROUTES = ['#/chat', '#/timeline', '#/facts', '#/review', '#/models', '#/data'];

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 900] as const;

/** The serious and critical violations on the page, one paragraph each ('' when none). */
async function seriousViolations(page: Page): Promise<string> {
  // Legacy mode: axe runs in the page itself (injected by page.evaluate, which the page's CSP allows), not in a second blank page per check.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => [`${v.impact}: ${v.id} — ${v.help} (${v.helpUrl})`, ...v.nodes.slice(0, 12).map((n) => `  ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`), ...(v.nodes.length > 12 ? [`  … and ${v.nodes.length - 12} more`] : [])].join('\n'))
    .join('\n');
}

async function showAs(page: Page, theme: (typeof THEMES)[number], width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await page.emulateMedia({ colorScheme: theme });
}

describe.skipIf(CHROMIUM_MISSING !== null)('every screen passes axe-core, light and dark, 1280 and 900 px', () => {
  const ui = useUi({
    zone: 'Asia/Tokyo',
    engine: { startWorker: false },
    seed: (engine) => {
      engine.memory.facts.observe(longConversationsMemory().observations, { where: 'long conversations' });
      seedMemory(engine);
    },
    shotPrefix: 'axe',
    shotNameLength: 50,
  });

  beforeAll(async () => {
    const { memory } = ui().engine;
    // A conversation: a message the model learned from, a question and an answer that used facts.
    conversationId = memory.conversations.create('Moving house').id;
    const say = (role: 'user' | 'assistant', content: string, time: string) => memory.messages.append({ role, content, time, timeZone: 'Asia/Tokyo', conversation: conversationId, learn: role === 'user' }).episode;
    say('user', 'I moved to Yokohama last month.', '2026-11-20T09:00:00+09:00');
    say('user', 'Who is my manager now?', '2026-11-20T09:01:00+09:00');
    const answer = say('assistant', 'Your manager is B, since 15 September 2026; before that it was A.', '2026-11-20T09:01:05+09:00');
    const managers = memory.facts.list({ history: true, predicate: 'manager' });
    memory.messages.recordFacts(answer.id, managers.map((f) => f.id));
    await learnAll(ui(), model);
    factId = memory.facts.list({ predicate: 'manager' })[0]!.id;
    // One learned message waiting for review.
    memory.review.setBeforeRemembering(true);
    memory.messages.append({ role: 'user', content: 'My sister Mei works at Sony.', time: '2026-11-21T09:00:00+09:00', timeZone: 'Asia/Tokyo' });
    await learnAll(ui(), model);
    // Screens the navigation has that this file does not name (Settings, Changes …) are checked as they open.
    const links = await ui().page.locator('nav[aria-label="Main"] a[href^="#/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    for (const href of links.filter((h) => !KNOWN_ROUTES.includes(h))) {
      screens.push({
        name: `the screen at ${href}`,
        open: async (page) => {
          await go(page, href);
          await page.locator('main h1').first().waitFor();
        },
      });
    }
  });

  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      it(`${theme}, ${width} px: no serious or critical violation on any screen`, async () => {
        const { page } = ui();
        await showAs(page, theme, width);
        const found: string[] = [];
        for (const screen of screens) {
          await screen.open(page);
          const violations = await seriousViolations(page);
          if (violations) found.push(`${screen.name}:\n${violations}`);
        }
        expect(found.join('\n\n')).toBe('');
        expect(ui().browser.problems).toEqual([]);
      }, 180_000);
    }
  }
});
