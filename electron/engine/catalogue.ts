/** The model catalogue as the faces show it (light: no model runtime is loaded by importing this). */
import type { CatalogueEntry } from '../../shared/api-contract';

export { fitLabel, type CatalogueModel } from '../llm/model-catalogue';

/**
 * One recommendation for this machine: the best chat model that fits (the largest that fits, else
 * the smallest that may be slow), marked and listed first; the others follow in catalogue order.
 */
export function withRecommendation(entries: readonly Omit<CatalogueEntry, 'recommended'>[]): CatalogueEntry[] {
  const chats = entries.filter((e) => e.role === 'chat');
  const best =
    chats.filter((e) => e.fit === 'fits').sort((a, b) => b.ramBytes - a.ramBytes)[0] ??
    chats.filter((e) => e.fit === 'may_be_slow').sort((a, b) => a.ramBytes - b.ramBytes)[0];
  const marked = entries.map((e) => ({ ...e, recommended: e === best }));
  return [...marked.filter((e) => e.recommended), ...marked.filter((e) => !e.recommended)];
}
