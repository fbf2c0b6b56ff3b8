/**
 * A write is one batch. Every write path (observe, learning, review, edit, close, undo, redo,
 * forget, import) adds its claims here — or names a slot something left — and nothing is resolved
 * until the write commits: then each touched slot is resolved once, from the claims it holds plus
 * the new ones (slot-resolver.ts), at one moment of system time. So a write stores only the
 * difference between before and after by construction: no version is written that the same write
 * replaces, nothing is repaired afterwards, and a write costs what its slots cost.
 *
 * A claim may end because another claim of the same write was judged to replace it ("I moved to
 * Osaka" closes "I live in Tokyo", another slot): its end names that claim (`{ claim }`). The slot
 * is resolved with the end's time; the end names the fact that holds the judging claim — at once if
 * that claim's slot was resolved before, else filled in once it is (the claims' own ends decide the
 * spans, so the order of the slots never changes the facts).
 */
import type { FactRows } from '../store/fact-rows';
import type { StoreContext } from '../store/store-context';
import type { Clock } from '../store/clock';
import { emptyChanges, mergeChanges, type SlotChanges } from '../store/slot-changes';
import { SlotResolver, type NewClaim } from './slot-resolver';

interface Touched {
  subjectId: string;
  predicate: string;
  claims: NewClaim[];
  /** Something left the slot (forget, undo, a merge by migration or import): read it whole. */
  whole: boolean;
}

/** The store with the write in progress: what every write path is handed. */
export interface WriteContext extends StoreContext {
  slots: WriteBatch;
}

/** The store, with a write batch over it. */
export function writeContext(store: StoreContext): WriteContext {
  return { ...store, slots: new WriteBatch(new SlotResolver(store.rows, store.claims), store.rows, store.clock) };
}

const keyOf = (subjectId: string, predicate: string) => `${subjectId}\u0000${predicate}`;

export class WriteBatch {
  private touched = new Map<string, Touched>();
  private committed: SlotChanges | null = null;
  private after: (() => void)[] = [];
  /** What parts resolved before this one wrote (resolvePart), told with the write's own. */
  private earlier: SlotChanges | null = null;
  /** The store holds nothing of the slots this write resolves (assumeNothingStored). */
  private nothingStored = false;

  constructor(
    private readonly resolver: SlotResolver,
    private readonly facts: FactRows,
    private readonly clock: Clock,
  ) {}

  /** Starts a write: nothing is gathered yet. */
  begin(): void {
    this.touched = new Map();
    this.committed = null;
    this.after = [];
    this.earlier = null;
    this.nothingStored = false;
  }

  /**
   * Tells the batch that the store holds no claim or fact of any slot it will resolve: each is then
   * resolved from its new claims alone, reading nothing. A first sync onto an empty store sets it
   * while its segments only add (memory/sync/sync-first.ts: their indexes are not built yet); the
   * next part (resolvePart) or write starts without it.
   */
  assumeNothingStored(): void {
    this.open();
    this.nothingStored = true;
  }

  /**
   * Resolves what was gathered so far and opens the write for more: a write made of parts that each
   * read what the one before wrote (a first sync applies segment after segment in one write:
   * memory/sync/sync-first.ts). commit() then returns every part's changes.
   */
  resolvePart(): void {
    const sofar = this.commit();
    this.begin();
    this.earlier = sofar;
  }

  /** Runs `fn` once the write's slots are resolved, inside the write (what reads the result: an undo's report). */
  afterCommit(fn: () => void): void {
    this.open();
    this.after.push(fn);
  }

  /** Claims to place when the write commits (any slots, any order). */
  add(...claims: NewClaim[]): void {
    this.open();
    for (const claim of claims) this.slot(claim.subjectId, claim.predicate).claims.push(claim);
  }

  /** A slot something left: it is resolved again, whole, when the write commits. */
  refresh(subjectId: string, predicate: string): void {
    this.open();
    this.slot(subjectId, predicate).whole = true;
  }

  /**
   * Resolves each touched slot once and returns what the write changed. Idempotent within a write;
   * adding to a write after it committed is a mistake in the caller and throws.
   */
  commit(): SlotChanges {
    if (this.committed) return this.committed;
    const now = this.clock.now();
    const changes = emptyChanges();
    const holders = new Map<NewClaim, string>();
    const late: NewClaim[] = [];
    for (const slot of this.touched.values()) {
      const claims = slot.claims.map((claim) => {
        const by = claim.end?.by;
        if (by === undefined || by === null || typeof by === 'string') return claim;
        const holder = holders.get(by.claim);
        return { ...claim, end: { ...claim.end!, by: holder ?? null } };
      });
      const resolved = this.resolver.resolveSlot(slot.subjectId, slot.predicate, claims, { whole: slot.whole, now, nothingStored: this.nothingStored });
      mergeChanges(changes, resolved.changes);
      slot.claims.forEach((claim, i) => {
        const holder = resolved.holders.get(claims[i]!);
        if (holder !== undefined) holders.set(claim, holder);
        const by = claim.end?.by;
        if (by && typeof by !== 'string' && claims[i]!.end!.by === null) late.push(claim);
      });
    }
    for (const claim of late) {
      const holder = holders.get((claim.end!.by as { claim: NewClaim }).claim);
      if (holder !== undefined) this.facts.pointJudgedEnds(claim.subjectId, claim.predicate, claim.end!.at, holder);
    }
    if (this.earlier) {
      mergeChanges(this.earlier, changes);
      this.committed = this.earlier;
    } else this.committed = changes;
    for (const fn of this.after) fn();
    return this.committed;
  }

  private open(): void {
    if (this.committed) throw new Error('internal: a claim was added to a write after it was resolved');
  }

  private slot(subjectId: string, predicate: string): Touched {
    const key = keyOf(subjectId, predicate);
    let slot = this.touched.get(key);
    if (!slot) {
      slot = { subjectId, predicate, claims: [], whole: false };
      this.touched.set(key, slot);
    }
    return slot;
  }
}
