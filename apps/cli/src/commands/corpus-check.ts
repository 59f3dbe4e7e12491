/**
 * `smi corpus check`: read every module of every package of a corpus, write it back and
 * compare the bytes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BytecodeError, deserializeModule, findPackageDirs, serializeModule } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { type CliError, noPackages, notADirectory, OutputClosedError } from '../errors.js';
import { endStopped, jsonLine, resolvePath, stopRequested } from '../io.js';
import { Progress } from '../progress.js';
import { header } from './registry.js';

/** One failure of the corpus check. */
export interface CorpusCheckError {
  package: string;
  module: string;
  code: string;
  message: string;
}

/** Summary printed by `smi corpus check --json`. */
export interface CorpusCheckSummary {
  packages: number;
  modules: number;
  roundtrip_identical: number;
  errors: CorpusCheckError[];
  /** Set when Ctrl-C stopped the check: the counts cover the packages checked before it. */
  interrupted?: true;
}

/** Add one package's modules to `summary`. */
function checkPackage(dir: string, summary: CorpusCheckSummary): void {
  const pkg = path.basename(dir);
  const modDir = path.join(dir, 'bytecode_modules');
  for (const f of readdirSync(modDir)
    .filter((x) => x.endsWith('.mv'))
    .sort()) {
    summary.modules++;
    const name = f.slice(0, -3);
    try {
      const bytes = new Uint8Array(readFileSync(path.join(modDir, f)));
      const out = serializeModule(deserializeModule(bytes));
      if (Buffer.compare(Buffer.from(out), Buffer.from(bytes)) === 0) summary.roundtrip_identical++;
      else summary.errors.push({ package: pkg, module: name, code: 'ROUNDTRIP_MISMATCH', message: `written ${out.length} bytes differ from the ${bytes.length} read` });
    } catch (e) {
      const code = e instanceof BytecodeError ? e.code : 'IO_ERROR';
      // The code is its own field: the message does not repeat it.
      const message = (e as Error).message;
      summary.errors.push({ package: pkg, module: name, code, message: message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message });
    }
  }
}

function emptySummary(packages: number): CorpusCheckSummary {
  return { packages, modules: 0, roundtrip_identical: 0, errors: [] };
}

/** Check every module under `root`; `onPackage` is called after each package. */
export function checkCorpus(root: string, onPackage: (dir: string) => void = () => {}): CorpusCheckSummary {
  const dirs = findPackageDirs(root);
  const summary = emptySummary(dirs.length);
  for (const dir of dirs) {
    checkPackage(dir, summary);
    onPackage(dir);
  }
  return summary;
}

/** `smi corpus check`. */
export const corpusCommand = defineCommand<{ action: 'check'; corpus: string }>({
  ...header('corpus'),
  positionals: { action: { choices: ['check'] as const, describe: 'check: read, write back and compare every module' } },
  options: { corpus: { type: 'string', demandOption: true, describe: 'Corpus root directory' } },
  examples: [{ command: '$0 corpus check --corpus ../shared/corpus --json', describe: 'every module of the shared corpus, as one JSON line' }],
  epilog: 'With --json: {"packages","modules","roundtrip_identical","errors":[{"package","module","code","message"}]}. Exit 1 when a module fails.',
  longRunning: true,
  run: async (args, io) => {
    const root = resolvePath(io, args.corpus);
    if (!existsSync(root) || !statSync(root).isDirectory()) throw notADirectory(`--corpus ${args.corpus}`);
    const dirs = findPackageDirs(root);
    if (dirs.length === 0) throw noPackages(`--corpus ${args.corpus}`);
    const progress = new Progress(io, 'corpus check', dirs.length, args.quiet);
    const summary = emptySummary(dirs.length);
    let stopped: CliError | null = null;
    for (const dir of dirs) {
      stopped = await stopRequested(io);
      if (stopped !== null) {
        summary.interrupted = true;
        break;
      }
      checkPackage(dir, summary);
      progress.tick(path.basename(dir));
    }
    const elapsed = progress.finish();
    if (stopped instanceof OutputClosedError) throw stopped;
    if (args.json) io.stdout(jsonLine(summary));
    else {
      io.stdout(
        `${summary.packages} packages, ${summary.modules} modules, ${summary.roundtrip_identical} round-trip identical, ${summary.errors.length} errors (${elapsed} ms)${stopped ? ' (interrupted)' : ''}\n`,
      );
      for (const e of summary.errors) io.stdout(`  ${e.package}::${e.module}: ${e.code}: ${e.message}\n`);
    }
    if (stopped !== null) return endStopped(stopped);
    return summary.errors.length > 0 ? 1 : 0;
  },
});
