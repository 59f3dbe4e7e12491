/**
 * ID leak pass (upstream `id_leak_verifier`): every object (a struct with `key`) must be
 * packed with a `UID` fresh from `sui::object::new` (or `object::new_uid_from_hash`,
 * `derived_object::claim`, `test_scenario::new_object`), never with one taken out of another
 * object, a parameter, a reference or any other function's result.
 *
 * An abstract interpretation over each function's control-flow graph: every value is `Fresh`
 * (the result of one of those functions) or `Other`; locals keep their value, the operand
 * stack is tracked instruction by instruction, and a join of two different values is `Other`.
 * The creation functions of the system objects (`sui_system::create`, `clock::create`, ...)
 * are skipped. Upstream's meter only matters for the metered (signing) path, not execution.
 */
import type { Bytecode, CompiledModule, FunctionHandle, StructDefinition } from '@smi/bytecode';
import { Ability, analyzeFunction, type AbstractDomain, ControlFlowGraph, instructionEffect } from '@smi/bytecode';
import type { ExecutionFailure } from '../errors.js';

import { addressDisplay, BRIDGE_ADDRESS, selfAddress, selfName, SUI_ADDRESS, SUI_SYSTEM_ADDRESS, verificationFailure } from './common.js';

/** Abstract values; `ABSENT` marks a local without a value (moved out or never set). */
const ABSENT = 0;
const FRESH = 1;
const OTHER = 2;
type Value = typeof FRESH | typeof OTHER;

/** Upstream `FunctionIdent`: address (`0x` + 64 hex digits), module, function. */
type FunctionIdent = readonly [string, string, string];

const OBJECT_NEW: FunctionIdent = [SUI_ADDRESS, 'object', 'new'];
const OBJECT_NEW_DERIVED: FunctionIdent = [SUI_ADDRESS, 'derived_object', 'claim'];
const TS_NEW_OBJECT: FunctionIdent = [SUI_ADDRESS, 'test_scenario', 'new_object'];

/** Functions whose single result is a fresh `UID`. */
const FRESH_ID_FUNCTIONS: readonly FunctionIdent[] = [OBJECT_NEW, [SUI_ADDRESS, 'object', 'new_uid_from_hash'], OBJECT_NEW_DERIVED, TS_NEW_OBJECT];

/** System object creation functions, which pack objects with well-known ids and are not checked. */
const FUNCTIONS_TO_SKIP: readonly FunctionIdent[] = [
  [SUI_SYSTEM_ADDRESS, 'sui_system', 'create'],
  [SUI_ADDRESS, 'clock', 'create'],
  [SUI_ADDRESS, 'authenticator_state', 'create'],
  [SUI_ADDRESS, 'random', 'create'],
  [SUI_ADDRESS, 'deny_list', 'create'],
  [BRIDGE_ADDRESS, 'bridge', 'create'],
  [SUI_ADDRESS, 'accumulator', 'create'],
  [SUI_ADDRESS, 'coin_registry', 'create'],
  [SUI_ADDRESS, 'display_registry', 'create'],
  [SUI_ADDRESS, 'address_alias', 'create'],
  [SUI_ADDRESS, 'forwarding_address', 'create'],
];

function contains(list: readonly FunctionIdent[], f: FunctionIdent): boolean {
  return list.some((g) => g[0] === f[0] && g[1] === f[1] && g[2] === f[2]);
}

/** Upstream `PartialVMError` Display, the text `verification_failure` carries. */
function partialVmError(status: string, message: string, subStatus?: number): ExecutionFailure {
  const sub = subStatus === undefined ? '' : ` with sub status ${subStatus}`;
  return verificationFailure(`PartialVMError with status ${status}${sub} and message ${message}`);
}

const INVALID_OBJECT_CREATION = 1;
const MULTIPLE_RETURN_VALUES_NOT_ALLOWED = 0;

function stackError(op: string, error: string): ExecutionFailure {
  return partialVmError('VERIFIER_INVARIANT_VIOLATION', `Unexpected stack error on ${op}: ${error}`);
}

/** A `panic!`/`unwrap()` of upstream's, unreachable once the Move bytecode verifier has passed. */
function unreachable(what: string): Error {
  return new Error(`id_leak_verifier: ${what} (the Move bytecode verifier should have rejected this module)`);
}

function resolveFunction(m: CompiledModule, h: FunctionHandle): FunctionIdent {
  const mh = m.moduleHandles[h.module];
  return [m.addressIdentifiers[mh.address], m.identifiers[mh.name], m.identifiers[h.name]];
}

function numFields(def: StructDefinition): number {
  return def.fieldInformation.$kind === 'Declared' ? def.fieldInformation.fields.length : 0;
}

/** The analysis of one function: its operand stack and transfer functions (upstream `IDLeakAnalysis`). */
class IdLeakAnalysis implements AbstractDomain<Uint8Array> {
  private readonly stack: Value[] = [];

  constructor(
    private readonly m: CompiledModule,
    private readonly current: FunctionIdent,
    private readonly returns: number,
  ) {}

  clone(state: Uint8Array): Uint8Array {
    return state.slice();
  }

  /** Upstream `AbstractState::join`: a local the incoming state has joins with `Other` when absent here. */
  join(pre: Uint8Array, post: Uint8Array): Uint8Array | null {
    let changed = false;
    for (let local = 0; local < post.length; local++) {
      const value = post[local];
      if (value === ABSENT) continue;
      const old = pre[local] === ABSENT ? OTHER : pre[local];
      const joined = value === old ? old : OTHER;
      if (joined !== old) changed = true;
      pre[local] = joined;
    }
    return changed ? pre : null;
  }

  execute(state: Uint8Array, ins: Bytecode, offset: number, blockEnd: number): Uint8Array {
    this.step(state, ins);
    // Invariant: the stack is empty at the end of every block.
    if (offset === blockEnd && this.stack.length > 0) {
      throw partialVmError('VERIFIER_INVARIANT_VIOLATION', 'Invalid stack transitions. Non-zero stack size at the end of the block');
    }
    return state;
  }

  private pop(): Value {
    const v = this.stack.pop();
    if (v === undefined) throw unreachable('pop from an empty stack');
    return v;
  }

  private popn(n: number): void {
    if (n === 0) return;
    if (n < 0 || n > this.stack.length) throw stackError('pop_n', 'Popped more values than are on the stack');
    this.stack.length -= n;
  }

  private pushn(n: number, v: Value): void {
    for (let i = 0; i < n; i++) this.stack.push(v);
  }

  private call(h: FunctionHandle): void {
    this.popn(this.m.signatures[h.parameters].length);
    const returns = this.m.signatures[h.return].length;
    const f = resolveFunction(this.m, h);
    if (contains(FRESH_ID_FUNCTIONS, f)) {
      if (returns !== 1) {
        throw partialVmError('UNKNOWN_VERIFICATION_ERROR', 'Should have a single return value', MULTIPLE_RETURN_VALUES_NOT_ALLOWED);
      }
      this.stack.push(FRESH);
    } else {
      this.pushn(returns, OTHER);
    }
  }

  /** An object (a struct with `key`) must be packed with a fresh `UID` as its first field. */
  private pack(def: StructDefinition): void {
    const hasKey = (this.m.datatypeHandles[def.structHandle].abilities & Ability.Key) !== 0;
    this.popn(numFields(def) - 1);
    const id = this.pop();
    if (hasKey && id !== FRESH) {
      const [pkg, mod, fun] = this.current;
      const message =
        `Invalid object creation in ${addressDisplay(pkg)}::${mod}::${fun}. Object created without a newly created UID. ` +
        `The UID must come directly from \`sui::${OBJECT_NEW[1]}::${OBJECT_NEW[2]}\`, or \`sui::${OBJECT_NEW_DERIVED[1]}::${OBJECT_NEW_DERIVED[2]}\`. ` +
        `For tests, it can also come from \`sui::${TS_NEW_OBJECT[1]}::${TS_NEW_OBJECT[2]}\``;
      throw partialVmError('UNKNOWN_VERIFICATION_ERROR', message, INVALID_OBJECT_CREATION);
    }
    this.stack.push(OTHER);
  }

  private step(state: Uint8Array, ins: Bytecode): void {
    const m = this.m;
    switch (ins.$kind) {
      case 'MoveLoc': {
        const value = state[ins.index];
        if (value === undefined || value === ABSENT) throw unreachable(`move of unavailable local ${ins.index}`);
        state[ins.index] = ABSENT;
        this.stack.push(value as Value);
        return;
      }
      case 'StLoc':
        state[ins.index] = this.pop();
        return;
      case 'Call':
        this.call(m.functionHandles[ins.index]);
        return;
      case 'CallGeneric':
        this.call(m.functionHandles[m.functionInstantiations[ins.index].handle]);
        return;
      case 'Pack':
        this.pack(m.structDefs[ins.index]);
        return;
      case 'PackGeneric':
        this.pack(m.structDefs[m.structDefInstantiations[ins.index].def]);
        return;
      case 'MoveFromDeprecated':
      case 'MoveFromGenericDeprecated':
      case 'MoveToDeprecated':
      case 'MoveToGenericDeprecated':
      case 'ImmBorrowGlobalDeprecated':
      case 'MutBorrowGlobalDeprecated':
      case 'ImmBorrowGlobalGenericDeprecated':
      case 'MutBorrowGlobalGenericDeprecated':
      case 'ExistsDeprecated':
      case 'ExistsGenericDeprecated':
        throw unreachable('Should have been checked by global_storage_access_verifier.');
      default: {
        // Everything else pops its operands and pushes values that are never a fresh UID:
        // constants, copies (a UID has no copy), references, operators, unpacked fields.
        const [pops, pushes] = instructionEffect(m, ins, this.returns);
        this.popn(pops);
        this.pushn(pushes, OTHER);
      }
    }
  }
}

/**
 * Run the ID leak pass on every function with code.
 *
 * @throws {ExecutionFailure} `SuiMoveVerificationError` with upstream's message (the Display of
 * its `PartialVMError`).
 */
export function verifyIdLeak(m: CompiledModule): void {
  const address = selfAddress(m);
  const module = selfName(m);
  for (const fdef of m.functionDefs) {
    const code = fdef.code;
    if (code === null) continue;
    const handle = m.functionHandles[fdef.function];
    const current: FunctionIdent = [address, module, m.identifiers[handle.name]];
    if (contains(FUNCTIONS_TO_SKIP, current)) continue;
    const params = m.signatures[handle.parameters].length;
    const initial = new Uint8Array(params + m.signatures[code.locals].length);
    initial.fill(OTHER, 0, params);
    const analysis = new IdLeakAnalysis(m, current, m.signatures[handle.return].length);
    analyzeFunction(new ControlFlowGraph(code.code, code.jumpTables), code.code, initial, analysis);
  }
}
