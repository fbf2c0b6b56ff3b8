/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof --import tsx test/bench/run.ts ...`): self time
 * per function, and total (inclusive) time per function of the engine, so a slow phase can be
 * traced to its code. Native time (SQLite inside better-sqlite3) shows as the JS function that called
 * into the addon, e.g. `run`/`all`/`get`.
 *
 *   npx tsx test/bench/cpuprofile-summary.ts PROFILE.cpuprofile [--top 25] [--filter electron/memory]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function label(node: Node): string {
  const f = node.callFrame;
  const url = f.url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '').replace(/^.*node_modules\//, 'nm:');
  return `${f.functionName || '(anonymous)'} ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args[0];
  if (!file) throw new Error('usage: cpuprofile-summary.ts FILE [--top N] [--filter TEXT]');
  const top = Number(args[args.indexOf('--top') + 1] ?? 25) || 25;
  const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1]! : 'electron/memory|shared/';
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = profile.endTime - profile.startTime;

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }
  const show = (title: string, map: Map<string, number>, pattern?: RegExp) => {
    console.log(`\n${title}`);
    const rows = [...map].filter(([l]) => !pattern || pattern.test(l)).sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [l, us] of rows) console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${l}`);
  };
  console.log(`profile: ${(totalUs / 1000).toFixed(0)} ms`);
  show('self time', self);
  show(`inclusive time, functions matching /${filter}/`, inclusive, new RegExp(filter));
}

main();
