/**
 * `smi extract`: the bytecode interface JSON of one package directory, or of every
 * package under a corpus root.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import {
  buildInterfaceJson,
  findPackageDirs,
  loadPackageDir,
  PackageError,
  renderInterfaceJson,
} from '@smi/bytecode';
import { type CliIo, jsonLine, resolvePath, UsageError, writeOutput } from '../io.js';
import { Progress } from '../progress.js';

interface ExtractArgs {
  'package-dir'?: string;
  'package-id'?: string;
  out?: string;
  corpus?: string;
  'out-dir'?: string;
  json?: boolean;
  quiet?: boolean;
}

/** The package id as the package states it (metadata.json or bcs.json `id`), unmodified. */
function statedPackageId(dir: string): string | undefined {
  for (const f of ['metadata.json', 'bcs.json']) {
    const p = path.join(dir, f);
    if (!existsSync(p)) continue;
    try {
      const v = JSON.parse(readFileSync(p, 'utf8')) as { id?: unknown };
      if (typeof v.id === 'string') return v.id;
    } catch {
      // loadPackageDir reports the bad JSON with its path.
    }
  }
  return undefined;
}

/** Interface JSON text of one package directory. */
export function extractPackage(dir: string, packageId?: string): { text: string; id: string; modules: number } {
  const pkg = loadPackageDir(dir, packageId === undefined ? {} : { packageId });
  const id = statedPackageId(dir) ?? packageId ?? pkg.id;
  const iface = buildInterfaceJson({ packageId: id, modules: pkg.modules.map((m) => m.module) });
  return { text: renderInterfaceJson(iface), id, modules: pkg.modules.length };
}

function fileNameFor(id: string): string {
  return id.replace(/[^0-9A-Za-z_x-]/g, '_') + '.json';
}

function runCorpus(io: CliIo, args: ExtractArgs): number {
  if (args['out-dir'] === undefined) throw new UsageError('--corpus needs --out-dir <dir>');
  const root = resolvePath(io, args.corpus as string);
  const dirs = findPackageDirs(root);
  const progress = new Progress(io, 'extract', dirs.length, args.quiet);
  const errors: { package_dir: string; code: string; message: string }[] = [];
  const index: string[] = [];
  let modules = 0;
  let ok = 0;
  for (const dir of dirs) {
    try {
      const r = extractPackage(dir);
      writeOutput(io, path.join(resolvePath(io, args['out-dir']), fileNameFor(r.id)), r.text);
      index.push(jsonLine({ package_id: r.id, package_dir: dir }));
      modules += r.modules;
      ok++;
    } catch (e) {
      if (!(e instanceof PackageError)) throw e;
      errors.push({ package_dir: dir, code: e.code, message: e.message });
    }
    progress.tick(path.basename(dir));
  }
  const elapsed = progress.finish();
  const outDir = resolvePath(io, args['out-dir']);
  writeOutput(io, path.join(outDir, 'index.jsonl'), index.join(''));
  const summary = { packages: dirs.length, ok, failed: errors.length, modules, out_dir: outDir, elapsed_ms: elapsed, errors };
  writeOutput(io, path.join(outDir, 'corpus_summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (args.json) io.stdout(jsonLine(summary));
  else {
    io.stdout(`extracted ${ok}/${dirs.length} packages (${modules} modules) into ${outDir} in ${elapsed} ms\n`);
    for (const e of errors) io.stdout(`  failed ${e.package_dir}: ${e.message}\n`);
  }
  return errors.length > 0 ? 1 : 0;
}

/** Register the command. */
export function extractCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'extract',
    describe: 'Write the bytecode interface JSON (schema_version 1) of a package, or of every package of a corpus',
    builder: (y: Argv) =>
      y
        .option('package-dir', {
          type: 'string',
          alias: 'bytecode-package-dir',
          describe: 'Package directory (sui-packages layout: bytecode_modules/*.mv, metadata.json, bcs.json)',
        })
        .option('package-id', { type: 'string', describe: 'Package id when the directory does not state one' })
        .option('out', {
          type: 'string',
          alias: 'emit-bytecode-json',
          describe: 'Output file, or - for standard output',
          default: '-',
        })
        .option('corpus', { type: 'string', alias: 'bytecode-corpus-root', describe: 'Corpus root: extract every package under it' })
        .option('out-dir', { type: 'string', describe: 'Corpus mode: directory for <package_id>.json files, index.jsonl, corpus_summary.json' })
        .option('json', { type: 'boolean', default: false, describe: 'Corpus mode: print the summary as one JSON line' })
        .option('quiet', { type: 'boolean', default: false, describe: 'No progress output' })
        .example('$0 extract --package-dir ../shared/corpus/0x2 --out 0x2.json', 'one package')
        .example('$0 extract --corpus ../shared/corpus --out-dir out/interfaces', 'a whole corpus'),
    handler: (args: ExtractArgs) => {
      if (args.corpus !== undefined) {
        if (args['package-dir'] !== undefined) throw new UsageError('--package-dir and --corpus cannot be combined');
        setExit(runCorpus(io, args));
        return;
      }
      if (args['package-dir'] === undefined) throw new UsageError('give --package-dir <dir> or --corpus <root> (see smi extract --help)');
      if (args['out-dir'] !== undefined) throw new UsageError('--out-dir is for corpus mode; use --out with --package-dir');
      const r = extractPackage(resolvePath(io, args['package-dir']), args['package-id']);
      writeOutput(io, args.out ?? '-', r.text);
      setExit(0);
    },
  };
}

