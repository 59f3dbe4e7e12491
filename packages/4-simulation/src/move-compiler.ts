/**
 * The offline Move compiler is a package of its own, `@smi/move-compiler` (the Sui Move
 * compiler in WebAssembly, about 35 MB): an optional peer dependency of this package, loaded
 * on first use. Only {@link compileAndPublish} (and the sandbox's `compile_and_publish`)
 * needs it; without it they fail with `COMPILER_NOT_INSTALLED`.
 */
import { SimulationEnvironmentError } from './errors.js';

/** The package that compiles Move source (install it beside this one to compile). */
export const MOVE_COMPILER_PACKAGE = '@smi/move-compiler';

/** Node's error for a package that is not installed: `Cannot find package '<name>' imported from …`. */
function isMissingPackage(e: unknown, name: string): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && e.message.includes(`'${name}'`);
}

/**
 * The `catch` of a dynamic `import('@smi/move-compiler')`: a missing package becomes a
 * {@link SimulationEnvironmentError} `COMPILER_NOT_INSTALLED` saying what to install; any other error is
 * thrown as it is. For every package that treats the compiler as an optional peer:
 *
 * ```ts
 * const { compileMovePackage } = await import('@smi/move-compiler').catch(moveCompilerImportFailed);
 * ```
 */
export function moveCompilerImportFailed(error: unknown): never {
  if (isMissingPackage(error, MOVE_COMPILER_PACKAGE)) {
    throw new SimulationEnvironmentError('COMPILER_NOT_INSTALLED', `compiling Move needs the compiler: install ${MOVE_COMPILER_PACKAGE} (npm install ${MOVE_COMPILER_PACKAGE})`, {
      package: MOVE_COMPILER_PACKAGE,
    });
  }
  throw error;
}
