/**
 * The extraction evaluation's data set: every scenario of the cases-*.ts files, checked by the
 * schema (case-schema.ts) when loaded. Ids are unique; message order within a scenario is time order.
 */
import { z } from 'zod';
import { scenario, type Scenario } from './case-schema';
import { EN_CHANGES, EN_CORRECTIONS } from './cases-en-changes';
import { EN_DATES } from './cases-en-dates';
import { EN_CHIT_CHAT, EN_CONFIRMATIONS } from './cases-en-talk';
import { JA_CHANGES, JA_CORRECTIONS } from './cases-ja-changes';
import { JA_DATES } from './cases-ja-dates';
import { JA_CHIT_CHAT, JA_CONFIRMATIONS } from './cases-ja-talk';

export const EXTRACTION_SCENARIOS: readonly Scenario[] = z
  .array(scenario)
  .parse([...EN_CHANGES, ...EN_CORRECTIONS, ...EN_DATES, ...EN_CONFIRMATIONS, ...EN_CHIT_CHAT, ...JA_CHANGES, ...JA_CORRECTIONS, ...JA_DATES, ...JA_CONFIRMATIONS, ...JA_CHIT_CHAT]);

/** The messages that are learned and scored. */
export function userMessageCount(scenarios: readonly Scenario[]): number {
  return scenarios.reduce((n, s) => n + s.messages.filter((m) => m.role === 'user').length, 0);
}
