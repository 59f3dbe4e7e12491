/**
 * `smi corpus check`: read every module of every package of a corpus, write it back and
 * compare the bytes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { BytecodeError, deserializeModule, findPackageDirs, serializeModule } from '@smi/bytecode';
import { type CliIo, jsonLine, resolvePath } from '../io.js';
import { Progress } from '../progress.js';

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
}

/** Check every module under `root`; `onPackage` is called after each package. */
export function checkCorpus(root: string, onPackage: (dir: string) => void = () => {}): CorpusCheckSummary {
  const dirs = findPackageDirs(root);
  const summary: CorpusCheckSummary = { packages: dirs.length, modules: 0, roundtrip_identical: 0, errors: [] };
  for (const dir of dirs) {
    const pkg = path.basename(dir);
    const modDir = path.join(dir, 'bytecode_modules');
    for (const f of readdirSync(modDir).filter((x) => x.endsWith('.mv')).sort()) {
      summary.modules++;
      const name = f.slice(0, -3);
      try {
        const bytes = new Uint8Array(readFileSync(path.join(modDir, f)));
        const out = serializeModule(deserializeModule(bytes));
        if (Buffer.compare(Buffer.from(out), Buffer.from(bytes)) === 0) summary.roundtrip_identical++;
        else summary.errors.push({ package: pkg, module: name, code: 'ROUNDTRIP_MISMATCH', message: `written ${out.length} bytes differ from the ${bytes.length} read` });
      } catch (e) {
        const code = e instanceof BytecodeError ? e.code : 'IO_ERROR';
        summary.errors.push({ package: pkg, module: name, code, message: (e as Error).message });
      }
    }
    onPackage(dir);
  }
  return summary;
}

/** Register `corpus check` under `corpus`. */
export function corpusCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'corpus <action>',
    describe: 'Work on a whole corpus of packages (sui-packages layout)',
    builder: (y: Argv) =>
      y
        .positional('action', { choices: ['check'] as const, describe: 'check: read, write back and compare every module' })
        .option('corpus', { type: 'string', demandOption: true, describe: 'Corpus root directory' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line: {packages, modules, roundtrip_identical, errors}' })
        .option('quiet', { type: 'boolean', default: false, describe: 'No progress output' })
        .example('$0 corpus check --corpus ../shared/corpus --json', ''),
    handler: (args: { corpus: string; json: boolean; quiet: boolean }) => {
      const root = resolvePath(io, args.corpus);
      const total = findPackageDirs(root).length;
      const progress = new Progress(io, 'corpus check', total, args.quiet || args.json);
      const summary = checkCorpus(root, (dir) => progress.tick(path.basename(dir)));
      const elapsed = progress.finish();
      if (args.json) io.stdout(jsonLine(summary));
      else {
        io.stdout(
          `${summary.packages} packages, ${summary.modules} modules, ${summary.roundtrip_identical} round-trip identical, ${summary.errors.length} errors (${elapsed} ms)\n`,
        );
        for (const e of summary.errors) io.stdout(`  ${e.package}::${e.module}: ${e.code}: ${e.message}\n`);
      }
      setExit(summary.errors.length > 0 ? 1 : 0);
    },
  };
}
