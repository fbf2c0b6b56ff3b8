#!/usr/bin/env node
/**
 * `npm run mutation`: StrykerJS over the temporal core (stryker.config.mjs). Not part of `npm test`.
 * Stryker 10's command line refuses Node < 22; this project runs on Node 20 (better-sqlite3 12 and
 * dependency-cruiser 17 are pinned for it), and Stryker's engine itself runs there, so this starts it
 * through its programmatic entry, which has no version check. Reports: reports/mutation/.
 * A full run takes about 25 minutes on two idle cores; --mutate FILES narrows it.
 */
const { Stryker } = await import('../node_modules/@stryker-mutator/core/dist/src/stryker.js');
// `npm run mutation -- --mutate a.ts,b.ts`: only these files (e.g. the ones a change touched).
const at = process.argv.indexOf('--mutate');
const options = at >= 0 ? { mutate: process.argv[at + 1].split(',') } : {};
try {
  await new Stryker(options).runMutationTest();
} catch (error) {
  console.error(error);
  process.exit(1);
}
