/**
 * The error taxonomy (the original's v0.4/v0.5 `errors.rs`, defined there but never
 * emitted): stages A1–A5/B1–B2, E-codes by phase, whether a failure is an expected
 * limitation of the sandbox, and the categories of aborts.
 */

/** The stages of a row (the spec's meanings). */
export type Stage = 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'B1' | 'B2';

/** The E-codes. */
export type ErrorCode = 'E101' | 'E102' | 'E103' | 'E201' | 'E202' | 'E203' | 'E204' | 'E205' | 'E301' | 'E302' | 'E303' | 'E304' | 'E401' | 'E402' | 'E403' | 'E404' | 'E501' | 'E502';

/** Phases of the taxonomy. */
export type Phase = 'Resolution' | 'TypeCheck' | 'Synthesis' | 'Execution' | 'Validation';

/**
 * Why a row failed, as a diagnosis: a package the target needs is not loaded
 * (`missing_dependency`), the harness could not build or pass what the target needs
 * although a real way exists, or a forged input made it fail (`harness_limitation`), the
 * target itself stopped a real transaction on real inputs, or cannot be called by one
 * (`target_package_limitation`), or something SMI does not support (`unsupported`).
 */
export type ErrorSource = 'missing_dependency' | 'harness_limitation' | 'target_package_limitation' | 'unsupported';
/** Categories of a Move abort or execution error. */
export type AbortCategory = 'unsupported_native' | 'assertion_failed' | 'object_error' | 'arithmetic_error' | 'vector_bounds_error' | 'type_error' | 'out_of_gas' | 'unknown';

/** Every abort category, in the order tables list them. */
export const ABORT_CATEGORIES: readonly AbortCategory[] = ['assertion_failed', 'object_error', 'arithmetic_error', 'vector_bounds_error', 'type_error', 'out_of_gas', 'unsupported_native', 'unknown'];

/** What each code means. */
export const ERROR_CODES: Readonly<Record<ErrorCode, { phase: Phase; description: string }>> = {
  E101: { phase: 'Resolution', description: 'module not found (or it does not link: a package it needs is not loaded)' },
  E102: { phase: 'Resolution', description: 'function not found' },
  E103: { phase: 'Resolution', description: 'function not callable (neither public nor entry)' },
  E201: { phase: 'TypeCheck', description: 'type mismatch (an argument kind a transaction cannot pass)' },
  E202: { phase: 'TypeCheck', description: 'ability violation' },
  E203: { phase: 'TypeCheck', description: 'generic bounds not satisfied' },
  E204: { phase: 'TypeCheck', description: 'recursive type' },
  E205: { phase: 'TypeCheck', description: 'unknown type (its module is not loaded)' },
  E301: { phase: 'Synthesis', description: 'no constructor or object for a parameter type' },
  E302: { phase: 'Synthesis', description: 'constructor chain too deep' },
  E303: { phase: 'Synthesis', description: 'unsupported constructor parameter' },
  E304: { phase: 'Synthesis', description: 'BCS round trip failed' },
  E401: { phase: 'Execution', description: 'transaction setup failed (linking, inputs, a setup transaction)' },
  E402: { phase: 'Execution', description: 'a constructor in the chain aborted' },
  E403: { phase: 'Execution', description: 'the target aborted or failed' },
  E404: { phase: 'Execution', description: 'unsupported native' },
  E501: { phase: 'Validation', description: 'no target modules accessed' },
  E502: { phase: 'Validation', description: 'return type mismatch' },
};

/** The code a stage stands for when nothing more precise is known. */
export const STAGE_CODES: Readonly<Record<Stage, ErrorCode>> = {
  A1: 'E102',
  A2: 'E205',
  A3: 'E301',
  A4: 'E201',
  A5: 'E203',
  B1: 'E402',
  B2: 'E403',
};

/** What a row's failure is known by besides its code. */
export interface FailureContext {
  reason: string;
  /** How the inputs of the Tier B attempt reported were obtained. */
  provenance?: 'chain' | 'init_state' | 'synthesized';
  /** The category of the abort, for a Tier B failure. */
  category?: AbortCategory;
}

/** Who is at fault for a failure (see {@link ErrorSource}). */
export function errorSource(code: ErrorCode, context: FailureContext): ErrorSource {
  switch (code) {
    case 'E101':
      return /does not link|is not loaded|package failed to load/.test(context.reason) ? 'missing_dependency' : 'unsupported';
    case 'E205':
      return 'missing_dependency';
    case 'E102':
    case 'E103':
    case 'E201':
    case 'E301':
      // The target cannot be called by a transaction as declared, or a type it takes has no
      // public constructor and no object of the state: nothing outside the package can make one.
      return 'target_package_limitation';
    case 'E202':
    case 'E203':
    case 'E302':
    case 'E303':
    case 'E401':
    case 'E402':
      return 'harness_limitation';
    case 'E204':
    case 'E304':
    case 'E404':
    case 'E501':
    case 'E502':
      return 'unsupported';
    case 'E403':
      if (context.category === 'unsupported_native' || context.category === 'out_of_gas') return 'unsupported';
      if (/^time limit exceeded|^internal error/.test(context.reason)) return 'unsupported';
      // An abort on a forged input says nothing about the target.
      return context.provenance === 'synthesized' ? 'harness_limitation' : 'target_package_limitation';
  }
}

/** `true` when the failure is a limitation of SMI or of what is loaded, not of the target (it agrees with {@link errorSource}). */
export function isExpectedLimitation(code: ErrorCode, context: FailureContext): boolean {
  return errorSource(code, context) !== 'target_package_limitation';
}

/** A failure at a stage. */
export interface StageFailure {
  stage: Stage;
  code: ErrorCode;
  reason: string;
}

const OBJECT_MODULES = new Set(['dynamic_field', 'dynamic_object_field', 'object', 'transfer', 'table', 'bag', 'object_table', 'object_bag', 'linked_table']);

/**
 * The category of a failed transaction, from the sandbox's answer: `error` (`Kind: ...` or
 * `Contract abort in m::f with code N (0x..::m, ...)`) and `error_category`.
 */
export function abortCategory(error: string, errorCategory: string | undefined): AbortCategory {
  if (/UNSUPPORTED_NATIVE|unsupported native|NOT_SUPPORTED/i.test(error)) return 'unsupported_native';
  if (errorCategory === 'ContractAbort') {
    const m = /\((0x[0-9a-f]+)::([A-Za-z0-9_]+), instruction/.exec(error);
    if (m && /^0x0+2$/.test(m[1]) && OBJECT_MODULES.has(m[2])) return 'object_error';
    // `std::vector` aborts only with EINDEX_OUT_OF_BOUNDS (remove, insert, swap_remove...).
    if (m && /^0x0+1$/.test(m[1]) && m[2] === 'vector') return 'vector_bounds_error';
    return 'assertion_failed';
  }
  const kind = /^([A-Za-z]+)/.exec(error)?.[1] ?? '';
  if (/ArithmeticError|Overflow|DivisionByZero|ARITHMETIC_ERROR/.test(error) || (kind === 'MovePrimitiveRuntimeError' && /ARITHMETIC/.test(error))) return 'arithmetic_error';
  if (/VECTOR_OPERATION_ERROR|IndexOutOfBounds|INDEX_OUT_OF_BOUNDS/.test(error)) return 'vector_bounds_error';
  if (/InsufficientGas|OUT_OF_GAS|out of gas/i.test(error)) return 'out_of_gas';
  if (errorCategory === 'MissingObject' || errorCategory === 'SharedObjectLockConflict' || /Object|Shared|Receiving|Transfer|Ownership/.test(kind)) return 'object_error';
  if (errorCategory === 'TypeMismatch' || errorCategory === 'DeserializationFailed' || /CommandArgumentError|TypeArgumentError|TypeMismatch|InvalidBCS|UnusedValue|Verification/.test(error))
    return 'type_error';
  return 'unknown';
}
