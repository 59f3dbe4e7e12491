#!/usr/bin/env node
/** Entry point of the `smi` binary. */
import { runCli } from './main.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`smi: internal error: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
