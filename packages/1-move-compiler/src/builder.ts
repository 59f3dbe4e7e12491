/**
 * Lazy, shared access to `@zktx.io/sui-move-builder` (the Sui Move compiler in WASM).
 *
 * The module is imported and its WASM instantiated on first use only, once per
 * process; a failed load is forgotten so that the next call retries. The builder
 * reads its bundled `.wasm` from disk through a `file:` URL, so loading it does not
 * touch the network.
 */
import type { StubFetcher } from './dependencies.js';
import { MoveCompileError } from './errors.js';

type BuilderModule = typeof import('@zktx.io/sui-move-builder');

let loading: Promise<BuilderModule> | undefined;

/** Load and initialize the WASM builder module once (retried after a failure). */
function loadMoveBuilder(): Promise<BuilderModule> {
  if (!loading) {
    const attempt = (async () => {
      const mod = await import('@zktx.io/sui-move-builder');
      await mod.initMovePackageBuilder();
      return mod;
    })();
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
  }
  return loading;
}

/** What a successful dump returns, narrowed from the builder's untyped result. */
export interface DumpSuccess {
  modules: string[];
  dependencies: string[];
  warnings?: string;
}

/** A failure as the builder reports it. */
export interface DumpFailure {
  error: string;
  category?: string;
  code?: string;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Narrow the builder's result to a success or a failure; anything else is a `BUILDER_ERROR`. */
function narrowDumpResult(result: unknown): DumpSuccess | DumpFailure {
  if (typeof result !== 'object' || result === null) {
    throw new MoveCompileError('BUILDER_ERROR', 'the Move builder returned no result');
  }
  const r = result as Record<string, unknown>;
  if (typeof r.error === 'string') {
    return {
      error: r.error,
      category: typeof r.category === 'string' ? r.category : undefined,
      code: typeof r.code === 'string' ? r.code : undefined,
    };
  }
  if (isStringArray(r.modules) && isStringArray(r.dependencies)) {
    return {
      modules: r.modules,
      dependencies: r.dependencies,
      warnings: typeof r.warnings === 'string' && r.warnings !== '' ? r.warnings : undefined,
    };
  }
  throw new MoveCompileError('BUILDER_ERROR', 'the Move builder returned an unexpected result shape');
}

/**
 * Compile a package in `dump` mode (root package at 0x0) with dependencies served by `fetcher`;
 * `testMode`: as `sui move test` builds it (`#[test_only]` and `#[test]` items kept).
 */
export async function dumpPackage(files: Record<string, string>, fetcher: StubFetcher, options: { silenceWarnings?: boolean; testMode?: boolean }): Promise<DumpSuccess | DumpFailure> {
  let builder: BuilderModule;
  try {
    builder = await loadMoveBuilder();
  } catch (cause) {
    throw new MoveCompileError('BUILDER_ERROR', `cannot load the Move compiler: ${String(cause)}`, { cause });
  }
  const result: unknown = await builder.dumpMovePackage({
    files,
    fetcher,
    network: 'mainnet',
    ansiColor: false,
    silenceWarnings: options.silenceWarnings ?? false,
    ...(options.testMode === true ? { modes: ['test'] } : {}),
  });
  return narrowDumpResult(result);
}

/**
 * Load and initialize the WASM compiler now rather than on the first compile
 * (idempotent; about 0.1 s). Rejects with a `BUILDER_ERROR` when it cannot be loaded.
 */
export async function initMoveCompiler(): Promise<void> {
  try {
    await loadMoveBuilder();
  } catch (cause) {
    throw new MoveCompileError('BUILDER_ERROR', `cannot load the Move compiler: ${String(cause)}`, { cause });
  }
}

/** Version of Sui the WASM compiler was built from (e.g. `1.71.1`). */
export async function moveCompilerVersion(): Promise<string> {
  return (await loadMoveBuilder()).getPinnedSuiVersion();
}
