/** What a write changed, merged part by part (store/slot-changes.ts): a first sync's part can hold 150k versions. */
import { describe, expect, it } from 'vitest';
import { emptyChanges, mergeChanges } from '../../electron/memory/store/slot-changes';

describe('mergeChanges', () => {
  it('appends every list in order, however long', () => {
    const into = { ...emptyChanges(), inserted: ['a'], confirmed: ['c'] };
    const many = Array.from({ length: 300_000 }, (_, i) => `v${i}`);
    mergeChanges(into, { inserted: many, created: ['n'], expired: ['x', 'y'], closed: [], confirmed: ['d'] });
    expect(into.inserted).toHaveLength(300_001);
    expect(into.inserted.slice(0, 3)).toEqual(['a', 'v0', 'v1']);
    expect(into.inserted.at(-1)).toBe('v299999');
    expect(into).toMatchObject({ created: ['n'], expired: ['x', 'y'], closed: [], confirmed: ['c', 'd'] });
  });

  it('merging changes into themselves doubles each list once', () => {
    const changes = { ...emptyChanges(), inserted: ['a', 'b'], closed: ['c'] };
    mergeChanges(changes, changes);
    expect(changes).toMatchObject({ inserted: ['a', 'b', 'a', 'b'], closed: ['c', 'c'], created: [] });
  });
});
