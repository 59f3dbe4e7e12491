/**
 * Execution limits of the Sui Move VM, and where each one comes from.
 *
 * Sources (upstream Sui, execution version 4 = `sui-execution/latest`, the one protocol
 * 119+ runs, with the new `move-vm-runtime`):
 * - `move-vm-runtime/src/shared/constants.rs`: `CALL_STACK_SIZE_LIMIT` (1024),
 *   `OPERAND_STACK_SIZE_LIMIT` (1024), `TYPE_DEPTH_MAX` (256), `VALUE_DEPTH_MAX` (128, the
 *   fallback when the config gives none), `MAX_TYPE_INSTANTIATION_NODES` (128),
 *   `HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES` (256), `LOCALS_PER_FRAME_LIMIT` (2048, not checked
 *   by the interpreter);
 * - `sui-adapter/src/adapter.rs` `vm_config()`: `vector_len_max = max_move_vector_len`,
 *   `max_value_nest_depth = max_move_value_depth` (an `Option`: `None` before protocol 11,
 *   then the check is skipped), `max_type_to_layout_nodes`;
 * - `ProtocolConfig::verifier_config()`: the bytecode verifier's limits (publish time only).
 *
 * Where the interpreter checks them (and the status it raises), see {@link VM_LIMIT_STATUS}.
 */
import type { ProtocolConfig } from './protocol-config.js';

/** Move `StatusCode` names this module refers to, with their numeric values (`vm_status.rs`). */
export const VM_STATUS_CODES = {
  OUT_OF_GAS: 4002,
  ABORTED: 4016,
  ARITHMETIC_ERROR: 4017,
  VECTOR_OPERATION_ERROR: 4018,
  EXECUTION_STACK_OVERFLOW: 4020,
  CALL_STACK_OVERFLOW: 4021,
  VM_MAX_TYPE_DEPTH_REACHED: 4024,
  VM_MAX_VALUE_DEPTH_REACHED: 4025,
  VM_MAX_TYPE_NODES_REACHED: 4029,
  LOOP_MAX_DEPTH_REACHED: 1111,
  TOO_MANY_TYPE_PARAMETERS: 1112,
  TOO_MANY_PARAMETERS: 1113,
  TOO_MANY_BASIC_BLOCKS: 1114,
  VALUE_STACK_OVERFLOW: 1115,
  TOO_MANY_TYPE_NODES: 1116,
  VALUE_STACK_PUSH_OVERFLOW: 1117,
  MAX_FUNCTION_DEFINITIONS_REACHED: 1119,
  MAX_STRUCT_DEFINITIONS_REACHED: 1120,
  MAX_FIELD_DEFINITIONS_REACHED: 1121,
  TOO_MANY_BACK_EDGES: 1122,
  TOO_MANY_VECTOR_ELEMENTS: 1128,
  IDENTIFIER_TOO_LONG: 1129,
} as const;

/** Name of a status code in {@link VM_STATUS_CODES}. */
export type VmStatusName = keyof typeof VM_STATUS_CODES;

/**
 * Sub-statuses of `VECTOR_OPERATION_ERROR` (`NFE_VECTOR_ERROR_BASE` = 0 plus 1..4, in
 * `values_impl.rs`).
 */
export const VECTOR_SUB_STATUS = {
  INDEX_OUT_OF_BOUNDS: 1,
  POP_EMPTY_VEC: 2,
  VEC_UNPACK_PARITY_MISMATCH: 3,
  VEC_SIZE_LIMIT_REACHED: 4,
} as const;

/** Limits the bytecode verifier enforces when a package is published (never at run time). */
export interface VerifierLimits {
  /** `max_value_stack_size` (1024): stack growth within one basic block; `VALUE_STACK_OVERFLOW`. */
  maxValueStackSize: number;
  /** `max_push_size` (10000): pushes within one basic block; `VALUE_STACK_PUSH_OVERFLOW`. */
  maxPushSize: number;
  /** `max_type_nodes` (256): nodes of a signature type; `TOO_MANY_TYPE_NODES`. */
  maxTypeNodes: number;
  /** `max_loop_depth` (5): `LOOP_MAX_DEPTH_REACHED`. */
  maxLoopDepth: number;
  /** `max_generic_instantiation_length` (32): `TOO_MANY_TYPE_PARAMETERS`. */
  maxGenericInstantiationLength: number;
  /** `max_function_parameters` (128): `TOO_MANY_PARAMETERS`. */
  maxFunctionParameters: number;
  /** `max_basic_blocks` (1024): `TOO_MANY_BASIC_BLOCKS`. */
  maxBasicBlocks: number;
  /** `max_back_edges_per_function` (10000): `TOO_MANY_BACK_EDGES` (signing-time meter). */
  maxBackEdgesPerFunction: number;
  /** `max_fields_in_struct` (32): `MAX_FIELD_DEFINITIONS_REACHED`. */
  maxFieldsInStruct: number;
  /** `max_function_definitions` (1000): `MAX_FUNCTION_DEFINITIONS_REACHED`. */
  maxFunctionDefinitions: number;
  /** `max_struct_definitions` (200): `MAX_STRUCT_DEFINITIONS_REACHED`. */
  maxStructDefinitions: number;
  /** `max_move_identifier_len` (128; unlimited before protocol 9): `IDENTIFIER_TOO_LONG`. */
  maxIdentifierLength: number | undefined;
  /** `max_move_vector_len` again, as `max_constant_vector_len`: `TOO_MANY_VECTOR_ELEMENTS`. */
  maxConstantVectorLength: number;
  /** `max_dependency_depth` (100): depth of the package dependency graph at publish. */
  maxDependencyDepth: number;
}

/** Limits the interpreter checks while running, plus the verifier's and the PTB's. */
export interface VmLimits {
  /** Protocol version the limits were read from (`undefined` for hand-built limits). */
  protocolVersion: number | undefined;
  /**
   * `CALL_STACK_SIZE_LIMIT` = 1024: the number of *suspended* frames. The entry frame is
   * not counted, so at most 1025 Move frames are live; the call that would create frame
   * 1026 fails with `CALL_STACK_OVERFLOW` (native calls push no frame). Not configurable.
   */
  maxCallDepth: number;
  /**
   * `OPERAND_STACK_SIZE_LIMIT` = 1024 values on the operand stack, shared by all frames
   * (arguments move into the callee's locals on a call). Pushing the 1025th value fails
   * with `EXECUTION_STACK_OVERFLOW`. Not configurable.
   */
  maxOperandStackSize: number;
  /**
   * `max_move_value_depth` (128): checked on the *type* of every `Pack`, `PackGeneric`,
   * `PackVariant(Generic)` and `VecPack` result, before the pack; `VM_MAX_VALUE_DEPTH_REACHED`.
   * Depth: primitives 1; `vector<T>`/`&T` 1 + depth(T); a datatype 1 + the max over its
   * fields (all variants for enums), type parameters replaced by the arguments' depths.
   * `undefined` (protocol < 11): not checked.
   */
  maxValueDepth: number | undefined;
  /**
   * `max_move_vector_len` (262144): `VecPushBack` (and the `vector::push_back` native) on a
   * vector of that length fails with `VECTOR_OPERATION_ERROR` sub-status
   * `VEC_SIZE_LIMIT_REACHED` (4). `VecPack` and `VecUnpack` do not check it.
   */
  maxVectorLength: number;
  /**
   * `TYPE_DEPTH_MAX` = 256: depth of a type built by substitution (instantiating a generic
   * function, struct, enum or `vector<T>` with the frame's type arguments);
   * `VM_MAX_TYPE_DEPTH_REACHED`.
   */
  maxTypeDepth: number;
  /**
   * `MAX_TYPE_INSTANTIATION_NODES` = 128: for `CallGeneric`, 1 + the nodes of the caller's
   * type arguments + the nodes of the instantiated callee arguments; for generic datatypes,
   * 1 + nodes of the declared instantiation + nodes of the frame's type arguments;
   * `VM_MAX_TYPE_NODES_REACHED`. (Raised to 512 only for the accumulator settlement call.)
   */
  maxTypeInstantiationNodes: number;
  /**
   * `max_type_to_layout_nodes` (512; 256 = `HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES` before
   * protocol 60): nodes when turning a type into a value layout (natives that serialize,
   * dynamic fields, events, object reads and writes); `VM_MAX_TYPE_NODES_REACHED`.
   */
  maxTypeToLayoutNodes: number;
  /** PTB input check `max_type_arguments` (16): type arguments of one `MoveCall`. */
  maxTypeArguments: number;
  /** PTB input check `max_type_argument_depth` (16): depth of each `MoveCall` type argument. */
  maxTypeArgumentDepth: number;
  /** Publish-time verifier limits. */
  verifier: VerifierLimits;
}

/** A runtime limit of {@link VmLimits}. */
export type RuntimeLimitName = 'maxCallDepth' | 'maxOperandStackSize' | 'maxValueDepth' | 'maxVectorLength' | 'maxTypeDepth' | 'maxTypeInstantiationNodes' | 'maxTypeToLayoutNodes';

/** Status (and sub-status) the runtime raises when a limit is exceeded. */
export interface LimitStatus {
  status: VmStatusName;
  code: number;
  subStatus?: number;
}

/** Upstream status raised for each runtime limit (see the field docs of {@link VmLimits}). */
export const VM_LIMIT_STATUS: Readonly<Record<RuntimeLimitName, LimitStatus>> = Object.freeze({
  maxCallDepth: { status: 'CALL_STACK_OVERFLOW', code: VM_STATUS_CODES.CALL_STACK_OVERFLOW },
  maxOperandStackSize: { status: 'EXECUTION_STACK_OVERFLOW', code: VM_STATUS_CODES.EXECUTION_STACK_OVERFLOW },
  maxValueDepth: { status: 'VM_MAX_VALUE_DEPTH_REACHED', code: VM_STATUS_CODES.VM_MAX_VALUE_DEPTH_REACHED },
  maxVectorLength: {
    status: 'VECTOR_OPERATION_ERROR',
    code: VM_STATUS_CODES.VECTOR_OPERATION_ERROR,
    subStatus: VECTOR_SUB_STATUS.VEC_SIZE_LIMIT_REACHED,
  },
  maxTypeDepth: { status: 'VM_MAX_TYPE_DEPTH_REACHED', code: VM_STATUS_CODES.VM_MAX_TYPE_DEPTH_REACHED },
  maxTypeInstantiationNodes: { status: 'VM_MAX_TYPE_NODES_REACHED', code: VM_STATUS_CODES.VM_MAX_TYPE_NODES_REACHED },
  maxTypeToLayoutNodes: { status: 'VM_MAX_TYPE_NODES_REACHED', code: VM_STATUS_CODES.VM_MAX_TYPE_NODES_REACHED },
});

/** `CALL_STACK_SIZE_LIMIT` of `move-vm-runtime`. */
export const CALL_STACK_SIZE_LIMIT = 1024;
/** `OPERAND_STACK_SIZE_LIMIT` of `move-vm-runtime`. */
export const OPERAND_STACK_SIZE_LIMIT = 1024;
/** `TYPE_DEPTH_MAX` of `move-vm-runtime`. */
export const TYPE_DEPTH_MAX = 256;
/** `MAX_TYPE_INSTANTIATION_NODES` of `move-vm-runtime`. */
export const MAX_TYPE_INSTANTIATION_NODES = 128;
/** `HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES`: layout node limit when the config has none. */
export const HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES = 256;

/**
 * Limits of the latest mainnet protocol in the fixtures (version 135). Equal to
 * `limitsFromProtocolConfig(loadProtocolConfig(root, 135))` (a test checks it).
 */
export const DEFAULT_VM_LIMITS: Readonly<VmLimits> = Object.freeze({
  protocolVersion: 135,
  maxCallDepth: CALL_STACK_SIZE_LIMIT,
  maxOperandStackSize: OPERAND_STACK_SIZE_LIMIT,
  maxValueDepth: 128,
  maxVectorLength: 262_144,
  maxTypeDepth: TYPE_DEPTH_MAX,
  maxTypeInstantiationNodes: MAX_TYPE_INSTANTIATION_NODES,
  maxTypeToLayoutNodes: 512,
  maxTypeArguments: 16,
  maxTypeArgumentDepth: 16,
  verifier: Object.freeze({
    maxValueStackSize: 1024,
    maxPushSize: 10_000,
    maxTypeNodes: 256,
    maxLoopDepth: 5,
    maxGenericInstantiationLength: 32,
    maxFunctionParameters: 128,
    maxBasicBlocks: 1024,
    maxBackEdgesPerFunction: 10_000,
    maxFieldsInStruct: 32,
    maxFunctionDefinitions: 1000,
    maxStructDefinitions: 200,
    maxIdentifierLength: 128,
    maxConstantVectorLength: 262_144,
    maxDependencyDepth: 100,
  }),
});

/** Read the limits of one protocol version (upstream `vm_config` + `verifier_config`). */
export function limitsFromProtocolConfig(cfg: ProtocolConfig): VmLimits {
  return {
    protocolVersion: cfg.version,
    maxCallDepth: CALL_STACK_SIZE_LIMIT,
    maxOperandStackSize: OPERAND_STACK_SIZE_LIMIT,
    maxValueDepth: cfg.optionalInt('max_move_value_depth'),
    maxVectorLength: cfg.int('max_move_vector_len'),
    maxTypeDepth: TYPE_DEPTH_MAX,
    maxTypeInstantiationNodes: MAX_TYPE_INSTANTIATION_NODES,
    maxTypeToLayoutNodes: cfg.optionalInt('max_type_to_layout_nodes') ?? HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES,
    maxTypeArguments: cfg.int('max_type_arguments'),
    maxTypeArgumentDepth: cfg.int('max_type_argument_depth'),
    verifier: {
      maxValueStackSize: cfg.int('max_value_stack_size'),
      maxPushSize: cfg.int('max_push_size'),
      maxTypeNodes: cfg.int('max_type_nodes'),
      maxLoopDepth: cfg.int('max_loop_depth'),
      maxGenericInstantiationLength: cfg.int('max_generic_instantiation_length'),
      maxFunctionParameters: cfg.int('max_function_parameters'),
      maxBasicBlocks: cfg.int('max_basic_blocks'),
      maxBackEdgesPerFunction: cfg.int('max_back_edges_per_function'),
      maxFieldsInStruct: cfg.int('max_fields_in_struct'),
      maxFunctionDefinitions: cfg.int('max_function_definitions'),
      maxStructDefinitions: cfg.int('max_struct_definitions'),
      maxIdentifierLength: cfg.optionalInt('max_move_identifier_len'),
      maxConstantVectorLength: cfg.int('max_move_vector_len'),
      maxDependencyDepth: cfg.int('max_dependency_depth'),
    },
  };
}
