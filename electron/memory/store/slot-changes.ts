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

/** Appends `from` to `into`. A loop, not push(...list): a part of a first sync can write 150k versions, past what a call's arguments hold. */
export function mergeChanges(into: SlotChanges, from: SlotChanges): void {
  for (const key of ['inserted', 'created', 'expired', 'closed', 'confirmed'] as const) {
    const [list, more] = [into[key], from[key]];
    // Up to its length when the merge began: merging a list into itself doubles it once.
    for (let i = 0, n = more.length; i < n; i++) list.push(more[i]!);
  }
}
