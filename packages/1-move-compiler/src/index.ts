/**
 * `@smi/move-compiler`: compile a Move package offline.
 *
 * The Sui Move compiler runs in WASM (`@zktx.io/sui-move-builder`). Every dependency,
 * the framework included, is served as a stub package generated from its bytecode
 * (declarations and `abort 0` bodies), so nothing is fetched from the network. The
 * compiled modules link against the real bytecode at run time.
 */
export { MoveCompileError, isMoveCompileError } from './errors.js';
export type { MoveCompileErrorCode, MoveCompileErrorDetails } from './errors.js';
export type { BytecodeDependency, SourceDependency } from './dependencies.js';
export { relocateModule } from './relocate.js';
export { manifestPackage, buildDependencies, declaredDependencies, publishedPackage } from './manifest.js';
export type { DeclaredDependency, DependencySource, ManifestPackage, PublishedPackage } from './manifest.js';
export { pathRoots } from './source-scan.js';
export { addressSeed, findMovePackageDirs, normalizeRemote, packageAddress, readMovePackageDir, repositoryOf, repositoryPackages, resolveMoveGraph } from './workspace.js';
export type { GraphPackage, MovePackageDir, ResolvedDependency, ResolveOptions } from './workspace.js';
export { compileGraphPackage } from './compile-graph.js';
export type { GraphCompileContext } from './compile-graph.js';
export { initMoveCompiler, moveCompilerVersion } from './builder.js';
export { compileMovePackage, firstCompilerError } from './compile.js';
export type { CompiledMoveModule, MoveCompileInput, MoveCompileOutput } from './compile.js';
