/**
 * Verifier configuration (upstream `VerifierConfig`) and the limits pass (`limits.rs`):
 * type parameters, parameters, type nodes, identifiers, definitions, constant vectors and the
 * generic-instantiation budgets.
 */
import type { Bytecode, CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError } from './errors.js';
import { decodeConstant } from './constants.js';
import { preorder } from './types.js';

/**
 * Limits and switches of the verifier. `null` means "no limit". Defaults are Sui mainnet's
 * (protocol config): see {@link SUI_MAINNET_VERIFIER_LIMITS}; upstream's
 * `VerifierConfig::default()` (the Move test harness) is {@link MOVE_DEFAULT_VERIFIER_LIMITS}.
 */
export interface VerifierLimits {
  maxLoopDepth: number | null;
  maxFunctionParameters: number | null;
  /** Type parameters of a function or datatype handle. */
  maxGenericInstantiationLength: number | null;
  maxBasicBlocks: number | null;
  maxValueStackSize: number;
  /** Weighted nodes of one type (datatypes and type parameters weigh 4). */
  maxTypeNodes: number | null;
  /** Pushes within one basic block. */
  maxPushSize: number | null;
  /** Structs plus enums. */
  maxDataDefinitions: number | null;
  /** Fields of a struct, or of all variants of an enum together. */
  maxFieldsInStruct: number | null;
  maxFunctionDefinitions: number | null;
  maxConstantVectorLength: number | null;
  maxBackEdgesPerFunction: number | null;
  maxBackEdgesPerModule: number | null;
  maxIdentifierLength: number | null;
  maxVariantsInEnum: number | null;
  maxGenericInstantiationTypeNodesPerFunction: number | null;
  maxGenericInstantiationTypeNodesPerModule: number | null;
  /** Count function signatures and locals in the two budgets above. */
  includeFunctionSignaturesInInstantiationLimits: boolean;
  /** Refuse the identifier `<SELF>`. */
  disallowSelfIdentifier: boolean;
  /** Reject jump tables no `VariantSwitch` uses. */
  disallowJumpOrphans: boolean;
  /** Stricter local-borrow checks of reference safety. */
  additionalBorrowChecks: boolean;
}

/** Sui mainnet's verifier limits (protocol config 135, execution time: no signing limits). */
export const SUI_MAINNET_VERIFIER_LIMITS: Readonly<VerifierLimits> = Object.freeze({
  maxLoopDepth: 5,
  maxFunctionParameters: 128,
  maxGenericInstantiationLength: 32,
  maxBasicBlocks: 1024,
  maxValueStackSize: 1024,
  maxTypeNodes: 256,
  maxPushSize: 10000,
  maxDataDefinitions: 200,
  maxFieldsInStruct: 32,
  maxFunctionDefinitions: 1000,
  maxConstantVectorLength: 262144,
  maxBackEdgesPerFunction: 10000,
  maxBackEdgesPerModule: 10000,
  maxIdentifierLength: 128,
  maxVariantsInEnum: 127,
  maxGenericInstantiationTypeNodesPerFunction: 10000,
  maxGenericInstantiationTypeNodesPerModule: 500000,
  includeFunctionSignaturesInInstantiationLimits: true,
  disallowSelfIdentifier: true,
  disallowJumpOrphans: true,
  additionalBorrowChecks: true,
});

/** Upstream `VerifierConfig::default()`, as the Move transactional test harness runs it. */
export const MOVE_DEFAULT_VERIFIER_LIMITS: Readonly<VerifierLimits> = Object.freeze({
  maxLoopDepth: null,
  maxFunctionParameters: null,
  maxGenericInstantiationLength: null,
  maxBasicBlocks: null,
  maxValueStackSize: 1024,
  maxTypeNodes: null,
  maxPushSize: null,
  maxDataDefinitions: null,
  maxFieldsInStruct: null,
  maxFunctionDefinitions: null,
  maxConstantVectorLength: 1024 * 1024,
  maxBackEdgesPerFunction: null,
  maxBackEdgesPerModule: null,
  maxIdentifierLength: 128,
  maxVariantsInEnum: 127,
  maxGenericInstantiationTypeNodesPerFunction: 10000,
  maxGenericInstantiationTypeNodesPerModule: 500000,
  includeFunctionSignaturesInInstantiationLimits: true,
  disallowSelfIdentifier: false,
  disallowJumpOrphans: true,
  additionalBorrowChecks: true,
});

const STRUCT_SIZE_WEIGHT = 4;
const PARAM_SIZE_WEIGHT = 4;

function weightedTypeSize(t: SignatureToken): number {
  let size = 0;
  preorder(t, (n) => {
    size += n.$kind === 'Datatype' || n.$kind === 'DatatypeInstantiation' ? STRUCT_SIZE_WEIGHT : n.$kind === 'TypeParameter' ? PARAM_SIZE_WEIGHT : 1;
  });
  return size;
}

function over(limit: number | null, value: number): boolean {
  return limit !== null && value > limit;
}

function verifyConstants(m: CompiledModule, cfg: VerifierLimits): void {
  m.constantPool.forEach((c, idx) => {
    if (c.type.$kind !== 'Vector') return;
    const value = decodeConstant(c.type, c.data);
    if (value === null) throw new PartialError('MALFORMED_CONSTANT_DATA').atIndex('ConstantPool', idx);
    if (cfg.maxConstantVectorLength !== null && value > cfg.maxConstantVectorLength) {
      throw new PartialError('TOO_MANY_VECTOR_ELEMENTS', `vector size limit is ${cfg.maxConstantVectorLength}`);
    }
  });
}

function verifyFunctionHandles(m: CompiledModule, cfg: VerifierLimits): void {
  m.functionHandles.forEach((h, idx) => {
    if (over(cfg.maxGenericInstantiationLength, h.typeParameters.length)) {
      throw new PartialError('TOO_MANY_TYPE_PARAMETERS').atIndex('FunctionHandle', idx);
    }
    if (over(cfg.maxFunctionParameters, m.signatures[h.parameters].length)) {
      throw new PartialError('TOO_MANY_PARAMETERS').atIndex('FunctionHandle', idx);
    }
  });
}

function verifyDatatypeHandles(m: CompiledModule, cfg: VerifierLimits): void {
  m.datatypeHandles.forEach((h, idx) => {
    if (over(cfg.maxGenericInstantiationLength, h.typeParameters.length)) {
      throw new PartialError('TOO_MANY_TYPE_PARAMETERS').atIndex('DatatypeHandle', idx);
    }
  });
}

function verifyTypeNodes(m: CompiledModule, cfg: VerifierLimits): void {
  if (cfg.maxTypeNodes === null) return;
  const max = cfg.maxTypeNodes;
  const check = (t: SignatureToken): void => {
    if (weightedTypeSize(t) > max) throw new PartialError('TOO_MANY_TYPE_NODES');
  };
  for (const sig of m.signatures) sig.forEach(check);
  for (const c of m.constantPool) check(c.type);
  for (const s of m.structDefs) if (s.fieldInformation.$kind === 'Declared') for (const f of s.fieldInformation.fields) check(f.type);
  for (const e of m.enumDefs) for (const v of e.variants) for (const f of v.fields) check(f.type);
}

function verifyIdentifiers(m: CompiledModule, cfg: VerifierLimits): void {
  const encoder = new TextEncoder();
  m.identifiers.forEach((id, idx) => {
    if (cfg.maxIdentifierLength !== null && encoder.encode(id).length > cfg.maxIdentifierLength) {
      throw new PartialError('IDENTIFIER_TOO_LONG').atIndex('Identifier', idx);
    }
    if (cfg.disallowSelfIdentifier && id === '<SELF>') throw new PartialError('INVALID_IDENTIFIER').atIndex('Identifier', idx);
  });
}

function verifyDefinitions(m: CompiledModule, cfg: VerifierLimits): void {
  if (over(cfg.maxFunctionDefinitions, m.functionDefs.length)) throw new PartialError('MAX_FUNCTION_DEFINITIONS_REACHED');
  if (over(cfg.maxDataDefinitions, m.structDefs.length + m.enumDefs.length)) throw new PartialError('MAX_STRUCT_DEFINITIONS_REACHED');
  if (cfg.maxFieldsInStruct === null) return;
  for (const s of m.structDefs) {
    if (s.fieldInformation.$kind === 'Declared' && s.fieldInformation.fields.length > cfg.maxFieldsInStruct) {
      throw new PartialError('MAX_FIELD_DEFINITIONS_REACHED');
    }
  }
  for (const e of m.enumDefs) {
    if (over(cfg.maxVariantsInEnum, e.variants.length)) throw new PartialError('MAX_VARIANTS_REACHED');
    let fields = 0;
    for (const v of e.variants) {
      fields += v.fields.length;
      if (fields > cfg.maxFieldsInStruct) throw new PartialError('MAX_FIELD_DEFINITIONS_REACHED');
    }
  }
}

/** Signature index used by an instruction for the generic-instantiation budget, or -1. */
function instantiationSignature(m: CompiledModule, ins: Bytecode): number {
  switch (ins.$kind) {
    case 'CallGeneric':
      return m.functionInstantiations[ins.index].typeParameters;
    case 'PackGeneric':
    case 'UnpackGeneric':
    case 'ExistsGenericDeprecated':
    case 'MoveFromGenericDeprecated':
    case 'MoveToGenericDeprecated':
    case 'ImmBorrowGlobalGenericDeprecated':
    case 'MutBorrowGlobalGenericDeprecated':
      return m.structDefInstantiations[ins.index].typeParameters;
    case 'ImmBorrowFieldGeneric':
    case 'MutBorrowFieldGeneric':
      return m.fieldInstantiations[ins.index].typeParameters;
    case 'VecPack':
    case 'VecLen':
    case 'VecImmBorrow':
    case 'VecMutBorrow':
    case 'VecPushBack':
    case 'VecPopBack':
    case 'VecUnpack':
    case 'VecSwap':
      return ins.index;
    case 'PackVariantGeneric':
    case 'UnpackVariantGeneric':
    case 'UnpackVariantGenericImmRef':
    case 'UnpackVariantGenericMutRef':
      return m.enumDefInstantiations[m.variantInstantiationHandles[ins.index].enumDef].typeParameters;
    default:
      return -1;
  }
}

function verifyGenericInstantiations(m: CompiledModule, cfg: VerifierLimits): void {
  const maxFun = cfg.maxGenericInstantiationTypeNodesPerFunction;
  const maxMod = cfg.maxGenericInstantiationTypeNodesPerModule;
  if (maxFun === null && maxMod === null) return;
  const sizes = new Map<number, number>();
  const sigSize = (idx: number): number => {
    let s = sizes.get(idx);
    if (s === undefined) {
      s = 0;
      for (const t of m.signatures[idx]) s += weightedTypeSize(t);
      sizes.set(idx, s);
    }
    return s;
  };
  let moduleTotal = 0;
  const charge = (fnTotal: number, weight: number): number => {
    const total = fnTotal + weight;
    moduleTotal += weight;
    if (maxFun !== null && total > maxFun) {
      throw new PartialError('TOO_MANY_TYPE_NODES', `function exceeds generic-instantiation budget: ${total} > ${maxFun}`);
    }
    if (maxMod !== null && moduleTotal > maxMod) {
      throw new PartialError('TOO_MANY_TYPE_NODES', `module exceeds generic-instantiation budget: ${moduleTotal} > ${maxMod}`);
    }
    return total;
  };
  const functionTotals: number[] = m.functionHandles.map(() => 0);
  if (cfg.includeFunctionSignaturesInInstantiationLimits) {
    m.functionHandles.forEach((h, idx) => {
      functionTotals[idx] = charge(0, sigSize(h.return) + sigSize(h.parameters));
    });
  }
  for (const def of m.functionDefs) {
    if (def.code === null) continue;
    let fnTotal = functionTotals[def.function] ?? 0;
    if (cfg.includeFunctionSignaturesInInstantiationLimits) fnTotal = charge(fnTotal, sigSize(def.code.locals));
    for (const ins of def.code.code) {
      const sig = instantiationSignature(m, ins);
      if (sig >= 0) fnTotal = charge(fnTotal, sigSize(sig));
    }
  }
}

/** The limits pass, in upstream's order. Throws {@link PartialError}. */
export function verifyLimits(m: CompiledModule, cfg: VerifierLimits): void {
  verifyConstants(m, cfg);
  verifyFunctionHandles(m, cfg);
  verifyDatatypeHandles(m, cfg);
  verifyTypeNodes(m, cfg);
  verifyIdentifiers(m, cfg);
  verifyDefinitions(m, cfg);
  verifyGenericInstantiations(m, cfg);
}
