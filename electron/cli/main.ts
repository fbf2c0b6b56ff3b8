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

// exitCode rather than process.exit(): a large export written to a pipe is flushed before exiting.
const status = run(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
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
