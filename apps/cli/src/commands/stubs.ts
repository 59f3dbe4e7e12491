/**
 * `smi stubs`: Move source stubs of a bytecode package (declarations with `abort 0`
 * bodies), so that the Sui compiler can build code against it. The packages it uses (other
 * than the system ones) get stubs too, under `deps/`, found in the `--corpus` folders at the
 * version its linkage table names, so the output builds on its own and as a local dependency.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, findPackageDirs, generateStubTree, loadPackageDir, type MovePackage, shortAddress, type StubTreePackage } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { type CliIo, jsonLine, resolveInputPath, resolvePath, UsageError, writeOutput } from '../io.js';
import { header } from './registry.js';

/** The package directories of `--corpus` folders (a package directory, or a corpus root), read only when asked for. */
class CorpusIndex {
  private readonly dirs: string[];
  private loaded: MovePackage[] | undefined;
  constructor(
    io: CliIo,
    roots: readonly string[],
    private readonly skip: string,
  ) {
    this.dirs = roots.flatMap((r) => {
      const dir = resolveInputPath(io, r);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--corpus ${r}: not a directory`);
      return existsSync(path.join(dir, 'bytecode_modules')) ? [dir] : findPackageDirs(dir);
    });
  }

  /** The package of storage id `id` (its folder named so, in the sui-packages layout), else of that original id at the highest version. */
  find(originalId: string, id: string | undefined): MovePackage | undefined {
    if (id !== undefined) {
      const named = this.dirs.find((d) => path.resolve(d) !== this.skip && sameId(path.basename(d), id));
      if (named !== undefined) {
        const pkg = loadPackageDir(named);
        if (pkg.originalId === originalId) return pkg;
      }
    }
    this.loaded ??= this.dirs.filter((d) => path.resolve(d) !== this.skip).map((d) => loadPackageDir(d));
    const versions = this.loaded.filter((p) => p.originalId === originalId);
    return (id === undefined ? undefined : versions.find((p) => p.id === id)) ?? versions.sort((a, b) => (b.version ?? 0) - (a.version ?? 0))[0];
  }
}

function sameId(name: string, id: string): boolean {
  try {
    return canonicalAddress(name) === id;
  } catch {
    return false;
  }
}

const asStubPackage = (p: MovePackage): StubTreePackage => ({ originalId: p.originalId, id: p.id, modules: p.modules.map((m) => m.module) });

/** `smi stubs`. */
export const stubsCommand = defineCommand<{ 'package-dir': string; out: string; name?: string; corpus: string[] }>({
  ...header('stubs'),
  positionals: { 'package-dir': { type: 'string', demandOption: true, describe: 'Package directory (bytecode_modules/*.mv)' } },
  options: {
    out: { type: 'string', demandOption: true, describe: 'Directory to write the stub package into' },
    name: { type: 'string', describe: 'Package name in Move.toml (default derived from the address)' },
    corpus: {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Where the packages it uses are: package directories or corpus roots (repeatable; default the folder the package is in)',
    },
  },
  examples: [
    { command: '$0 stubs ../shared/corpus/0x2 --out stubs/sui', describe: 'stubs of the Sui framework' },
    {
      command:
        '$0 stubs ../shared/corpus/0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb --corpus ../shared/corpus-deps --out stubs/cetus && smi build stubs/cetus --out build/cetus',
      describe: 'Cetus CLMM with stubs of integer_mate and move_stl under stubs/cetus/deps/, then built',
    },
  ],
  epilog:
    'The output is a Move package: Move.toml (its named address bound to the original id, published-at its storage id) and sources/<module>.move; each package it uses other than the system ones gets its stubs under deps/<name>/ (the version its linkage table names, found in the --corpus folders), named in Move.toml as a local dependency; 0x3, 0xb and 0xdee9 are git dependencies on MystenLabs/sui. It builds with `smi build` and as a local dependency of another package. A package it uses that is not found is an error (exit 2).\n\nWith --json: {"out","files","dependencies":[{"name","address","published_at","dir"}]} on one line.',
  run: (args, io) => {
    const dir = resolveInputPath(io, args['package-dir']);
    const pkg = loadPackageDir(dir);
    const corpus = new CorpusIndex(io, args.corpus.length > 0 ? args.corpus : [path.dirname(dir)], path.resolve(dir));
    const versionOf = (originalId: string): string | undefined => {
      const upgraded = pkg.linkageTable[originalId]?.upgradedId;
      return upgraded === undefined ? undefined : canonicalAddress(upgraded);
    };
    const warnings: string[] = [];
    const tree = generateStubTree(
      asStubPackage(pkg),
      (originalId) => {
        const wanted = versionOf(originalId);
        const found = corpus.find(originalId, wanted);
        if (found !== undefined && wanted !== undefined && found.id !== wanted) {
          warnings.push(`${shortAddress(originalId)}: the linkage table names version ${shortAddress(wanted)}, not found; stubs of ${shortAddress(found.id)} instead`);
        }
        return found === undefined ? undefined : asStubPackage(found);
      },
      { ...(args.name !== undefined ? { packageName: args.name } : {}) },
    );
    if (tree.missing.length > 0) {
      const where = args.corpus.length > 0 ? `--corpus ${args.corpus.join(', ')}` : `${path.dirname(dir)} (the folder the package is in)`;
      throw new UsageError(
        `${shortAddress(pkg.id)} uses ${tree.missing.map((a) => shortAddress(a)).join(', ')}, not found in ${where}: give the folder that holds ${tree.missing.length === 1 ? 'it' : 'them'} with --corpus`,
        'MISSING_DEPENDENCY',
      );
    }
    if (!args.quiet) for (const w of warnings) io.stderr(`smi: warning: ${w}\n`);
    const outDir = resolvePath(io, args.out);
    for (const [rel, text] of tree.files) writeOutput(io, path.join(outDir, rel), text);
    const list = [...tree.files.keys()].sort();
    const dependencies = tree.packages.slice(1).map((p) => ({ name: p.packageName, address: p.address, published_at: p.publishedAt, dir: p.dir }));
    if (args.json) io.stdout(jsonLine({ out: outDir, files: list, dependencies }));
    else io.stdout(`wrote ${list.length} files to ${outDir}${dependencies.length > 0 ? ` (with the stubs of ${dependencies.map((d) => d.name).join(', ')} under deps/)` : ''}\n`);
    return 0;
  },
});
