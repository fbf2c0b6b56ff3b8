/**
 * Claims from another device that cite a message this device has not received yet (issue 31;
 * docs/sync.md): they wait in `sync_waiting`, indexed by each message they wait for
 * (`sync_waiting_for`, migration 0033), so a segment wakes only the claims its messages (or their
 * forgets) concern — never every waiting claim on every segment. The episode id '' wakes at every
 * apply: a claim found ready when the index was built waits under it.
 */
import type { Database } from 'better-sqlite3';
import type { SyncClaim } from '../../../shared/sync-records';
import { cachedStatement } from '../store/database/statement-cache';

/** Woken at every apply. */
const EVERY_APPLY = '';

export class WaitingClaims {
  constructor(private readonly db: Database) {}

  /** `claim` waits until each of `missing` (messages it cites) arrives or is forgotten. */
  wait(claim: SyncClaim, missing: readonly string[]): void {
    this.stop(claim.uid);
    cachedStatement(this.db, 'INSERT INTO sync_waiting (uid, record) VALUES (?, ?)').run(claim.uid, JSON.stringify(claim));
    const waitFor = cachedStatement(this.db, 'INSERT OR IGNORE INTO sync_waiting_for (episode_id, uid) VALUES (?, ?)');
    for (const id of missing) waitFor.run(id, claim.uid);
  }

  /** The claim no longer waits (removed, or taken out to be applied). */
  stop(uid: string): SyncClaim | undefined {
    const record = cachedStatement<[string], string>(this.db, 'SELECT record FROM sync_waiting WHERE uid = ?').pluck().get(uid);
    if (record === undefined) return undefined;
    const claim = JSON.parse(record) as SyncClaim;
    const unindex = cachedStatement(this.db, 'DELETE FROM sync_waiting_for WHERE episode_id = ? AND uid = ?');
    for (const id of [EVERY_APPLY, ...claim.episode_ids]) unindex.run(id, uid);
    cachedStatement(this.db, 'DELETE FROM sync_waiting WHERE uid = ?').run(uid);
    return claim;
  }

  /** The claims that wait for any of `episodeIds` (arrived or forgotten), no longer waiting: the caller applies or re-queues them. */
  wake(episodeIds: Iterable<string>): SyncClaim[] {
    const waiting = cachedStatement<[string], string>(this.db, 'SELECT uid FROM sync_waiting_for WHERE episode_id = ?').pluck();
    const uids = new Set<string>();
    for (const id of [EVERY_APPLY, ...episodeIds]) for (const uid of waiting.all(id)) uids.add(uid);
    const woken: SyncClaim[] = [];
    for (const uid of uids) {
      const claim = this.stop(uid);
      if (claim) woken.push(claim);
      // An entry left by a claim already gone (a rewritten store): dropped.
      else cachedStatement(this.db, 'DELETE FROM sync_waiting_for WHERE uid = ?').run(uid);
    }
    return woken;
  }
}
