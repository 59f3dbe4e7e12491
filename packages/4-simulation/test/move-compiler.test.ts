/** The compiler is an optional peer: a missing `@smi/move-compiler` is a `COMPILER_NOT_INSTALLED` that says what to install. */
import { expect, it } from 'vitest';
import { moveCompilerImportFailed, SimulationEnvironmentError } from '@smi/simulation';

function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/@smi/simulation/dist/index.js`), { code: 'ERR_MODULE_NOT_FOUND' });
}

it('a missing @smi/move-compiler is COMPILER_NOT_INSTALLED, naming the package to install', async () => {
  const failed = Promise.reject(notFound('@smi/move-compiler')).catch(moveCompilerImportFailed);
  await expect(failed).rejects.toBeInstanceOf(SimulationEnvironmentError);
  await expect(failed).rejects.toMatchObject({ code: 'COMPILER_NOT_INSTALLED', message: expect.stringContaining('install @smi/move-compiler') });
});

it('any other failure (a dependency of the compiler missing, a real error) is thrown as it is', async () => {
  const other = notFound('@zktx.io/sui-move-builder');
  await expect(Promise.reject(other).catch(moveCompilerImportFailed)).rejects.toBe(other);
  const bug = new TypeError('boom');
  await expect(Promise.reject(bug).catch(moveCompilerImportFailed)).rejects.toBe(bug);
});

it('loads the compiler when it is installed', async () => {
  const { compileMovePackage } = await import('@smi/move-compiler').catch(moveCompilerImportFailed);
  expect(typeof compileMovePackage).toBe('function');
});
