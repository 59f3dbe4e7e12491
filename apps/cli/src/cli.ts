#!/usr/bin/env node
import { errorMessage } from '@smi/bytecode';
/** Entry point of the `smi` binary. */

const MIN_NODE_MAJOR = 22;
const major = Number(process.versions.node.split('.')[0]);

if (major < MIN_NODE_MAJOR) {
  process.stderr.write(`smi: error: Node ${MIN_NODE_MAJOR} or newer is needed (this is Node ${process.versions.node}); ` + 'scripts/tools.sh in the repository installs it locally (see the README)\n');
  process.exitCode = 2;
} else if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  // Nothing else to load for the version.
  const { VERSION } = await import('./version.js');
  process.stdout.write(`${VERSION}\n`);
} else if (process.argv.length === 3 && ['--help', '-h', 'help'].includes(process.argv[2] as string)) {
  // The commands by their usage lines, without loading yargs or any command.
  const { mainHelp } = await import('./help-text.js');
  process.stdout.on('error', () => {
    process.exitCode = 141;
  });
  process.stdout.write(mainHelp(Math.min(110, process.stdout.columns ?? 100)));
} else {
  // V8's compiled code of smi's modules kept on disk (Node's compile cache, in the system's
  // temporary directory unless NODE_COMPILE_CACHE names one): the next start skips compiling
  // them again. Only a cache: a stale or missing entry is compiled as before.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.();
  // The process's streams and signals first: Ctrl-C while the rest loads exits 130.
  const { processIo } = await import('./process-io.js');
  const io = processIo();
  const { runCli } = await import('./main.js');
  const { EXIT, OutputClosedError } = await import('./errors.js');
  let code = await runCli(process.argv.slice(2), io).catch((e: unknown) => {
    process.stderr.write(`smi: internal error: ${errorMessage(e)}\n`);
    return EXIT.internal;
  });
  // Wait until what was written to stdout is flushed or has failed (a reader that went
  // away fails the write later, maybe after the command returned), then let 'error' arrive.
  await new Promise<void>((resolve) => {
    if (process.stdout.destroyed) resolve();
    else process.stdout.write('', () => resolve());
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (io.signal?.reason instanceof OutputClosedError) code = EXIT.outputClosed;
  process.exitCode = code;
  // An interrupted or cut-off command may leave stdin or timers open: do not wait for them.
  if (code === EXIT.interrupted || code === EXIT.outputClosed || code === EXIT.terminated) process.exit(code);
}
