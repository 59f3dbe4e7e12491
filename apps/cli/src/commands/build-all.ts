/**
 * `smi build-all`: every Move package of a repository, built in dependency order, each at its
 * own address, written as a corpus in the sui-packages layout (`<out>/<address>/bytecode_modules`,
 * `metadata.json`), so any Move repository becomes a benchmark corpus in one command.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import type { GraphPackage } from '@smi/move-compiler';
import { defineCommand } from '../command.js';
import { toCliError, UsageError } from '../errors.js';
import { jsonLine, resolveInputPath, resolvePath, writeOutput } from '../io.js';
import { bytecodeDependency, frameworkDependencies, parseDeps, writePackageDir } from './build-support.js';
import { compileErrorToCli } from './build.js';
import { header } from './registry.js';

type Status = 'built' | 'failed' | 'blocked' | 'test_only';

interface PackageReport {
  name: string;
  dir: string;
  status: Status;
  address?: string;
  /** The address was derived (the manifest declares none and no Published.toml records one). */
  derived?: boolean;
  /** The id its Published.toml records as published-at, where the corpus holds it (when not `address`). */
  published_at?: string;
  modules?: string[];
  error_code?: string;
  error?: string;
}

/** `smi build-all`. */
export const buildAllCommand = defineCommand<{ repository: string; out: string; framework?: string; dep: string[]; summary?: string }>({
  ...header('build-all'),
  positionals: { repository: { type: 'string', demandOption: true, describe: 'Directory to search for Move packages (any depth)' } },
  options: {
    out: { type: 'string', demandOption: true, describe: 'Corpus directory: <address>/bytecode_modules/*.mv and <address>/metadata.json per package' },
    framework: { type: 'string', describe: 'Directory of framework bundles (default $SMI_FIXTURES/fixtures/framework)' },
    dep: {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'A dependency outside the repository, as NAME=DIR (a Move source or bytecode package; NAME=DIR@0xADDRESS places it). Repeatable',
    },
    summary: { type: 'string', describe: 'Also write the JSON summary to this file (- for standard output, after the table)', file: 'write' },
  },
  examples: [
    { command: '$0 build-all apps/cli/examples --out build/examples-corpus', describe: 'the example packages of this repository' },
    { command: '$0 build-all apps/cli/examples --out build/examples-corpus --json | head -c 300', describe: 'the summary as one JSON line' },
  ],
  epilog:
    'Each package sits at the address its manifest declares for its own named address, else at the original id its Published.toml records for mainnet (the corpus holding it under its published-at id), else at one derived from the repository (its origin URL, else its absolute path) and the package\'s path there: the same address smi build derives, different for the same path in two repositories. A git dependency pinned to a revision other than the working tree\'s is read from the repository\'s history (a warning says when it cannot be). --dep source packages are built and listed too. A git dependency on the same repository (its URL ends in the directory name), or on one checked out above the package, resolves to its subdir there, a dependency with no location (a Move Registry name, r.mvr) to the package of that name in the repository; one on MystenLabs/sui is the framework; any other needs --dep. A package whose dependency failed is "blocked"; one with only #[test_only] modules is "test_only". Exit 0 when every package built, 1 when one failed or is blocked.\n\nWith --json: {"repository","out","packages":[{"name","dir","status","address","derived","published_at","modules","error_code","error"}],"built","failed","blocked","test_only"}.',
  run: async (args, io) => {
    const repo = resolveInputPath(io, args.repository);
    if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new UsageError(`${args.repository}: not a directory`, 'NOT_A_DIRECTORY');
    const build = await import('@smi/move-compiler');
    const frameworkDeps = frameworkDependencies(io, args.framework);
    const deps = parseDeps(io, args.dep);
    const overrides = new Map(deps.map((d) => [d.name, d.dir]));
    const dirs = build.findMovePackageDirs(repo);
    if (dirs.length === 0) throw new UsageError(`${repo}: no Move.toml under it`, 'NO_PACKAGES');
    const outDir = resolvePath(io, args.out);
    const siblings = build.repositoryPackages(dirs);

    const warned = new Set<string>();
    const warn = (m: string) => {
      if (!warned.has(m) && !args.quiet) io.stderr(`smi: warning: ${m}\n`);
      warned.add(m);
    };
    const reports = new Map<string, PackageReport>();
    const addresses = new Map<string, { address: string; derived: boolean; publishedAt?: string }>();
    const addressOf = (node: GraphPackage): string => {
      const known = addresses.get(node.pkg.dir);
      if (known) return known.address;
      const given = deps.find((d) => path.resolve(d.dir) === node.pkg.dir)?.address;
      const derived = build.packageAddress(node.pkg);
      const placed = given
        ? { address: canonicalAddress(given), derived: false }
        : { address: derived.address, derived: !derived.declared, ...(derived.publishedAt !== undefined && derived.publishedAt !== derived.address ? { publishedAt: derived.publishedAt } : {}) };
      addresses.set(node.pkg.dir, placed);
      return placed.address;
    };
    let done = 0;
    const buildOne = async (dir: string): Promise<PackageReport> => {
      const existing = reports.get(dir);
      if (existing) return existing;
      const report: PackageReport = { name: path.basename(dir), dir: path.relative(repo, dir).split(path.sep).join('/') || '.', status: 'failed' };
      reports.set(dir, report);
      try {
        const graph = build.resolveMoveGraph([dir], { repositoryRoot: repo, overrides, repositoryPackages: siblings, warn });
        const target = graph[graph.length - 1];
        report.name = target.pkg.name;
        // Dependencies first: a failed one blocks this package.
        for (const node of graph.slice(0, -1)) {
          const dep = await buildOne(node.pkg.dir);
          if (dep.status !== 'built') {
            report.status = 'blocked';
            report.error = `dependency ${dep.name} (${dep.dir}) ${dep.status === 'test_only' ? 'has only test modules' : dep.status}`;
            return report;
          }
        }
        if (target.pkg.moduleRoots.length === 0) {
          report.status = 'test_only';
          return report;
        }
        const address = addressOf(target);
        const result = await compileErrorToCli(() =>
          build.compileGraphPackage(graph, target, {
            bytecode: frameworkDeps,
            loadBytecode: (d, name) => bytecodeDependency(d, name, deps.find((x) => x.name === name)?.address, build.relocateModule),
            addressOf,
            address,
            silenceWarnings: true,
          }),
        );
        if (result.modules.length === 0) {
          report.status = 'test_only';
          return report;
        }
        // A published package sits where its Published.toml says the linked version is (its modules at the original id).
        const placed = addresses.get(dir);
        const id = placed?.publishedAt ?? address;
        writePackageDir(io, path.join(outDir, id), result.modules, {
          id,
          version: (id !== address ? target.pkg.published?.version : undefined) ?? 1,
          name: target.pkg.name,
          address_name: target.pkg.moduleRoots[0],
          source: `smi build-all ${path.basename(repo)}/${report.dir}`,
          dependencies: result.dependencies,
        });
        Object.assign(report, {
          status: 'built',
          address,
          derived: placed?.derived ?? false,
          ...(id !== address ? { published_at: id } : {}),
          modules: result.modules.map((m) => m.name),
        });
      } catch (e) {
        const err = toCliError(e);
        if (err.exitCode !== 2) throw e;
        Object.assign(report, { status: 'failed', error_code: err.code, error: err.message });
      } finally {
        done++;
        // Packages outside the repository (--dep sources, other revisions) count once they are met.
        const total = new Set([...dirs, ...reports.keys()]).size;
        if (!args.quiet) io.stderr(`build-all: ${done}/${total} ${report.dir}: ${report.status}${report.error ? ` (${report.error.slice(0, 160)})` : ''}\n`);
      }
      return report;
    };
    for (const dir of dirs) await buildOne(dir);

    const packages = [...dirs, ...[...reports.keys()].filter((d) => !dirs.includes(d))].map((d) => reports.get(d)!);
    const count = (s: Status) => packages.filter((p) => p.status === s).length;
    const summary = { repository: repo, out: outDir, packages, built: count('built'), failed: count('failed'), blocked: count('blocked'), test_only: count('test_only') };
    if (args.json) io.stdout(jsonLine(summary));
    else {
      for (const p of packages) io.stdout(`${p.status.padEnd(9)} ${p.dir}${p.address ? ` at ${p.address}` : ''}${p.error ? `: ${p.error}` : ''}\n`);
      io.stdout(`${summary.built} built, ${summary.failed} failed, ${summary.blocked} blocked, ${summary.test_only} test-only, into ${outDir}\n`);
    }
    if (args.summary) writeOutput(io, args.summary, JSON.stringify(summary, null, 2) + '\n');
    return summary.failed + summary.blocked > 0 ? 1 : 0;
  },
});
