/**
 * `smi build`: compile a Move source package offline. Every dependency, the framework
 * included, is served from Move stubs generated out of bytecode we hold, so the result
 * links against the real framework bytecode at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadPackageDir } from '@smi/bytecode';
import { defaultFrameworkDir, loadFramework } from '../framework.js';
import { defineCommand } from '../command.js';
import { jsonLine, resolveInputPath, resolvePath, UsageError, writeBinary } from '../io.js';

/** Move.toml and every `.move` file under `sources/` (and `tests/` is skipped) of a package directory. */
export function readMovePackage(dir: string): Record<string, string> {
  if (!existsSync(path.join(dir, 'Move.toml'))) throw new UsageError(`${dir}: no Move.toml (not a Move package)`, 'NOT_A_MOVE_PACKAGE');
  const files: Record<string, string> = { 'Move.toml': readFileSync(path.join(dir, 'Move.toml'), 'utf8') };
  const walk = (rel: string): void => {
    const abs = path.join(dir, rel);
    for (const e of readdirSync(abs).sort()) {
      const r = path.posix.join(rel, e);
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else if (e.endsWith('.move')) files[r] = readFileSync(path.join(dir, r), 'utf8');
    }
  };
  if (existsSync(path.join(dir, 'sources'))) walk('sources');
  if (Object.keys(files).length === 1) throw new UsageError(`${dir}: no sources/*.move files`, 'NOT_A_MOVE_PACKAGE');
  return files;
}

/** `smi build`. */
export const buildCommand = defineCommand<{ 'package-dir': string; out: string; framework?: string; dep: string[] }>({
  command: 'build <package-dir>',
  describe: 'Compile a Move package offline against stubs of bytecode packages (framework included)',
  positionals: { 'package-dir': { type: 'string', demandOption: true, describe: 'Move package directory (Move.toml, sources/)' } },
  options: {
    out: { type: 'string', demandOption: true, describe: 'Directory for bytecode_modules/<name>.mv' },
    framework: { type: 'string', describe: 'Directory of framework bundles (default $SMI_FIXTURES/fixtures/framework)' },
    dep: {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Extra bytecode package directory to depend on, as NAME=DIR (repeatable)',
    },
  },
  examples: [{ command: '$0 build apps/cli/examples/counter --out build/counter', describe: 'the example package of this repository' }],
  epilog: 'With --json: {"out","modules":[{"name","size"}],"dependencies"} on one line. Compiler warnings go to stderr (none with --quiet).',
  run: async (args, io) => {
    const files = readMovePackage(resolvePath(io, args['package-dir']));
    const framework = loadFramework(args.framework ? resolvePath(io, args.framework) : defaultFrameworkDir(io));
    const extra = args.dep.map((spec) => {
      const eq = spec.indexOf('=');
      if (eq <= 0) throw new UsageError(`--dep ${spec}: expected NAME=DIR`);
      return { name: spec.slice(0, eq), pkg: loadPackageDir(resolveInputPath(io, spec.slice(eq + 1))) };
    });
    const { compileMovePackage, MoveCompileError } = await import('@smi/bytecode/build');
    let result;
    try {
      result = await compileMovePackage({
        files,
        dependencies: [...framework, ...extra].map(({ name, pkg }) => ({
          name,
          address: pkg.originalId,
          ...(pkg.id !== pkg.originalId ? { publishedAt: pkg.id } : {}),
          modules: pkg.modules.map((m) => m.module),
        })),
      });
    } catch (e) {
      if (e instanceof MoveCompileError) throw new UsageError(`compilation failed: ${e.message}`, e.code, { diagnostics: e.diagnostics });
      throw e;
    }
    const outDir = resolvePath(io, args.out);
    for (const m of result.modules) writeBinary(io, path.join(outDir, 'bytecode_modules', `${m.name}.mv`), m.bytes);
    const modules = result.modules.map((m) => ({ name: m.name, size: m.bytes.length }));
    if (result.warnings && !args.quiet) io.stderr(result.warnings.endsWith('\n') ? result.warnings : result.warnings + '\n');
    if (args.json) io.stdout(jsonLine({ out: outDir, modules, dependencies: result.dependencies }));
    else io.stdout(`compiled ${modules.length} modules (${modules.map((m) => m.name).join(', ')}) into ${outDir}\n`);
    return 0;
  },
});
