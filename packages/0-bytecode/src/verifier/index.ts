/**
 * The Move bytecode verifier, following upstream Sui's `move-bytecode-verifier`: the same
 * passes in the same order, so that the first error reported is upstream's, with the same
 * status code, indices and code offset.
 *
 * Order: bounds, limits, duplication, signatures, instruction consistency, constants, friends,
 * field abilities, recursive datatypes, instantiation loops, then per function control flow,
 * stack usage, type safety, locals safety, jump-table usage and reference safety; finally, when
 * dependencies are given, the linking checks.
 */
import { BytecodeError } from '../errors.js';
import type { CompiledModule } from '../file-format.js';
import { checkBounds } from '../check-bounds.js';
import { PartialError, VerificationError, type VerificationIndex, type VerificationLocation, type VerificationOffset, type VerifierIndexKind, type VerifierStatusCode } from './errors.js';
import { SUI_MAINNET_VERIFIER_LIMITS, verifyLimits, type VerifierLimits } from './limits.js';
import { verifyDuplication } from './duplication.js';
import { verifySignatures } from './signature.js';
import { verifyAbilityFieldRequirements, verifyInstructionConsistency, verifyRecursiveDataDefs } from './module-checks.js';
import { verifyConstants, verifyFriends } from './constants.js';
import { verifyInstantiationLoops } from './instantiation-loops.js';
import { verifyCodeUnits } from './code-unit.js';
import { dependencyMap, missingDependency, verifyDependencies } from './dependencies.js';
import { errorMessage } from '../util/error.js';

export {
  VerificationError,
  isVerificationError,
  formatVerificationError,
  formatLocation,
} from './errors.js';
export type {
  VerifierStatusCode,
  VerifierIndexKind,
  VerificationIndex,
  VerificationOffset,
  VerificationLocation,
  VerificationErrorDetails,
} from './errors.js';
export { SUI_MAINNET_VERIFIER_LIMITS, MOVE_DEFAULT_VERIFIER_LIMITS } from './limits.js';
export { tokenKey as signatureTokenKey } from './duplication.js';
export { instructionEffect } from './stack-usage.js';
export type { VerifierLimits } from './limits.js';

/** Options of {@link verifyModule}. */
export interface VerifyOptions {
  /**
   * Modules this one may link against (other modules of its package, the framework, ...).
   * When given, imports are checked against them (missing modules, datatypes, functions,
   * visibility, signatures); when absent, the linking checks are skipped.
   */
  dependencies?: readonly CompiledModule[];
  /**
   * Check imports only against the modules given and skip those from absent modules (for
   * packages whose dependencies are not all at hand). Default `false`: an absent module is
   * `MISSING_DEPENDENCY`.
   */
  ignoreMissingDependencies?: boolean;
  /** Overrides of the limits; defaults are {@link SUI_MAINNET_VERIFIER_LIMITS}. */
  limits?: Partial<VerifierLimits>;
}

const INDEX_KIND_TEXT: Readonly<Record<string, string>> = {
  ModuleHandle: 'module handle',
  DatatypeHandle: 'datatype handle',
  FunctionHandle: 'function handle',
  FieldHandle: 'field handle',
  FriendDeclaration: 'friend declaration',
  StructDefInstantiation: 'struct instantiation',
  FunctionInstantiation: 'function instantiation',
  FieldInstantiation: 'field instantiation',
  StructDefinition: 'struct definition',
  FunctionDefinition: 'function definition',
  FieldDefinition: 'field definition',
  Signature: 'signature',
  Identifier: 'identifier',
  AddressIdentifier: 'address identifier',
  ConstantPool: 'constant pool',
  LocalPool: 'local pool',
  CodeDefinition: 'code definition pool',
  TypeParameter: 'type parameter',
  MemberCount: 'field offset',
  EnumDefinition: 'enum definition',
  EnumDefInstantiation: 'enum instantiation',
  VariantHandle: 'variant handle',
  VariantInstantiationHandle: 'variant instantiation handle',
  VariantJumpTable: 'jump table',
  VariantTag: 'variant tag',
};

const WITHOUT_MESSAGE = new Set(['TOO_MANY_LOCALS', 'NO_MODULE_HANDLES']);

/**
 * A {@link BytecodeError} of the deserializer or bounds checker in upstream's `VMError` shape,
 * as Sui reports it when publishing: located at the package `address` (undefined when not
 * given), the same indices, code offset and message.
 */
export function verificationErrorFromBytecodeError(e: BytecodeError, address?: string): VerificationError {
  const location: VerificationLocation = address === undefined ? { $kind: 'Undefined' } : { $kind: 'Package', address };
  const code: VerifierStatusCode = e.code;
  const indices: VerificationIndex[] = [];
  const offsets: VerificationOffset[] = [];
  let detail: string | undefined;
  if (e.code === 'INDEX_OUT_OF_BOUNDS' && e.index !== undefined) {
    const len = /table length (\d+)/.exec(e.message)?.[1] ?? '?';
    const kind = INDEX_KIND_TEXT[e.indexKind ?? ''] ?? e.indexKind ?? '';
    if (e.location) {
      offsets.push([e.location.functionDefinition, e.location.codeOffset]);
      detail = `Index ${e.index} out of bounds for ${len} at bytecode offset ${e.location.codeOffset} in function ${e.location.functionDefinition} while indexing ${kind}`;
    } else {
      indices.push([(e.indexKind ?? 'ModuleHandle') as VerifierIndexKind, e.index]);
      detail = `Index ${e.index} out of bounds for ${len} while indexing ${kind}`;
    }
  } else {
    if (e.indexKind !== undefined && e.index !== undefined) indices.push([e.indexKind as VerifierIndexKind, e.index]);
    if (e.location) offsets.push([e.location.functionDefinition, e.location.codeOffset]);
    if (!WITHOUT_MESSAGE.has(e.code)) {
      let text = e.message.startsWith(`${e.code}: `) ? e.message.slice(e.code.length + 2) : e.message === e.code ? '' : e.message;
      text = text.replace(/ \((?:at byte \d+)?(?:, )?(?:in function #\d+ at code offset \d+)?\)$/, '');
      detail = text === '' ? undefined : text;
    }
  }
  return new VerificationError(code, { indices, offsets, location, detail });
}

/** Run `pass`, turning its errors into {@link VerificationError}s at `location`. */
function run(location: VerificationLocation, pass: () => void): void {
  try {
    pass();
  } catch (e) {
    if (e instanceof PartialError) throw e.finish(location);
    if (e instanceof VerificationError) throw e;
    throw new VerificationError('UNKNOWN_INVARIANT_VIOLATION_ERROR', { location, detail: errorMessage(e) });
  }
}

/** Location of a module's errors (`0x2::coin`). */
function moduleLocation(m: CompiledModule): Extract<VerificationLocation, { $kind: 'Module' }> {
  const self = m.moduleHandles[m.selfModuleHandleIndex];
  return { $kind: 'Module', address: m.addressIdentifiers[self.address], name: m.identifiers[self.name] };
}

/**
 * Verify a module as Sui does before publishing or loading it: the bounds checker first (its
 * errors located at the package, as a publication reports them), then upstream's passes in
 * upstream's order (errors located at the module), then, when `dependencies` are given, the
 * linking checks. Limits default to Sui mainnet's.
 *
 * @throws {VerificationError} with the upstream status code (`STLOC_TYPE_MISMATCH_ERROR`,
 *   `NEGATIVE_STACK_SIZE_WITHIN_BLOCK`, ...), indices and code offset of the first problem;
 *   nothing else is thrown.
 */
export function verifyModule(module: CompiledModule, options: VerifyOptions = {}): void {
  const limits: VerifierLimits = { ...SUI_MAINNET_VERIFIER_LIMITS, ...options.limits };
  try {
    checkBounds(module, true);
  } catch (e) {
    if (e instanceof BytecodeError) {
      const self = module.moduleHandles[module.selfModuleHandleIndex];
      throw verificationErrorFromBytecodeError(e, self === undefined ? undefined : module.addressIdentifiers[self.address]);
    }
    throw new VerificationError('UNKNOWN_INVARIANT_VIOLATION_ERROR', { detail: errorMessage(e) });
  }
  const location = moduleLocation(module);
  run(location, () => verifyLimits(module, limits));
  run(location, () => verifyDuplication(module));
  run(location, () => verifySignatures(module));
  run(location, () => verifyInstructionConsistency(module));
  run(location, () => verifyConstants(module));
  run(location, () => verifyFriends(module));
  run(location, () => verifyAbilityFieldRequirements(module));
  run(location, () => verifyRecursiveDataDefs(module));
  run(location, () => verifyInstantiationLoops(module));
  run(location, () => verifyCodeUnits(module, limits));
  if (options.dependencies === undefined) return;
  const deps = dependencyMap(module, options.dependencies);
  const ignoreMissing = options.ignoreMissingDependencies ?? false;
  const missing = ignoreMissing ? null : missingDependency(module, deps);
  if (missing !== null) {
    // Upstream's linkage step: a known package lacking the module is located at the package,
    // an unknown address nowhere.
    const known = missing === location.address || [...deps.values()].some((d) => moduleLocation(d).address === missing);
    throw new VerificationError('MISSING_DEPENDENCY', { location: known ? { $kind: 'Package', address: missing } : { $kind: 'Undefined' } });
  }
  run(location, () => verifyDependencies(module, deps, ignoreMissing));
}

/**
 * Verify every module of a package; each may link against its siblings and `dependencies`.
 * @throws {VerificationError} for the first module that fails, in the given order.
 */
export function verifyPackage(modules: readonly CompiledModule[], options: VerifyOptions = {}): void {
  const dependencies = [...modules, ...(options.dependencies ?? [])];
  for (const m of modules) verifyModule(m, { ...options, dependencies });
}

/** The control-flow graph and fixed-point abstract interpretation the passes use (for other verifiers, such as Sui's). */
export { ControlFlowGraph, analyzeFunction } from './cfg.js';
/** Abilities of a signature token under the type parameters' constraints (upstream `CompiledModule::abilities`). */
export { abilitiesOf } from './types.js';
export type { AbstractDomain } from './cfg.js';
