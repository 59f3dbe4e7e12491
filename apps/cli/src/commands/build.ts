/**
 * `smi build`: compile a Move package offline. The framework (and any bytecode package) is
 * served from Move stubs generated out of the bytecode we hold, with the framework's macros
 * and aliases declared; Move source dependencies (`local` paths of the manifest, or `--dep`)
 * are compiled from their sources. The result links against the real bytecode at run time.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { type CliIo, jsonLine, resolvePath } from '../io.js';
import { bytecodeDependency, frameworkDependencies, parseDeps, writePackageDir } from './build-support.js';
import { header } from './registry.js';

/** A clear error for a directory that is not a Move package (no Move.toml, or no `.move` file under `sources/`). */
function checkMovePackageDir(dir: string): void {
  if (!existsSync(path.join(dir, 'Move.toml'))) throw new UsageError(`${dir}: no Move.toml (not a Move package)`, 'NOT_A_MOVE_PACKAGE');
  const hasSource = (rel: string): boolean => readdirSync(path.join(dir, rel)).some((e) => (statSync(path.join(dir, rel, e)).isDirectory() ? hasSource(path.join(rel, e)) : e.endsWith('.move')));
  if (!existsSync(path.join(dir, 'sources')) || !hasSource('sources')) throw new UsageError(`${dir}: no sources/*.move files`, 'NOT_A_MOVE_PACKAGE');
}

/** The compiler's error as a CLI error: the first error on one line, the full diagnostics on stderr. */
export async function compileErrorToCli<T>(run: () => Promise<T>, what = 'compilation failed'): Promise<T> {
  const { MoveCompileError } = await import('@smi/move-compiler');
  try {
    return await run();
  } catch (e) {
    if (e instanceof MoveCompileError) {
      throw new UsageError(`${what}: ${e.message}`, e.code, e.diagnostics !== e.message ? { diagnostics: e.diagnostics } : {});
    }
    throw e;
  }
}

/** Warnings on stderr unless quiet. */
function printWarnings(io: CliIo, warnings: string | undefined, quiet: boolean): void {
  if (warnings && !quiet) io.stderr(warnings.endsWith('\n') ? warnings : warnings + '\n');
}

/** `smi build`. */
export const buildCommand = defineCommand<{ 'package-dir': string; out: string; framework?: string; dep: string[]; address?: string }>({
  ...header('build'),
  positionals: { 'package-dir': { type: 'string', demandOption: true, describe: 'Move package directory (Move.toml, sources/)' } },
  options: {
    out: { type: 'string', demandOption: true, describe: 'Output directory: bytecode_modules/<name>.mv and metadata.json (the sui-packages layout)' },
    address: {
      type: 'string',
      describe: 'Place the package at this address instead of 0x0 (recorded in metadata.json), so it can be the dependency of the next build',
    },
    framework: { type: 'string', describe: 'Directory of framework bundles (default $SMI_FIXTURES/fixtures/framework)' },
    dep: {
      type: 'string',
      array: true,
      default: [] as string[],
      describe:
        'A dependency as NAME=DIR: a Move source package or a bytecode package directory, overriding what the manifest says for NAME (a git dependency, say); NAME=DIR@0xADDRESS places it (a build at 0x0, or a source package). Repeatable',
    },
  },
  examples: [
    { command: '$0 build apps/cli/examples/counter --out build/counter', describe: 'the example package of this repository' },
    { command: '$0 build apps/cli/examples/counter --out build/counter --address 0xc0 --json', describe: 'placed at 0xc0, as one JSON line' },
  ],
  epilog:
    'Dependencies: a `local` dependency of the manifest is read from disk and compiled from source (so are its own); a git dependency on MystenLabs/sui is the framework; one on a repository the package sits in (a directory above it named like the repository) is its subdir there; any other git dependency needs --dep NAME=DIR. A source dependency sits at the address given with @0x..., else the one its manifest declares, else the original id its Published.toml records for mainnet (linked at its published-at), else at an address derived from its repository and path there, the one smi build-all gives it (say so on stderr): to run the result, its bytecode must be there (smi build-all builds a whole repository that way).\n\nWith --json: {"out","address","modules":[{"name","size"}],"dependencies","source_dependencies":[{"name","dir","address","derived"}]} on one line. Compiler warnings go to stderr (none with --quiet); a compile error prints its first error, then the full diagnostics on stderr (and in "diagnostics" under --json).',
  run: async (args, io) => {
    const root = resolvePath(io, args['package-dir']);
    checkMovePackageDir(root);
    const build = await import('@smi/move-compiler');
    const framework = frameworkDependencies(io, args.framework);
    const deps = parseDeps(io, args.dep);
    const overrides = new Map(deps.map((d) => [d.name, d.dir]));
    const given = new Map(deps.map((d) => [d.name, d]));
    const graph = await compileErrorToCli(async () => build.resolveMoveGraph([root], { overrides, warn: (m) => args.quiet || io.stderr(`smi: warning: ${m}\n`) }));
    const target = graph[graph.length - 1];
    if (target.pkg.moduleRoots.length === 0) throw new UsageError(`${root}: no module outside #[test_only] code to build`, 'NO_MODULES');
    const placed: { name: string; dir: string; address: string; derived: boolean }[] = [];
    const addressOf = (node: (typeof graph)[number]): string => {
      const explicit = [...given.values()].find((d) => path.resolve(d.dir) === node.pkg.dir)?.address;
      const { address, declared } = explicit ? { address: canonicalAddress(explicit), declared: true } : build.packageAddress(node.pkg);
      if (!placed.some((p) => p.dir === node.pkg.dir)) placed.push({ name: node.pkg.name, dir: node.pkg.dir, address, derived: !declared });
      return address;
    };
    // --dep bytecode packages that no manifest declares are still offered (sources may name them).
    const undeclared = deps
      .filter((d) => !graph.some((g) => g.dependencies.has(d.name)) && existsSync(path.join(d.dir, 'bytecode_modules')))
      .map((d) => bytecodeDependency(d.dir, d.name, d.address, build.relocateModule));
    const result = await compileErrorToCli(() =>
      build.compileGraphPackage(graph, target, {
        bytecode: [...framework, ...undeclared],
        loadBytecode: (dir, name) => bytecodeDependency(dir, name, given.get(name)?.address, build.relocateModule),
        addressOf,
        zeroRoot: true,
        ...(args.address !== undefined ? { address: args.address } : {}),
      }),
    );
    if (result.modules.length === 0) throw new UsageError(`${root}: every module is #[test_only]: nothing to build`, 'NO_MODULES');
    const address = args.address === undefined ? canonicalAddress('0x0') : canonicalAddress(args.address);
    const outDir = resolvePath(io, args.out);
    writePackageDir(io, outDir, result.modules, {
      id: address,
      version: 1,
      name: target.pkg.name,
      address_name: target.pkg.moduleRoots[0],
      source: `smi build ${path.basename(root)}`,
      dependencies: result.dependencies,
    });
    for (const p of placed) {
      if (p.derived && !args.quiet) io.stderr(`smi: note: dependency ${p.name} (${p.dir}) declares no address: compiled at ${p.address}; its bytecode must be published there to run the result\n`);
    }
    printWarnings(io, result.warnings, args.quiet);
    const modules = result.modules.map((m) => ({ name: m.name, size: m.bytes.length }));
    if (args.json) io.stdout(jsonLine({ out: outDir, address, modules, dependencies: result.dependencies, source_dependencies: placed }));
    else io.stdout(`compiled ${modules.length} module${modules.length === 1 ? '' : 's'} (${modules.map((m) => m.name).join(', ')}) at ${address} into ${outDir}\n`);
    return 0;
  },
});
