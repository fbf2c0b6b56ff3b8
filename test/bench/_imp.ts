import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../electron/memory';
import { parseExport } from '../../electron/memory/memory-import';
import { generateSyntheticMemory } from '../../test/fixtures/synthetic-memory';
import { syntheticExport } from '../../test/bench/synthetic-export';
const n = Number(process.argv[2] ?? 100000);
const synthetic = generateSyntheticMemory({ observations: n });
const doc = syntheticExport(synthetic, n);
const json = JSON.stringify(doc);
const parsed = JSON.parse(json);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let r = 0; r < Number(process.env.RUNS ?? 2); r++) {
  const dir = mkdtempSync(join(tmpdir(), 'imp-'));
  const m = openMemory({ dataDir: dir });
  let t = performance.now(), c = cpu();
  parseExport(parsed);
  console.log('validate', (performance.now() - t).toFixed(0), 'ms cpu', (cpu() - c).toFixed(0));
  t = performance.now(); c = cpu();
  m.importMemory(parsed);
  const w = performance.now() - t, cc = cpu() - c;
  console.log(`import ${doc.facts.length} facts: wall ${w.toFixed(0)} ms (${Math.round(doc.facts.length / w * 1000)}/s) cpu ${cc.toFixed(0)} ms (${Math.round(doc.facts.length / cc * 1000)}/s)`);
  m.close(); rmSync(dir, { recursive: true, force: true });
}
