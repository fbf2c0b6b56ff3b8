/**
 * Keeps one vector table in sync with SQLite, reading only what changed when it can: the ids the
 * outbox recorded since the last sync (vector-changes.ts), their current texts by primary key, and
 * the stored hashes of those ids alone. At a million facts a start-up with nothing changed then
 * reads a few rows instead of two million hashes from each side.
 *
 * The full reconcile (vector-sync.ts: every live item against every stored hash) still runs when
 * the outbox cannot be trusted to hold every change: the table is new or was reset (another model,
 * dimension or layout), no sync is recorded or the last full one did not finish, the generation in
 * SQLite differs from the stamp beside the table (sync-stamp.ts), the schema changed (a migration,
 * a bulk load), the text recipe or the model changed, or so many changes wait that reading
 * everything is quicker. Either way the outbox rows read are drained only after LanceDB holds the
 * writes, and a new generation is stamped first: a crash in between redoes the work next time.
 *
 * Two processes may sync the same tables at once (the app and `tempora serve`, or a CLI command
 * with --embedding: one database, one vector directory). One can read an item, the other change
 * it, sync the new text and drain both outbox rows, and the first then write the old text: LanceDB
 * would hold it for good, with nothing left in the outbox to say so. So a sync remembers what it
 * wrote (each id with the hash of its text) and deleted, and at its commit reads those ids again;
 * any whose text or liveness differs now goes back into the outbox with a new sequence number, so
 * the next sync (of either process) does it again. That closes the race without a lease between
 * processes (which would need expiry and a holder that may have died): the check follows this
 * sync's own LanceDB write, and a change after the check adds its own outbox row, numbered above
 * every sync's read so far, which no running sync can drain.
 */
import { checkDimensions, indexItems, rebuild, reconcile, textHash, type ReconcileResult, type VectorSource, type VectorSourceItem, type VectorSyncOptions } from './vector-sync';
import { newGeneration, readStamp, removeStamp, writeStamp } from './sync-stamp';
import type { TextEmbedder } from './text-embedder';
import { DROPPED, type VectorChanges } from './vector-changes';
import type { VectorIndex } from './vector-index';
import type { VectorKind } from './vector-table';

/** The live items of a table's kinds, all of them or by id, and the recipe their texts follow. */
export interface ChangedItemsSource extends VectorSource {
  /** The live items among `ids` (absent: not live). */
  byId(ids: readonly string[]): VectorSourceItem[];
  /** Identifies how texts are made from rows (vector-source.ts VECTOR_TEXT_RECIPE). */
  recipe: string;
}

export interface VectorSyncResult extends ReconcileResult {
  /** 'full': every item was read; 'changes': only those the outbox recorded. */
  mode: 'full' | 'changes';
  /** Why every item was read (null in 'changes' mode). */
  reason: string | null;
  /** What the sync looked at: outbox ids, items read from SQLite, hashes read from LanceDB. */
  examined: { changes: number; sourceItems: number; storedHashes: number };
}

/** More changed ids than this for one table, and the full reconcile is the quicker read. */
export const MAX_CHANGES_READ = 10_000;

/** Ids read back per query when a commit checks what it wrote (a full reconcile wrote them all). */
const RECHECK_CHUNK = 5_000;

/** What one sync wrote (each id with the hash of the text embedded) and deleted. */
interface Written {
  items: Map<string, { kind: VectorKind; hash: string }>;
  deleted: Set<string>;
}

function recording(): Written & { options(options: VectorSyncOptions, retry: VectorSourceItem[]): VectorSyncOptions } {
  const items = new Map<string, { kind: VectorKind; hash: string }>();
  const deleted = new Set<string>();
  return {
    items,
    deleted,
    options: (options, retry) => ({
      ...options,
      // Items whose vector came out non-finite stay in the outbox, so the next sync tries them again.
      onSkipped: (item) => retry.push(item),
      onWritten: (item) => items.set(item.id, { kind: item.kind, hash: textHash(item.kind, item.text) }),
      onRemoved: (ids) => ids.forEach((id) => deleted.add(id)),
    }),
  };
}

export class VectorTableSync {
  /** Set until the first sync of this session commits: the table as opened can not be trusted. */
  private untrusted: string | null;

  constructor(
    private readonly index: VectorIndex,
    private readonly kinds: readonly VectorKind[],
    private readonly changes: VectorChanges,
    private readonly source: ChangedItemsSource,
  ) {
    this.untrusted = index.resetReason ? `the vector table was reset (${index.resetReason})` : index.created ? 'the vector table is new' : null;
  }

  private get model(): string {
    return this.index.model ?? '';
  }

  /** Why the outbox cannot be trusted to hold every change now, or null when it can. */
  fullReason(): string | null {
    if (this.untrusted) return this.untrusted;
    const state = this.changes.state(this.index.name);
    if (!state) return 'no earlier sync of this table is recorded';
    if (state.generation === null) return 'the last full reconcile did not finish';
    if (state.generation === DROPPED) return `more than ${MAX_CHANGES_READ} changes waited with no sync and were dropped unread`;
    const stamp = readStamp(this.index.path, this.index.name);
    if (stamp === null) return 'the vector table has no sync stamp';
    if (stamp !== state.generation) return 'the database and the vector table were not last synced together (restored or copied?)';
    if (state.schemaVersion !== this.changes.schemaVersion()) return 'the database schema changed since the last sync (a migration or a bulk load)';
    if (state.recipe !== this.source.recipe) return 'the texts items are embedded from have changed';
    if (state.model !== this.model) return 'the embedding model changed';
    if (this.changes.waiting(this.kinds, MAX_CHANGES_READ + 1) > MAX_CHANGES_READ) return `more than ${MAX_CHANGES_READ} changes are waiting: reading every item is quicker`;
    return null;
  }

  /** Brings the table up to date: only the recorded changes when they can be trusted, else everything. */
  sync(embedder: TextEmbedder, options: VectorSyncOptions = {}): Promise<VectorSyncResult> {
    checkDimensions(this.index, embedder);
    const reason = this.fullReason();
    if (reason === null) return this.syncChanges(embedder, options);
    return this.syncAll(reason, options, (source, withRetry) => reconcile(this.index, source, embedder, withRetry));
  }

  /** Drops the table and embeds every live item again (`tempora reindex`). */
  rebuild(embedder: TextEmbedder, options: VectorSyncOptions = {}): Promise<VectorSyncResult> {
    checkDimensions(this.index, embedder);
    return this.syncAll('a rebuild was asked for', options, (source, withRetry) => {
      removeStamp(this.index.path, this.index.name);
      return rebuild(this.index, source, embedder, withRetry);
    });
  }

  private async syncAll(reason: string, options: VectorSyncOptions, run: (source: VectorSource, options: VectorSyncOptions) => Promise<ReconcileResult>): Promise<VectorSyncResult> {
    this.changes.distrust(this.index.name, this.source.recipe, this.model);
    let upTo = 0;
    let schemaVersion = 0;
    let sourceItems = 0;
    const { changes, kinds, source } = this;
    const counted: VectorSource = {
      // What the outbox holds up to now is covered by the items read right after (same tick, no await).
      *liveItems() {
        upTo = changes.upTo(kinds);
        schemaVersion = changes.schemaVersion();
        for (const item of source.liveItems()) {
          sourceItems++;
          yield item;
        }
      },
    };
    const retry: VectorSourceItem[] = [];
    const written = recording();
    const result = await run(counted, written.options(options, retry));
    await this.index.flush();
    // Read back outside the commit's write lock: a full reconcile may have written every item, and
    // each id's check needs only to follow its own write (see the top of this file).
    const changed = this.changedSince(written);
    this.commit(upTo, schemaVersion, retry, () => changed, 'full');
    // reconcile read every stored hash: the live ones it found (total − added) and the orphans.
    return { ...result, mode: 'full', reason, examined: { changes: 0, sourceItems, storedHashes: result.total - result.added + result.removed } };
  }

  private async syncChanges(embedder: TextEmbedder, options: VectorSyncOptions): Promise<VectorSyncResult> {
    options.signal?.throwIfAborted();
    const schemaVersion = this.changes.schemaVersion();
    const { upTo, ids } = this.changes.pending(this.kinds);
    const live = this.source.byId(ids);
    const stored = await this.index.hashesOf(ids);
    const liveIds = new Set(live.map((item) => item.id));
    const gone = ids.filter((id) => !liveIds.has(id) && stored.has(id));
    const stale = live.filter((item) => stored.get(item.id) !== textHash(item.kind, item.text)).map((item) => ({ ...item, stored: stored.has(item.id) }));
    const retry: VectorSourceItem[] = [];
    const written = recording();
    const withRecording = written.options(options, retry);
    if (gone.length > 0) {
      await this.index.delete(gone);
      withRecording.onRemoved!(gone);
    }
    options.signal?.throwIfAborted();
    let skipped = 0;
    if (stale.length > 0) ({ skipped } = await indexItems(this.index, embedder, stale, withRecording));
    else options.onProgress?.(0, 0);
    if (ids.length > 0) {
      await this.index.flush();
      // Few ids (at most about MAX_CHANGES_READ): read back under the commit's write lock.
      this.commit(upTo, schemaVersion, retry, () => this.changedSince(written), 'changes');
    }
    const added = stale.filter((item) => !item.stored).length;
    return {
      added,
      updated: stale.length - added,
      removed: gone.length,
      total: await this.index.count(),
      skipped,
      mode: 'changes',
      reason: null,
      examined: { changes: ids.length, sourceItems: live.length, storedHashes: stored.size },
    };
  }

  /**
   * The items this sync wrote or deleted whose text or liveness in SQLite differs now from what
   * LanceDB was given (another process changed them after this sync read them): they go back into
   * the outbox. A written id is absent when it is no longer live; a deleted one that is live again
   * comes back with its kind.
   */
  private changedSince(written: Written): { id: string; kind: VectorKind }[] {
    const ids = [...new Set([...written.items.keys(), ...written.deleted])];
    const changed: { id: string; kind: VectorKind }[] = [];
    for (let start = 0; start < ids.length; start += RECHECK_CHUNK) {
      const chunk = ids.slice(start, start + RECHECK_CHUNK);
      const live = new Map(this.source.byId(chunk).map((item) => [item.id, item]));
      for (const id of chunk) {
        const now = live.get(id);
        const wrote = written.items.get(id);
        if (wrote) {
          if (!now || textHash(now.kind, now.text) !== wrote.hash) changed.push({ id, kind: wrote.kind });
        } else if (now) changed.push({ id, kind: now.kind });
      }
    }
    return changed;
  }

  /** LanceDB holds the writes: stamp a new generation beside it, then drain and record it in SQLite. */
  private commit(upTo: number, schemaVersion: number, retry: readonly VectorSourceItem[], recheck: () => readonly { id: string; kind: VectorKind }[], mode: 'full' | 'changes'): void {
    const generation = newGeneration();
    writeStamp(this.index.path, this.index.name, generation);
    this.changes.commit(this.index.name, this.kinds, upTo, { generation, schemaVersion, recipe: this.source.recipe, model: this.model }, retry, recheck, mode);
    this.untrusted = null;
  }
}
