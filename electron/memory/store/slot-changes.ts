/** What a write did to the facts: the versions it wrote and expired, and what they mean to a person. */
export interface SlotChanges {
  /** Ids of versions written. */
  inserted: string[];
  /** Ids of brand-new facts (first versions of new chains). */
  created: string[];
  /** Ids of versions expired. */
  expired: string[];
  /** Versions written that closed a fact that was open before. */
  closed: string[];
  /** Live facts that only gained a source episode. */
  confirmed: string[];
}

export function emptyChanges(): SlotChanges {
  return { inserted: [], created: [], expired: [], closed: [], confirmed: [] };
}

export function mergeChanges(into: SlotChanges, from: SlotChanges): void {
  into.inserted.push(...from.inserted);
  into.created.push(...from.created);
  into.expired.push(...from.expired);
  into.closed.push(...from.closed);
  into.confirmed.push(...from.confirmed);
}
