import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../electron/memory';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { syntheticExport } from './synthetic-export';
const file = '/tmp/imp/bench-doc.json';
if (!existsSync(file)) {
  const synthetic = generateSyntheticMemory({ observations: 100000 });
  const dir = mkdtempSync(join(tmpdir(), 'imp2-'));
  const m = openMemory({ dataDir: dir });
  m.importMemory(syntheticExport(synthetic, 90000));
  const rest = synthetic.observations.slice(90000);
  for (let i = 0; i < rest.length; i += 1000) m.observe(rest.slice(i, i + 1000));
  writeFileSync(file, JSON.stringify(m.exportMemory()));
  m.close(); rmSync(dir, { recursive: true, force: true });
}
const parsed = JSON.parse(readFileSync(file, 'utf8'));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let r = 0; r < Number(process.env.RUNS ?? 2); r++) {
  const dir = mkdtempSync(join(tmpdir(), 'imp-'));
  const m = openMemory({ dataDir: dir });
  const t = performance.now(), c = cpu();
  m.importMemory(parsed);
  const w = performance.now() - t, cc = cpu() - c;
  console.log(`import ${parsed.facts.length} facts: wall ${w.toFixed(0)} ms (${Math.round(parsed.facts.length / w * 1000)}/s) cpu ${cc.toFixed(0)} ms (${Math.round(parsed.facts.length / cc * 1000)}/s)`);
  m.close(); rmSync(dir, { recursive: true, force: true });
}
