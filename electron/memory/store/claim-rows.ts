/** Claims: the evidence each live fact stands on (see the claims table in migrations). */
import type { Database } from 'better-sqlite3';
import type { Cardinality, FactOrigin, Precision } from '../../../shared/memory-schema';
import { objectKeyOf } from './fact-rows';
import { newSyncId } from './ids';
import type { IsoTime } from '../../../shared/time';
import { cachedStatement } from './database/statement-cache';

export interface ClaimRow {
  id: number;
  fact_id: string;
  subject_id: string;
  predicate: string;
  object_id: string | null;
  object_literal: string | null;
  fact: string;
  cardinality: Cardinality;
  valid_at: IsoTime;
  valid_at_precision: Precision;
  reference_time: IsoTime;
  end_at: IsoTime | null;
  end_precision: Precision | null;
  end_kind: 'explicit' | 'judged' | null;
  end_by: string | null;
  episode_ids: string;
  origin: FactOrigin;
}

/** `sync_id`: the claim's id on every device, when it came from another one (sync); else a new one is drawn. */
export type NewClaimRow = Omit<ClaimRow, 'id'> & { sync_id?: string | null };

const COLUMNS = 'fact_id, subject_id, predicate, object_id, object_literal, fact, cardinality, valid_at, reference_time, end_at, end_kind, end_by, episode_ids, origin, valid_at_precision, end_precision';

export class ClaimRows {
  private readonly inSlotStmt;
  private readonly ofFactStmt;
  private readonly insertStmt;
  private readonly moveStmt;
  private readonly deleteStmt;
  private readonly ofObjectsStmt;
  private readonly hasOneStmt;
  private readonly latestStmt;
  private readonly factsAtStmt;
  private readonly latestBeforeStmt;
  private readonly factsFromStmt;

  constructor(private readonly db: Database) {
    this.inSlotStmt = db.prepare<[string, string], ClaimRow>(`SELECT id, ${COLUMNS} FROM claims WHERE subject_id = ? AND predicate = ? ORDER BY id`);
    this.ofFactStmt = db.prepare<[string], ClaimRow>(`SELECT id, ${COLUMNS} FROM claims WHERE fact_id = ? ORDER BY id`);
    this.insertStmt = db.prepare(`INSERT INTO claims (${COLUMNS}, object_key, sync_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // One lookup per object: `object_key IN (SELECT … json_each)` made SQLite scan the slot.
    this.ofObjectsStmt = db.prepare<[string, string, string], ClaimRow>(`SELECT id, ${COLUMNS} FROM claims WHERE subject_id = ? AND predicate = ? AND object_key = ?`);
    this.latestStmt = db.prepare<[string, string], IsoTime>('SELECT valid_at FROM claims WHERE subject_id = ? AND predicate = ? ORDER BY valid_at DESC LIMIT 1').pluck();
    this.factsAtStmt = db.prepare<[string, string, string], string>('SELECT DISTINCT fact_id FROM claims WHERE subject_id = ? AND predicate = ? AND valid_at = ?').pluck();
    this.latestBeforeStmt = db.prepare<[string, string, string], string>('SELECT valid_at FROM claims WHERE subject_id = ? AND predicate = ? AND valid_at < ? ORDER BY valid_at DESC LIMIT 1').pluck();
    this.factsFromStmt = db.prepare<[string, string, string], string>('SELECT DISTINCT fact_id FROM claims WHERE subject_id = ? AND predicate = ? AND valid_at >= ?').pluck();
    this.hasOneStmt = db.prepare<[string, string], number>("SELECT 1 FROM claims WHERE subject_id = ? AND predicate = ? AND cardinality = 'one' LIMIT 1").pluck();
    this.moveStmt = db.prepare('UPDATE claims SET fact_id = ? WHERE id = ?');
    this.deleteStmt = db.prepare('DELETE FROM claims WHERE id = ?');
  }

  inSlot(subjectId: string, predicate: string): ClaimRow[] {
    return this.inSlotStmt.all(subjectId, predicate);
  }

  /** The claims of a slot about these objects (keys of objectKeyOf), by index. */
  inSlotAbout(subjectId: string, predicate: string, objectKeys: string[]): ClaimRow[] {
    const rows = objectKeys.flatMap((key) => this.ofObjectsStmt.all(subjectId, predicate, key));
    return objectKeys.length > 1 ? rows.sort((a, b) => a.id - b.id) : rows;
  }

  /**
   * The latest valid_at of a slot's claims and every claim of the facts holding a claim at that
   * time (two facts when two values were said for that instant), by index; undefined when empty.
   */
  latestInSlot(subjectId: string, predicate: string): { valid_at: IsoTime; claims: ClaimRow[] } | undefined {
    const latest = this.latestStmt.get(subjectId, predicate);
    if (latest === undefined) return undefined;
    const facts = this.factsAtStmt.all(subjectId, predicate, latest);
    return { valid_at: latest, claims: facts.flatMap((id) => this.ofFact(id)) };
  }

  /**
   * Every claim of the facts holding a claim at or after the latest claim before `time`, by index
   * (undefined when no claim is before it): what a late claim at `time` can meet in a one-valued
   * slot, whose spans before that one end at or before its start.
   */
  fromLatestBefore(subjectId: string, predicate: string, time: IsoTime): ClaimRow[] | undefined {
    const before = this.latestBeforeStmt.get(subjectId, predicate, time);
    if (before === undefined) return undefined;
    const facts = this.factsFromStmt.all(subjectId, predicate, before);
    return facts.flatMap((id) => this.ofFact(id)).sort((a, b) => a.id - b.id);
  }

  /** Does any claim make (subject, predicate) a one-valued slot? */
  hasOneValued(subjectId: string, predicate: string): boolean {
    return this.hasOneStmt.get(subjectId, predicate) !== undefined;
  }

  ofFact(factId: string): ClaimRow[] {
    return this.ofFactStmt.all(factId);
  }

  /** Whether a claim with this sync id is stored (by the unique index claims_by_sync_id). */
  hasSyncId(syncId: string): boolean {
    return cachedStatement<[string], number>(this.db, 'SELECT 1 FROM claims WHERE sync_id = ?').pluck().get(syncId) !== undefined;
  }

  insert(c: NewClaimRow): void {
    this.insertStmt.run(c.fact_id, c.subject_id, c.predicate, c.object_id, c.object_literal, c.fact, c.cardinality, c.valid_at, c.reference_time, c.end_at, c.end_kind, c.end_by, c.episode_ids, c.origin, c.valid_at_precision, c.end_precision, objectKeyOf(c), c.sync_id ?? newSyncId());
  }

  /** Points a claim at the live version that now holds it. */
  move(id: number, factId: string): void {
    this.moveStmt.run(factId, id);
  }

  delete(id: number): void {
    this.deleteStmt.run(id);
  }

  deleteOfFacts(factIds: string[]): void {
    this.db.prepare('DELETE FROM claims WHERE fact_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(factIds));
  }

  /** Claims that cite an episode. */
  citing(episodeId: string): ClaimRow[] {
    return this.db
      .prepare<[string], ClaimRow>(`SELECT id, ${COLUMNS} FROM claims WHERE id IN (SELECT claim_id FROM claim_episodes WHERE episode_id = ?) ORDER BY id`)
      .all(episodeId);
  }

  setEpisodes(id: number, episodeIds: string[]): void {
    this.db.prepare('UPDATE claims SET episode_ids = ? WHERE id = ?').run(JSON.stringify(episodeIds), id);
  }

  /** Claims ended by a judgement against one of these facts. */
  endedBy(factIds: string[]): ClaimRow[] {
    return this.db
      .prepare<[string], ClaimRow>(`SELECT id, ${COLUMNS} FROM claims WHERE end_by IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(factIds));
  }

  clearEnd(id: number): void {
    this.db.prepare('UPDATE claims SET end_at = NULL, end_kind = NULL, end_by = NULL, end_precision = NULL WHERE id = ?').run(id);
  }

  /** The live fact holding the claim an episode made in a slot (the latest such claim). */
  holderOf(subjectId: string, predicate: string, episodeId: string): string | undefined {
    return this.db
      .prepare<[string, string, string], { fact_id: string }>(
        'SELECT c.fact_id FROM claims c, json_each(c.episode_ids) j WHERE c.subject_id = ? AND c.predicate = ? AND j.value = ? ORDER BY c.id DESC LIMIT 1',
      )
      .get(subjectId, predicate, episodeId)?.fact_id;
  }
}

/** The trigger that records each new claim's messages (migration 0036): a bulk load drops it and calls indexClaimEpisodes once. */
export const CLAIM_EPISODES_INSERT_TRIGGER = 'claims_episodes_insert';

/** Records every claim's messages in claim_episodes (after a bulk load, into a table it left empty), in key order. */
export function indexClaimEpisodes(db: Database): void {
  db.exec('INSERT OR IGNORE INTO claim_episodes (episode_id, claim_id) SELECT j.value, c.id FROM claims c, json_each(c.episode_ids) j ORDER BY 1, 2');
}
