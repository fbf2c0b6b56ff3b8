/**
 * One version per fact per write. A write resolves a slot as often as its parts touch it (each line
 * of an observe file, each contradiction of a message), and each resolution writes versions. A
 * version that the same write also replaced was never held by the memory outside that write: "known
 * at" must not show it. At the end of the write it is removed, and what pointed at it (the next
 * version's `supersedes`, facts it closed, judged ends of claims, its lineage) points at what
 * replaced it; the write reports only the difference between before and after.
 */
import type { Database } from 'better-sqlite3';
import type { FactRows } from '../store/fact-rows';
import type { SlotChanges } from './slot-changes';

export class WriteLog {
  private insertedIds: string[] = [];
  private readonly insertedSet = new Set<string>();
  private readonly expiredIds = new Set<string>();
  /** An expired version → the version its span went on in. */
  private readonly replacedBy = new Map<string, string>();
  private readonly confirmedIds = new Set<string>();
  private readonly statements;

  constructor(
    db: Database,
    private readonly facts: FactRows,
  ) {
    // Only this write's rows and claims can point at a version this write created: every update
    // below is by primary key or over this write's claims (a rowid range), never a scan.
    this.statements = {
      pointers: db.prepare('UPDATE facts SET supersedes = ?, invalidated_by = ?, lineage_id = ? WHERE id = ?'),
      endBy: db.prepare('UPDATE claims SET end_by = ? WHERE id > ? AND end_by = ?'),
      claims: db.prepare('UPDATE claims SET fact_id = ? WHERE fact_id = ?'),
      remove: db.prepare('DELETE FROM facts WHERE id = ?'),
      lastClaim: db.prepare<[], number>('SELECT COALESCE(MAX(id), 0) FROM claims').pluck(),
    };
  }

  /** Claims with a greater id were written by this write. */
  private claimFloor = 0;

  begin(): void {
    this.claimFloor = this.statements.lastClaim.get() ?? 0;
    this.insertedIds = [];
    this.insertedSet.clear();
    this.expiredIds.clear();
    this.replacedBy.clear();
    this.confirmedIds.clear();
  }

  inserted(id: string): void {
    this.insertedIds.push(id);
    this.insertedSet.add(id);
  }

  expired(id: string, replacement: string): void {
    this.expiredIds.add(id);
    this.replacedBy.set(id, replacement);
  }

  confirmed(id: string): void {
    this.confirmedIds.add(id);
  }

  finish(): SlotChanges {
    const transient = this.insertedIds.filter((id) => this.expiredIds.has(id));
    const gone = new Set(transient);
    if (gone.size) this.removeTransient(gone);
    const inserted = this.insertedIds.filter((id) => !gone.has(id));
    const written = this.facts.byIds(inserted);
    const rows = inserted.map((id) => written.get(id)!);
    const changes: SlotChanges = {
      inserted,
      created: rows.filter((r) => r.supersedes === null).map((r) => r.id),
      expired: [...this.expiredIds].filter((id) => !gone.has(id)),
      closed: rows.filter((r) => r.invalid_at !== null && r.supersedes !== null && this.facts.byId(r.supersedes)?.invalid_at === null).map((r) => r.id),
      confirmed: [...this.confirmedIds].filter((id) => !this.insertedSet.has(id) && !this.expiredIds.has(id)),
    };
    this.begin();
    return changes;
  }

  /** The version a transient one finally went on in (the end of its replacedBy chain). */
  private finalOf(id: string, gone: Set<string>): string {
    let current = id;
    for (let guard = 0; gone.has(current) && guard <= gone.size; guard++) current = this.replacedBy.get(current)!;
    if (gone.has(current)) throw new Error(`internal: version ${id} has no final replacement in this write`);
    return current;
  }

  /**
   * Removes the versions in `gone`. What pointed at one points at what replaced it: the next
   * version's `supersedes` skips to the version before it; a fact it closed, a judged end and its
   * claims name its final replacement; a chain that began with it begins at that replacement.
   */
  private removeTransient(gone: Set<string>): void {
    const s = this.statements;
    const rows = this.facts.byIds(this.insertedIds);
    const final = new Map([...gone].map((id) => [id, this.finalOf(id, gone)]));
    const skip = (id: string | null): string | null => {
      let current = id;
      while (current !== null && gone.has(current)) current = rows.get(current)!.supersedes;
      return current;
    };
    const point = (id: string | null) => (id !== null && gone.has(id) ? final.get(id)! : id);
    for (const [id, row] of rows) {
      if (gone.has(id)) continue;
      const next = { supersedes: skip(row.supersedes), invalidated_by: point(row.invalidated_by), lineage_id: point(row.lineage_id)! };
      if (next.supersedes !== row.supersedes || next.invalidated_by !== row.invalidated_by || next.lineage_id !== row.lineage_id) {
        s.pointers.run(next.supersedes, next.invalidated_by, next.lineage_id, id);
      }
    }
    for (const [id, target] of final) {
      s.endBy.run(target, this.claimFloor, id);
      s.claims.run(target, id);
    }
    for (const id of gone) s.remove.run(id); // episode links go with it (ON DELETE CASCADE), queued text too (trigger)
  }
}
