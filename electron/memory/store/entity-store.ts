/** Entities: people, places, things and the user ("me"), found by normalised name or alias. */
import type { Database, Statement } from 'better-sqlite3';
import { cachedStatement } from './database/statement-cache';
import type { EntityRecord, EntityType } from '../../../shared/memory-schema';
import type { Clock } from './clock';
import { newId } from './ids';
import { indexNewEntityNames, reindexEntityNames, unindexEntityNames } from './entity-names-index';
import { isUserReference, normalizeName, stripHonorifics, USER_ENTITY_ALIASES, USER_ENTITY_NAME } from './normalize';
import type { IsoTime } from '../../../shared/time';

interface EntityRow {
  id: string;
  name: string;
  type: EntityType;
  summary: string;
  created_at: IsoTime;
}

export class EntityStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  byId(id: string): EntityRecord | undefined {
    const row = this.stmt('SELECT id, name, type, summary, created_at FROM entities WHERE id = ?').get(id) as EntityRow | undefined;
    return row ? { ...row, aliases: this.aliasesOf(row.id) } : undefined;
  }

  /** These entities, in the order asked (unknown ids left out), each with its aliases: two reads for any number. */
  byIds(ids: readonly string[]): EntityRecord[] {
    if (ids.length === 0) return [];
    const json = JSON.stringify(ids);
    const rows = this.stmt('SELECT id, name, type, summary, created_at FROM entities WHERE id IN (SELECT value FROM json_each(?))').all(json) as EntityRow[];
    const byId = new Map(rows.map((r) => [r.id, { ...r, aliases: [] as string[] }]));
    const aliases = this.stmt('SELECT entity_id, alias FROM entity_aliases WHERE entity_id IN (SELECT value FROM json_each(?)) ORDER BY entity_id, position').all(json) as { entity_id: string; alias: string }[];
    for (const a of aliases) byId.get(a.entity_id)?.aliases.push(a.alias);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** True when the memory has at least one entity. */
  any(): boolean {
    return this.stmt('SELECT 1 FROM entities LIMIT 1').get() !== undefined;
  }

  /** Exact match on normalised name first, then on an alias. "me", "I", "私" all mean the user. */
  find(name: string): EntityRecord | undefined {
    const key = isUserReference(name) ? USER_ENTITY_NAME : normalizeName(name);
    const byName = this.stmt('SELECT id FROM entities WHERE normalized_name = ? ORDER BY created_at, id LIMIT 1').get(key) as { id: string } | undefined;
    const hit =
      byName ??
      (this.stmt('SELECT a.entity_id AS id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.normalized_alias = ? ORDER BY e.created_at, e.id LIMIT 1').get(key) as { id: string } | undefined);
    return hit ? this.byId(hit.id) : undefined;
  }

  /** Finds the entity or creates it. The user's own entity is created as type 'user' named "me". */
  findOrCreate(name: string, type: EntityType = 'other'): EntityRecord {
    const found = this.find(name);
    if (found) return found;
    if (isUserReference(name)) return this.create({ name: USER_ENTITY_NAME, type: 'user', aliases: USER_ENTITY_ALIASES, summary: 'The user of this memory.' });
    // "佐藤さん" is also found as "佐藤": the bare name becomes an alias.
    const bare = stripHonorifics(name);
    const aliases = bare !== '' && bare !== normalizeName(name) && !this.find(bare) ? [bare] : [];
    return this.create({ name: name.trim(), type, aliases, summary: '' });
  }

  create(input: { id?: string; name: string; type: EntityType; aliases: string[]; summary: string; created_at?: IsoTime }): EntityRecord {
    const record: EntityRecord = {
      id: input.id ?? newId('ent'),
      name: input.name,
      type: input.type,
      aliases: input.aliases,
      summary: input.summary,
      created_at: input.created_at ?? this.clock.now(),
    };
    const { lastInsertRowid } = this.stmt('INSERT INTO entities (id, name, normalized_name, type, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(record.id, record.name, normalizeName(record.name), record.type, record.summary, record.created_at);
    const alias = this.stmt('INSERT INTO entity_aliases (entity_id, position, alias, normalized_alias) VALUES (?, ?, ?, ?)');
    record.aliases.forEach((a, i) => alias.run(record.id, i, a, normalizeName(a)));
    // A new row has no names indexed yet (forget removes an entity's FTS row with it): no lookup, no delete.
    indexNewEntityNames(this.db, lastInsertRowid, record);
    return record;
  }

  /** Adds an alias (no-op when the entity already answers to it). */
  addAlias(id: string, aliasName: string): void {
    const entity = this.byId(id);
    if (!entity) throw new Error(`no entity with id ${id}`);
    const key = normalizeName(aliasName);
    if (normalizeName(entity.name) === key || entity.aliases.some((a) => normalizeName(a) === key)) return;
    this.db
      .prepare('INSERT INTO entity_aliases (entity_id, position, alias, normalized_alias) VALUES (?, ?, ?, ?)')
      .run(id, entity.aliases.length, aliasName, key);
    this.indexNames({ ...entity, aliases: [...entity.aliases, aliasName] });
  }

  aliasesOf(id: string): string[] {
    return (this.stmt('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY position').all(id) as { alias: string }[]).map((r) => r.alias);
  }

  all(): EntityRecord[] {
    const rows = this.db.prepare<[], EntityRow>('SELECT id, name, type, summary, created_at FROM entities ORDER BY created_at, id').all();
    const aliases = new Map<string, string[]>();
    for (const a of this.db.prepare<[], { entity_id: string; alias: string }>('SELECT entity_id, alias FROM entity_aliases ORDER BY entity_id, position').all()) {
      const list = aliases.get(a.entity_id) ?? [];
      list.push(a.alias);
      aliases.set(a.entity_id, list);
    }
    return rows.map((row) => ({ ...row, aliases: aliases.get(row.id) ?? [] }));
  }

  delete(id: string): void {
    unindexEntityNames(this.db, id);
    this.db.prepare('DELETE FROM entity_aliases WHERE entity_id = ?').run(id);
    this.db.prepare('DELETE FROM entities WHERE id = ?').run(id);
  }

  /** Re-indexes an entity's names; the FTS row shares the entity's rowid. */
  indexNames(entity: EntityRecord): void {
    reindexEntityNames(this.db, entity);
  }

  /** Prepared once per store: observe and ingestion call these per entity. */
  private stmt(sql: string): Statement {
    return cachedStatement(this.db, sql);
  }
}
