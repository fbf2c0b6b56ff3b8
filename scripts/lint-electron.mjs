#!/usr/bin/env node
/**
 * `npm run lint:electron`: Electronegativity (Doyensec's static checker for Electron
 * misconfigurations) over the Electron shell, failing on any finding. Part of `npm test`, so a
 * regression of the security checklist (sandbox off, contextIsolation off, nodeIntegration on, no
 * navigation limits, no permission handler, a loose CSP, ...) fails the build.
 *
 * What is scanned: electron/main and electron/preload (TypeScript sources), together, so that the
 * global checks see the whole shell, plus the renderer's Content-Security-Policy as the built
 * index.html carries it (a <meta> tag generated from shared/csp.ts).
 *
 * Policy: zero findings. A finding reviewed and accepted is marked where it occurs with an
 * `eng-disable CHECK_ID` comment that says why (Electronegativity's own mechanism). Checks turned
 * off for the whole run, and why:
 * - AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK: downloads Electron's release list from the internet at
 *   every run (CI is offline); the pinned Electron version is reviewed when it is upgraded.
 * - ELECTRON_VERSION_JSON_CHECK: only feeds the check above (it reports the version in package.json).
 *
 * One CSP note is accepted by this script rather than disabled (so any other CSP weakness still
 * fails): csp-evaluator's "script-src 'self' can be problematic if you host JSONP, Angular or user
 * uploaded files" - the app's origin (app://tempora, or the loopback bridge) serves only the built
 * bundle: no JSONP endpoint, no Angular, no uploaded files.
 *
 * Offline: Electronegativity also tries to download translations at start; its HTTP client is
 * replaced by one that fails at once, so the run never touches the network and is deterministic.
 *
 * Usage: node --import tsx scripts/lint-electron.mjs [--root DIR]   Exit status 1 on findings.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SCANNED = ['electron/main', 'electron/preload'];
/** Check ids (as reported) and the class names Electronegativity selects checks by. */
export const DISABLED_CHECKS = { AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK: 'AvailableSecurityFixesGlobalCheck', ELECTRON_VERSION_JSON_CHECK: 'ElectronVersionJSONCheck' };

const require = createRequire(import.meta.url);

/** csp-evaluator findings accepted after review: [directive, the start of its description]. */
export const ACCEPTED_CSP_FINDINGS = [['script-src', "'self' can be problematic if you host JSONP"]];

/** The csp-evaluator findings of a policy that are not accepted (what CSP_GLOBAL_CHECK would weigh). */
export function unacceptedCspFindings(policy) {
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const csp = require(require.resolve('@doyensec/csp-evaluator', { paths: [packageDir] }));
  const findings = new csp.CspEvaluator(new csp.CspParser(policy).csp, csp.Version.CSP3).evaluate();
  return findings.filter((f) => !ACCEPTED_CSP_FINDINGS.some(([directive, text]) => f.directive === directive && f.description.startsWith(text)));
}

/** Drops a CSP_GLOBAL_CHECK issue whose policy has only accepted findings. */
function accepted(issue) {
  if (issue.id !== 'CSP_GLOBAL_CHECK' || typeof issue.sample !== 'string') return false;
  try {
    return unacceptedCspFindings(issue.sample).length === 0;
  } catch {
    return false;
  }
}

/** Loads Electronegativity's runner with its HTTP client (got) replaced by an offline stub. */
function loadRunner() {
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const gotPath = require.resolve('got', { paths: [packageDir] });
  const offline = () => Promise.reject(new Error('lint:electron runs offline'));
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: Object.assign(offline, { default: offline }) };
  return require(join(packageDir, 'dist', 'runner.js'));
}

/** Copies the scanned sources and the renderer CSP into a fresh folder; returns it. */
async function stage(root) {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-lint-electron-'));
  for (const path of SCANNED) cpSync(join(root, path), join(dir, path), { recursive: true, filter: (p) => !p.includes('node_modules') });
  const { RENDERER_META_CSP } = await import(pathToFileURL(join(root, 'shared', 'csp.ts')).href);
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(
    join(dir, 'renderer', 'index.html'),
    `<!doctype html>\n<html><head><meta http-equiv="Content-Security-Policy" content="${RENDERER_META_CSP}"><title>Tempora</title></head><body></body></html>\n`,
  );
  return dir;
}

function countFiles(dir) {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) n += entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1;
  return n;
}

/** Runs the scan; returns { issues, errors, files }. */
export async function lintElectron(root) {
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const run = loadRunner();
  const dir = await stage(root);
  const log = console.log;
  // Its start-up chatter ("could not retrieve translations") is about the stubbed network.
  console.log = () => undefined;
  try {
    const result = await run(
      {
        input: dir,
        isRelative: true,
        customScan: [],
        excludeFromScan: Object.values(DISABLED_CHECKS).map((c) => c.toLowerCase()),
        electronVersionOverride: electronVersion,
        parserPlugins: [],
      },
      false,
    );
    return { issues: result.issues.filter((issue) => !accepted(issue)), errors: result.errors.filter((e) => !e.tolerable), files: countFiles(dir), electronVersion };
  } finally {
    console.log = log;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv) {
  const rootFlag = argv.indexOf('--root');
  const root = rootFlag >= 0 && argv[rootFlag + 1] ? resolve(argv[rootFlag + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { issues, errors, files, electronVersion } = await lintElectron(root);
  for (const error of errors) console.error(`lint:electron: could not parse ${error.file}: ${error.message}`);
  for (const issue of issues) {
    console.error(
      `${issue.file}:${issue.location.line}:${issue.location.column} ${issue.id} (${issue.severity.name}, ${issue.confidence.name}): ${issue.description} ${issue.shortenedURL ?? ''}`.trim(),
    );
  }
  if (issues.length > 0 || errors.length > 0) {
    console.error(`\nlint:electron: ${issues.length} finding(s), ${errors.length} unparsable file(s) in ${SCANNED.join(', ')} (Electron ${electronVersion}).`);
    console.error('Fix them, or mark a reviewed one where it occurs with `// eng-disable CHECK_ID: why`.');
    process.exit(1);
  }
  console.log(`lint:electron: ${files} files of ${SCANNED.join(', ')} and the renderer CSP, Electron ${electronVersion}: no findings.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`lint:electron: ${error.stack ?? error}`);
    process.exit(2);
  });
}
