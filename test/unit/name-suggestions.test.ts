/**
 * Names for a filter as the user types (Memory.suggestNames, store/name-suggestions.ts), on a real
 * SQLite memory: what begins with the text first, then what contains it, each by the facts held now
 * then by name; aliases find their entity; Japanese names of two characters; the limit; empty text;
 * bad input refused naming the field, at the API's edge and at the memory's. Its statements read
 * entities by index only, and a large memory costs what a small one does: bounded reads.
 */
import type { Database } from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { dispatchCall, type ApiHandlers } from '../../electron/engine/api-handlers';
import { type MemoryInputError, openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { CANDIDATES, WALK } from '../../electron/memory/store/name-suggestions';
import { normalizeName } from '../../electron/memory/store/normalize';
import { ApiError } from '../../shared/api-error';

const at = (day: number) => `2026-09-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** `facts` facts held now about `subject`, each with its own object ("#0", "#1" …: names no test types). */
function about(m: Memory, subject: string, facts: number, predicate = 'likes') {
  m.facts.observe(Array.from({ length: facts }, (_, i) => ({ subject, predicate, object: `#${i}`, fact: `${subject} ${predicate} #${i}.`, reference_time: at(1 + (i % 20)) })));
}

const names = (m: Memory, text: string, limit?: number, kind: 'entity' | 'predicate' = 'entity') => m.facts.suggestNames(kind, text, limit).map((s) => s.name);

describe('suggestNames', () => {
  let m: Memory;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    about(m, 'Alice Smith', 1);
    about(m, 'Alan Turing', 3);
    about(m, 'Malia Obama', 5);
    about(m, 'Bob Alder', 2);
    about(m, '佐藤', 2, 'works_at');
    about(m, '佐藤健太', 4, 'works_at');
    about(m, '伊佐藤子', 6);
  });

  it('puts names that begin with the text first, then names that contain it, each by facts held now, then by name', () => {
    expect(m.facts.suggestNames('entity', 'al')).toEqual([
      { name: 'Alan Turing', live: 3 },
      { name: 'Alice Smith', live: 1 },
      // contain "al": Malia (5) before Bob Alder (2)
      { name: 'Malia Obama', live: 5 },
      { name: 'Bob Alder', live: 2 },
    ]);
    // The case and width the user types do not matter; three characters or more use the trigram index for "contains".
    expect(names(m, 'ＡＬＩ')).toEqual(['Alice Smith', 'Malia Obama']);
    expect(names(m, 'lder')).toEqual(['Bob Alder']);
  });

  it('ranks ties by name, and an object with no facts of its own comes last with live 0', () => {
    about(m, 'Alma', 3);
    expect(m.facts.suggestNames('entity', 'al').slice(0, 3)).toEqual([
      { name: 'Alan Turing', live: 3 },
      { name: 'Alma', live: 3 },
      { name: 'Alice Smith', live: 1 },
    ]);
    m.facts.observe([{ subject: 'Bob Alder', predicate: 'likes', object: 'Alicia Keys', fact: 'Bob likes Alicia Keys.', reference_time: at(4) }]);
    expect(m.facts.suggestNames('entity', 'alici')).toEqual([{ name: 'Alicia Keys', live: 0 }]);
  });

  it('finds Japanese names of one and two characters, by beginning and by containing', () => {
    expect(names(m, '佐藤')).toEqual(['佐藤健太', '佐藤', '伊佐藤子']);
    expect(names(m, '佐')).toEqual(['佐藤健太', '佐藤', '伊佐藤子']);
    expect(names(m, '藤')).toEqual(['伊佐藤子', '佐藤健太', '佐藤']);
    expect(names(m, '健太')).toEqual(['佐藤健太']);
  });

  it('finds an entity by its alias, under its name', () => {
    m.facts.observe([{ subject: '山田さん', predicate: 'likes', object: 'tea', fact: '山田さん likes tea.', reference_time: at(3) }]);
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: at(3) }]);
    expect(names(m, '山田')).toEqual(['山田さん']);
    expect(names(m, 'mysel')).toEqual(['me']);
    // "Dr. Sato" answers to "sato": it begins with the text, so it comes before a name that only contains it.
    about(m, 'Dr. Sato', 1);
    about(m, 'Misato', 5);
    expect(names(m, 'sat')).toEqual(['Dr. Sato', 'Misato']);
  });

  it('gives at most `limit`, 20 by default, and with no text the most talked-about', () => {
    for (let i = 0; i < 30; i++) m.facts.observe([{ subject: `Person ${String(i).padStart(2, '0')}`, predicate: 'likes', object: 'tea', fact: `Person ${i} likes tea.`, reference_time: at(2) }]);
    expect(names(m, 'person')).toHaveLength(20);
    expect(names(m, 'person', 3)).toEqual(['Person 00', 'Person 01', 'Person 02']);
    expect(names(m, 'al', 2)).toEqual(['Alan Turing', 'Alice Smith']);
    expect(names(m, '', 3)).toEqual(['伊佐藤子', 'Malia Obama', '佐藤健太']);
    expect(names(m, '   ', 1)).toEqual(['伊佐藤子']);
    expect(names(m, 'no such name')).toEqual([]);
  });

  it('counts only facts held now: a forgotten fact no longer ranks its subject', () => {
    for (const fact of m.facts.list({ subject: 'Malia Obama' }).slice(0, 4)) m.facts.forget(fact.id);
    expect(m.facts.suggestNames('entity', 'ali').slice(0, 2)).toEqual([
      { name: 'Alice Smith', live: 1 },
      { name: 'Malia Obama', live: 1 },
    ]);
  });

  it('suggests predicates in use, beginning first, then containing, most used first', () => {
    expect(m.facts.suggestNames('predicate', 'k')).toEqual([
      { name: 'likes', live: 17 },
      { name: 'works_at', live: 6 },
    ]);
    expect(names(m, 'wor', undefined, 'predicate')).toEqual(['works_at']);
    expect(names(m, 'works a', undefined, 'predicate')).toEqual(['works_at']);
    expect(names(m, '', 1, 'predicate')).toEqual(['likes']);
    expect(names(m, 'lives', undefined, 'predicate')).toEqual([]);
  });

  it('refuses bad input at the API edge, naming the field', async () => {
    const handlers = { suggestNames: async (r) => m.facts.suggestNames(r.kind, r.text, r.limit) } as Partial<ApiHandlers> as ApiHandlers;
    const refusal = (request: unknown) => dispatchCall(handlers, 'suggestNames', request).then(() => null, (e: unknown) => e as ApiError);
    expect(await dispatchCall(handlers, 'suggestNames', { kind: 'entity', text: 'ali', limit: 1 })).toEqual([{ name: 'Alice Smith', live: 1 }]);
    for (const [request, field, words] of [
      [{ kind: 'entity', text: 'a', limit: 51 }, 'limit', 'limit: must be at most 50'],
      [{ kind: 'entity', text: 'a', limit: 0 }, 'limit', 'limit: must be at least 1'],
      [{ kind: 'entity', text: 'x'.repeat(201) }, 'text', 'text: must be at most 200 characters'],
      [{ kind: 'place', text: 'a' }, 'kind', 'kind:'],
      [{ kind: 'entity' }, 'text', 'text:'],
    ] as const) {
      const error = await refusal(request);
      expect(error, JSON.stringify(request)).toBeInstanceOf(ApiError);
      expect(error!.field).toBe(field);
      expect(error!.message).toContain(`suggestNames: invalid request: ${words}`);
    }
  });

  it('refuses bad input at the memory too (the CLI and MCP call it directly), naming the field', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as MemoryInputError;
      }
      throw new Error('not refused');
    };
    expect(refused(() => m.facts.suggestNames('entity', 'a', 0))).toMatchObject({ where: 'limit', message: expect.stringMatching(/^limit must be a whole number from 1 to 50/) });
    expect(refused(() => m.facts.suggestNames('entity', 'a', 2.5))).toMatchObject({ where: 'limit' });
    expect(refused(() => m.facts.suggestNames('entity', 'x'.repeat(201)))).toMatchObject({ where: 'text', message: expect.stringContaining('at most 200 characters') });
    expect(refused(() => m.facts.suggestNames('place' as 'entity', 'a'))).toMatchObject({ where: 'kind' });
  });
});

/** The statements `run` prepares, each with its plan's lines (as memory-query-plans.test.ts). */
function plansOf(db: Database, run: () => unknown): { sql: string; plan: string[] }[] {
  const prepare = db.prepare.bind(db);
  const seen: string[] = [];
  db.prepare = ((sql: string) => (seen.push(sql), prepare(sql)));
  try {
    run();
  } finally {
    db.prepare = prepare;
  }
  return seen.map((sql) => {
    const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
    const statement = prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const rows = (Object.keys(named).length ? statement.all(named) : statement.all(...(sql.match(/\?/g) ?? []).map(() => null))) as { detail: string }[];
    return { sql, plan: rows.map((r) => r.detail) };
  });
}

describe('suggestNames reads by index, and a bounded number of rows', () => {
  it('never scans entities or their aliases: ranges of the name indexes, the trigram index, the most talked-about first', () => {
    // A fresh memory per text: a statement prepared once is cached and would not be seen again.
    const lines: { line: string; sql: string }[] = [];
    for (const text of ['', 'a', 'sa', 'sat', 'sato t', '佐藤', '佐', 'xyz']) {
      const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
      about(m, 'Sato Taro', 2);
      const plans = plansOf(databaseOf(m), () => m.facts.suggestNames('entity', text));
      expect(plans.length, text).toBeGreaterThan(0);
      lines.push(...plans.flatMap((p) => p.plan.map((line) => ({ line, sql: p.sql.replace(/\s+/g, ' ') }))));
      m.close();
    }
    // The only table read in order, not searched: live_subjects by its count index, inside a LIMIT subquery.
    const scans = lines.filter(({ line }) => /^SCAN (?!(t|e|a|f)\b)\w+/.test(line) && !line.includes('VIRTUAL TABLE'));
    expect(scans.length).toBeGreaterThan(0);
    const bounded = ({ line, sql }: { line: string; sql: string }) => line.startsWith('SCAN live_subjects USING COVERING INDEX live_subjects_by_count') && sql.includes(`ORDER BY live DESC, subject_id LIMIT ${WALK})`);
    expect(scans.filter((s) => !bounded(s)).map(({ line, sql }) => `${line} ← ${sql}`)).toEqual([]);
    const plan = lines.map((l) => l.line);
    expect(plan.some((line) => /^SCAN (entities|entity_aliases)\b/.test(line))).toBe(false);
    expect(plan.some((line) => /SEARCH entities USING (COVERING )?INDEX entities_by_name \(normalized_name>\? AND normalized_name<\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SEARCH entity_aliases USING (COVERING )?INDEX entity_aliases_by_alias/.test(line))).toBe(true);
    expect(plan.some((line) => /SCAN entities_fts VIRTUAL TABLE INDEX 0:M/.test(line))).toBe(true);
  });

  it('the check sees a scan of entities when there is one (it can fail)', () => {
    const m = openMemory({ dataDir: ':memory:' });
    const db = databaseOf(m);
    const plans = plansOf(db, () => db.prepare("SELECT name FROM entities WHERE normalized_name LIKE '%' || ? || '%'").all('a'));
    expect(plans[0]!.plan.some((line) => /^SCAN entities\b/.test(line))).toBe(true);
    m.close();
  });

  it(`reads at most ${CANDIDATES} names of a range and the ${WALK} most talked-about, however many match`, () => {
    const m = openMemory({ dataDir: ':memory:' });
    const db = databaseOf(m);
    // 3,000 entities that begin with "sa" (more than a range is read), 2,000 of them subjects; the most
    // talked-about sort last by name, past the part of the range that is read.
    const insert = db.prepare("INSERT INTO entities (id, name, normalized_name, type, summary, created_at) VALUES (?, ?, ?, 'person', '', '2026-01-01T00:00:00Z')");
    const live = db.prepare('INSERT INTO live_subjects (subject_id, live) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        const name = `Sa ${String(i).padStart(4, '0')}`;
        insert.run(`ent_${i}`, name, normalizeName(name));
        if (i % 3 !== 0) live.run(`ent_${i}`, i >= 2900 ? 500 : 1 + (i % 50));
      }
    })();
    // The range (alphabetical) is cut at CANDIDATES; the walk of the most talked-about still finds the best, wherever they sort.
    const top = m.facts.suggestNames('entity', 'sa', 5);
    expect(top).toEqual(['Sa 2900', 'Sa 2902', 'Sa 2903', 'Sa 2905', 'Sa 2906'].map((name) => ({ name, live: 500 })));
    const sa9 = m.facts.suggestNames('entity', 'sa 29', 50);
    expect(sa9).toHaveLength(50);
    expect(sa9.every((s) => s.name.startsWith('Sa 29'))).toBe(true);
    m.close();
  });
});
