/**
 * `smi extract`: the bytecode interface JSON of one package directory, or of every
 * package under a corpus root.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildInterfaceJson, findPackageDirs, loadPackageDir, PackageError, renderInterfaceJson } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { type CliError, noPackages, notADirectory, OutputClosedError } from '../errors.js';
import { type CliIo, endStopped, jsonLine, resolveInputPath, resolvePath, stopRequested, UsageError, writeOutput } from '../io.js';
import { Progress } from '../progress.js';
import { header } from './registry.js';

interface ExtractArgs {
  'package-dir'?: string;
  'package-id'?: string;
  out?: string;
  corpus?: string;
  'out-dir'?: string;
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

/** What `extract --corpus` did; written to `corpus_summary.json` and printed with `--json`. */
interface CorpusSummary {
  packages: number;
  ok: number;
  failed: number;
  modules: number;
  out_dir: string;
  elapsed_ms: number;
  interrupted?: true;
  errors: { package_dir: string; code: string; message: string }[];
}

async function runCorpus(io: CliIo, args: ExtractArgs & { json: boolean; quiet: boolean }): Promise<number> {
  if (args['out-dir'] === undefined) throw new UsageError('--corpus needs --out-dir <dir>', 'MISSING_ARGUMENT');
  const root = resolvePath(io, args.corpus as string);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw notADirectory(`--corpus ${args.corpus}`);
  const dirs = findPackageDirs(root);
  if (dirs.length === 0) throw noPackages(`--corpus ${args.corpus}`);
  const outDir = resolvePath(io, args['out-dir']);
  const progress = new Progress(io, 'extract', dirs.length, args.quiet);
  const summary: CorpusSummary = { packages: dirs.length, ok: 0, failed: 0, modules: 0, out_dir: outDir, elapsed_ms: 0, errors: [] };
  const index: string[] = [];
  let stopped: CliError | null = null;
  for (const dir of dirs) {
    stopped = await stopRequested(io);
    if (stopped !== null) break;
    try {
      const r = extractPackage(dir);
      writeOutput(io, path.join(outDir, fileNameFor(r.id)), r.text);
      index.push(jsonLine({ package_id: r.id, package_dir: dir }));
      summary.modules += r.modules;
      summary.ok++;
    } catch (e) {
      if (!(e instanceof PackageError)) throw e;
      summary.errors.push({ package_dir: dir, code: e.code, message: e.message });
      summary.failed++;
    }
    progress.tick(path.basename(dir));
  }
  summary.elapsed_ms = progress.finish();
  // What was finished is kept: the index and summary name it, even when interrupted.
  if (stopped !== null) summary.interrupted = true;
  writeOutput(io, path.join(outDir, 'index.jsonl'), index.join(''));
  writeOutput(io, path.join(outDir, 'corpus_summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (stopped instanceof OutputClosedError) throw stopped;
  if (args.json) io.stdout(jsonLine(summary));
  else {
    const of = stopped === null ? `${dirs.length}` : `${dirs.length} (interrupted after ${summary.ok + summary.failed})`;
    io.stdout(`extracted ${summary.ok}/${of} packages (${summary.modules} modules) into ${outDir} in ${summary.elapsed_ms} ms\n`);
    for (const e of summary.errors) io.stdout(`  failed ${e.package_dir}: ${e.message}\n`);
  }
  if (stopped !== null) return endStopped(stopped);
  return summary.errors.length > 0 ? 1 : 0;
}

/** `smi extract`. */
export const extractCommand = defineCommand<ExtractArgs>({
  ...header('extract'),
  options: {
    'package-dir': {
      type: 'string',
      alias: 'bytecode-package-dir',
      describe: 'Package directory (sui-packages layout: bytecode_modules/*.mv, metadata.json, bcs.json)',
    },
    'package-id': { type: 'string', describe: 'Package id when the directory does not state one' },
    out: {
      type: 'string',
      alias: 'emit-bytecode-json',
      describe: 'Output file, or - for standard output',
      default: '-',
      file: 'write',
    },
    corpus: { type: 'string', alias: 'bytecode-corpus-root', describe: 'Corpus root: extract every package under it' },
    'out-dir': { type: 'string', describe: 'Corpus mode: directory for <package_id>.json files, index.jsonl, corpus_summary.json' },
  },
  examples: [
    { command: '$0 extract --package-dir ../shared/corpus/0x2 --out 0x2.json', describe: 'one package, into a file' },
    { command: '$0 extract --bytecode-package-dir ../shared/corpus/0x1 --emit-bytecode-json - | head -5', describe: "the original tool's spelling, to stdout" },
    { command: '$0 extract --corpus ../shared/corpus --out-dir out/interfaces', describe: 'a whole corpus' },
  ],
  epilog:
    'With --json, one package prints its interface on one line (--out -) or {"status","package_id","modules","out"}; ' +
    'a corpus prints its summary. Ctrl-C keeps the packages already written (and says so in corpus_summary.json).',
  longRunning: true,
  run: async (args, io) => {
    if (args.corpus !== undefined) {
      if (args['package-dir'] !== undefined) throw new UsageError('--package-dir and --corpus cannot be combined');
      return runCorpus(io, args);
    }
    if (args['package-dir'] === undefined) throw new UsageError('give --package-dir <dir> or --corpus <root> (see smi extract --help)', 'MISSING_ARGUMENT');
    if (args['out-dir'] !== undefined) throw new UsageError('--out-dir is for corpus mode; use --out with --package-dir');
    const r = extractPackage(resolveInputPath(io, args['package-dir']), args['package-id']);
    const out = args.out ?? '-';
    if (out === '-') {
      io.stdout(args.json ? jsonLine(JSON.parse(r.text)) : r.text);
      return 0;
    }
    writeOutput(io, out, r.text);
    if (args.json) io.stdout(jsonLine({ status: 'success', package_id: r.id, modules: r.modules, out: resolvePath(io, out) }));
    else if (!args.quiet) io.stderr(`extract: wrote ${out} (${r.modules} modules of ${r.id})\n`);
    return 0;
  },
});
