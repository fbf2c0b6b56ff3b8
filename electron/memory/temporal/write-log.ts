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
    this.statements = {
      supersedes: db.prepare('UPDATE facts SET supersedes = ? WHERE supersedes = ?'),
      invalidatedBy: db.prepare('UPDATE facts SET invalidated_by = ? WHERE invalidated_by = ?'),
      lineage: db.prepare('UPDATE facts SET lineage_id = ? WHERE lineage_id = ?'),
      endBy: db.prepare('UPDATE claims SET end_by = ? WHERE end_by = ?'),
      claims: db.prepare('UPDATE claims SET fact_id = ? WHERE fact_id = ?'),
      remove: db.prepare('DELETE FROM facts WHERE id = ?'),
    };
  }

  begin(): void {
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
    for (const id of transient) this.remove(id, this.finalOf(id, gone));
    const inserted = this.insertedIds.filter((id) => !gone.has(id));
    const rows = inserted.map((id) => this.facts.byId(id)!);
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

  private remove(id: string, target: string): void {
    const row = this.facts.byId(id)!;
    const s = this.statements;
    s.supersedes.run(row.supersedes, id);
    s.invalidatedBy.run(target, id);
    s.endBy.run(target, id);
    s.claims.run(target, id);
    // A chain that began in this write begins at what replaced its first version.
    if (row.lineage_id === id) s.lineage.run(target, id);
    s.remove.run(id); // its episode links go with it (ON DELETE CASCADE), its queued text too (trigger)
  }
}
