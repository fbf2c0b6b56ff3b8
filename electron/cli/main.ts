/**
 * Entry point of the `tempora` command (`npm run --silent tempora -- <command>`). Everything but the
 * process wiring lives in run.ts, which tests call in-process.
 */
import { run } from './run';

// `tempora export | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// `npm run tempora -- observe seed.jsonl` runs in the package's folder, wherever it was typed: paths
// on the command line are the user's, relative to where npm was run (npm's INIT_CWD).
const cwd = process.env.npm_lifecycle_event === 'tempora' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();

// exitCode rather than process.exit(): a large export written to a pipe is flushed before exiting.
const status = run(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd,
  env: process.env,
  terminal: process.stderr.isTTY === true || process.env.TEMPORA_PROGRESS === '1',
});
if (typeof status === 'number') process.exitCode = status;
else {
  void status.then((code) => {
    process.exitCode = code;
    // Done: a socket a library left open (a download the watchdog gave up on) must not keep the
    // command alive. Unref'd, so a process that ends by itself is not held up by this timer.
    setTimeout(() => process.exit(code), 2_000).unref();
  });
}
