/**
 * Process entry of the mocha child of `cprc run` (`dist/src/cli/child.js`, started by the
 * runner): the process side only (stdout, stderr, signals, exit); the work is
 * `runChildProcess` of `src/runner/child.ts`. Exit code: 0 when the run went through (the
 * verdict is the parent's), 2 when it could not start.
 * @packageDocumentation
 */
import { runChildProcess } from '../runner/child.js';

runChildProcess({
  env: process.env,
  progress: (line) => process.stdout.write(`${line}\n`),
  warn: (line) => process.stderr.write(`${line}\n`),
  onInterrupt: (handler) => {
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  },
  exit: (code) => process.exit(code),
  // a --jobs child talks with its parent over the IPC channel it was started with
  ...(process.send
    ? {
        send: (message) => process.send?.(message),
        onMessage: (handler) => process.on('message', handler as (m: unknown) => void),
      }
    : {}),
}).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cprc: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
