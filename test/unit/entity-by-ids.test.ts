/**
 * Reading several entities at once (the extraction prompt's known entities, a name's candidates):
 * two statements for any number, the same records as one byId each, in the order asked.
 */
import { afterEach, expect, it } from 'vitest';
import { openMemory, type Memory } from '../../electron/memory/index';

let m: Memory | undefined;
afterEach(() => m?.close());

it('gives each entity asked for with its aliases in order, unknown ids left out', () => {
  m = openMemory({ dataDir: ':memory:' });
  const at = '2026-01-01T00:00:00Z';
  m.facts.observe([
    { subject: '佐藤さん', predicate: 'likes', object: 'tea', fact: '佐藤さん likes tea.', reference_time: at },
    { subject: 'Bea', predicate: 'likes', object: 'coffee', fact: 'Bea likes coffee.', reference_time: at },
    { subject: 'me', predicate: 'likes', object: 'rain', fact: 'I like rain.', reference_time: at },
  ]);
  const sato = m.entities.find('佐藤さん')!;
  const bea = m.entities.find('Bea')!;
  const me = m.entities.find('me')!;
  expect(sato.aliases).toEqual(['佐藤']);
  expect(me.aliases.length).toBeGreaterThan(1);
  expect(m.entities.byIds([bea.id, 'ent_none', sato.id, me.id])).toEqual([bea, sato, me]);
  expect(m.entities.byIds([])).toEqual([]);
});
