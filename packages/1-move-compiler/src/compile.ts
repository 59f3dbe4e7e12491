/**
 * Compile one Move package offline: {@link compileMovePackage} (the WASM builder over stub
 * dependencies) and {@link firstCompilerError}.
 */
import { deserializeModule, moduleName } from '@smi/bytecode';
import { dumpPackage } from './builder.js';
import type { BytecodeDependency, SourceDependency } from './dependencies.js';
import { planDependencies } from './graph.js';
import { relocateModule } from './relocate.js';
import { MoveCompileError, type MoveCompileErrorCode } from './errors.js';
import { withUnitTest } from './test-mode.js';

/** Input of {@link compileMovePackage}. */
export interface MoveCompileInput {
  /** The package's files: `Move.toml` and `sources/*.move` (other files are ignored by the compiler). */
  files: Record<string, string>;
  /**
   * Every package the sources may use, as bytecode: the framework (0x1 and 0x2 at least)
   * and any other package, including transitive dependencies. A dependency the
   * manifest does not declare is added to it when the sources name it
   * (`<addressName>::` or `0x<address>::`, e.g. `sui_system::`).
   */
  dependencies: readonly BytecodeDependency[];
  /**
   * Packages given as Move sources: compiled from their sources (so their macros, aliases and
   * index functions work), each at its address. Their own dependencies come from here and
   * from `dependencies`.
   */
  sourceDependencies?: readonly SourceDependency[];
  /** The root's declared dependencies → the package each is (see {@link SourceDependency.bindings}). */
  bindings?: Readonly<Record<string, string>>;
  /**
   * Compile the root's own named address as 0x0 even when its manifest declares another value
   * (a legacy `integer_mate = "0x714a…"`), so the output can be published or placed with
   * `address`. Default `false`: declared values are kept, as `sui move build` keeps them.
   */
  zeroRoot?: boolean;
  /** Place the output at this address instead of 0x0 (the modules' self address is rewritten); implies `zeroRoot`. */
  address?: string;
  /** Do not collect compiler warnings. */
  silenceWarnings?: boolean;
  /**
   * Compile in test mode, as `sui move test` does: `#[test_only]` and `#[test]` items are kept
   * and every module gets upstream's `unit_test_poison` function (`std::unit_test` is declared
   * for it when the stdlib given lacks it, as published ones do). Limitation: the WASM builder
   * also compiles the dependencies in test mode and verifies them, and Sui's verifier refuses
   * `0x2::transfer` with a `unit_test_poison` in it; a test build works against the stdlib
   * (and packages that do not depend on 0x2).
   */
  testMode?: boolean;
}

/** A compiled module of the root package. */
export interface CompiledMoveModule {
  name: string;
  /** The module's bytecode; its self address is 0x0, ready for a publish (or `address` when given). */
  bytes: Uint8Array;
}

/** Output of {@link compileMovePackage}. */
export interface MoveCompileOutput {
  /** The root package's modules only, in the compiler's (dependency) order. */
  modules: CompiledMoveModule[];
  /** Ids of the packages the root package depends on, as the builder lists them for a publish. */
  dependencies: string[];
  /** Compiler warnings, when there are any and they are not silenced. */
  warnings?: string;
}

function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function errorCodeOf(category: string | undefined): MoveCompileErrorCode {
  switch (category) {
    case 'compile':
      return 'COMPILATION_ERROR';
    case 'dependency_resolution':
      return 'DEPENDENCY_ERROR';
    case 'input_validation':
      return 'INVALID_INPUT';
    default:
      return 'BUILDER_ERROR';
  }
}

/**
 * The first error of the compiler's output, with its location (`error[E03006]: unexpected name
 * in this position (sources/m.move:4:42)`, `error[Sui E02009]: ...`); warnings before it are skipped. The first non-empty
 * line when there is no error line.
 */
export function firstCompilerError(text: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^\s*error(\[[^\]\n]+\])?:/.test(l));
  if (at < 0) return lines.find((l) => l.trim() !== '')?.trim() ?? text;
  const location = lines
    .slice(at + 1, at + 4)
    .map((l) => /[┌>]─*\s*(\S+:\d+:\d+)/.exec(l)?.[1])
    .find((l) => l !== undefined);
  return location ? `${lines[at].trim()} (${location})` : lines[at].trim();
}

/**
 * Compile a Move package offline. Dependencies are served from stubs generated from
 * the given bytecode; the WASM compiler is loaded on the first call (see
 * {@link initMoveCompiler}).
 *
 * @throws {MoveCompileError} `COMPILATION_ERROR` with the compiler's diagnostics when the
 * sources do not compile; `DEPENDENCY_ERROR` when a dependency is missing or the graph
 * is inconsistent; `INVALID_INPUT` or `BUILDER_ERROR` otherwise.
 */
export async function compileMovePackage(input: MoveCompileInput): Promise<MoveCompileOutput> {
  const manifest = input.files['Move.toml'];
  if (typeof manifest !== 'string') throw new MoveCompileError('INVALID_INPUT', 'the package has no Move.toml');
  const sources = Object.entries(input.files)
    .filter(([path]) => path.endsWith('.move'))
    .map(([, text]) => text);
  if (sources.length === 0) throw new MoveCompileError('INVALID_INPUT', 'the package has no .move sources');

  const plan = planDependencies(
    { manifest, sources, bindings: input.bindings, zeroRoot: input.zeroRoot === true || input.address !== undefined },
    input.testMode === true ? withUnitTest(input.dependencies) : input.dependencies,
    input.sourceDependencies ?? [],
  );
  const result = await dumpPackage({ ...input.files, 'Move.toml': plan.manifest }, plan.fetcher, {
    silenceWarnings: input.silenceWarnings,
    testMode: input.testMode,
  });
  if ('error' in result) {
    const code = errorCodeOf(result.category);
    const what = code === 'COMPILATION_ERROR' ? 'Move compilation failed' : `Move build failed (${result.category ?? 'unknown'})`;
    throw new MoveCompileError(code, `${what}: ${firstCompilerError(result.error)}`, {
      diagnostics: result.error,
      category: result.category,
      builderCode: result.code,
    });
  }

  const modules = result.modules.map((b64) => {
    const bytes = base64ToBytes(b64);
    let name: string;
    try {
      name = moduleName(deserializeModule(bytes));
    } catch (cause) {
      throw new MoveCompileError('BUILDER_ERROR', `the compiler produced a module that does not deserialize: ${String(cause)}`, {
        cause,
      });
    }
    return { name, bytes: input.address === undefined ? bytes : relocateModule(bytes, input.address) };
  });
  return { modules, dependencies: result.dependencies, ...(result.warnings ? { warnings: result.warnings } : {}) };
}
