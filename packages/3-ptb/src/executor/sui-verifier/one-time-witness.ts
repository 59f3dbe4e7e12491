/**
 * One-time witness pass (upstream `one_time_witness_verifier`).
 *
 * A struct named like its module, upper-cased, with a single `bool` field is a one-time
 * witness candidate. It must have exactly the `drop` ability and no type parameters, the
 * module's `init` must take it as first of exactly two parameters, and no function of the
 * module may pack it. Without a candidate, `init` takes exactly one parameter. `0x2::sui`
 * and the bridge's token modules are exempt.
 */
import { Ability, type CompiledModule, type DatatypeHandle, type FunctionDefinition, type FunctionHandle, type StructDefinition } from '@smi/bytecode';
import { BRIDGE_ADDRESS, INIT_FN_NAME, moduleIdDisplay, selfAddress, selfName, SUI_ADDRESS, verificationFailure } from './common.js';

/** Upstream `BRIDGE_SUPPORTED_ASSET`: the bridge's token modules. */
const BRIDGE_SUPPORTED_ASSET = ['btc', 'eth', 'usdc', 'usdt'];

interface Candidate {
  name: string;
  handle: DatatypeHandle;
  def: StructDefinition;
}

export function verifyOneTimeWitness(m: CompiledModule): void {
  const address = selfAddress(m);
  const name = selfName(m);
  if (address === SUI_ADDRESS && name === 'sui') return;
  if (address === BRIDGE_ADDRESS && BRIDGE_SUPPORTED_ASSET.includes(name)) return;

  let candidate: Candidate | undefined;
  for (const def of m.structDefs) {
    const handle = m.datatypeHandles[def.structHandle];
    const structName = m.identifiers[handle.name];
    if (asciiUpper(name) !== structName) continue;
    if (def.fieldInformation.$kind !== 'Declared') continue;
    const fields = def.fieldInformation.fields;
    if (fields.length !== 1 || fields[0].type.$kind !== 'Bool') continue;
    checkCandidate(m, structName, handle);
    candidate = { name: structName, handle, def };
    break;
  }

  for (const fdef of m.functionDefs) {
    const fhandle = m.functionHandles[fdef.function];
    const fname = m.identifiers[fhandle.name];
    if (fname === INIT_FN_NAME) {
      if (candidate !== undefined) checkInitTakesWitness(m, fhandle, candidate);
      else checkInitSingleParam(m, fhandle);
    }
    // Test functions (allowed to pack the witness) never exist in a published module.
    if (candidate !== undefined) checkNeverPacked(m, fdef, candidate);
  }
}

function asciiUpper(s: string): string {
  return s.replace(/[a-z]/g, (c) => c.toUpperCase());
}

function checkCandidate(m: CompiledModule, name: string, handle: DatatypeHandle): void {
  if (handle.abilities !== Ability.Drop) {
    throw verificationFailure(`one-time witness type candidate ${moduleIdDisplay(m)}::${name} must have a single ability: drop`);
  }
  if (handle.typeParameters.length > 0) {
    throw verificationFailure(`one-time witness type candidate ${moduleIdDisplay(m)}::${name} cannot have type parameters`);
  }
}

function sameHandle(a: DatatypeHandle, b: DatatypeHandle): boolean {
  return (
    a.module === b.module &&
    a.name === b.name &&
    a.abilities === b.abilities &&
    a.typeParameters.length === b.typeParameters.length &&
    a.typeParameters.every((p, i) => p.constraints === b.typeParameters[i].constraints && p.isPhantom === b.typeParameters[i].isPhantom)
  );
}

function checkInitTakesWitness(m: CompiledModule, fhandle: FunctionHandle, c: Candidate): void {
  const params = m.signatures[fhandle.parameters];
  const first = params[0];
  const isWitness = first !== undefined && first.$kind === 'Datatype' && sameHandle(m.datatypeHandles[first.index], c.handle);
  if (params.length !== 2 || !isWitness) {
    throw verificationFailure(
      `init function of a module containing one-time witness type candidate must have ${moduleIdDisplay(m)}::${c.name} as the first parameter (a struct which has no fields or a single field of type bool)`,
    );
  }
}

function checkInitSingleParam(m: CompiledModule, fhandle: FunctionHandle): void {
  if (m.signatures[fhandle.parameters].length === 1) return;
  const id = moduleIdDisplay(m);
  const sui = SUI_ADDRESS.slice(2);
  throw verificationFailure(
    `Expected last (and at most second) parameter for ${id}::${INIT_FN_NAME} to be &mut ${sui}::tx_context::TxContext or &${sui}::tx_context::TxContext; ` +
      `optional first parameter must be of one-time witness type whose name is the same as the capitalized module name (${id}::${asciiUpper(selfName(m))}) ` +
      'and which has no fields or a single field of type bool',
  );
}

function sameStructDef(a: StructDefinition, b: StructDefinition): boolean {
  if (a === b) return true;
  if (a.structHandle !== b.structHandle || a.fieldInformation.$kind !== b.fieldInformation.$kind) return false;
  if (a.fieldInformation.$kind === 'Native' || b.fieldInformation.$kind === 'Native') return true;
  const fa = a.fieldInformation.fields;
  const fb = b.fieldInformation.fields;
  return fa.length === fb.length && fa.every((f, i) => f.name === fb[i].name && JSON.stringify(f.type) === JSON.stringify(fb[i].type));
}

function checkNeverPacked(m: CompiledModule, fdef: FunctionDefinition, c: Candidate): void {
  if (fdef.code === null) return;
  for (const instr of fdef.code.code) {
    if (instr.$kind !== 'Pack') continue;
    const packed = m.structDefs[instr.index];
    if (packed === undefined || !sameStructDef(packed, c.def)) continue;
    const id = moduleIdDisplay(m);
    const fname = m.identifiers[m.functionHandles[fdef.function].name];
    throw verificationFailure(`one-time witness type ${id}::${c.name} is instantiated in the ${id}::${fname} function and must never be`);
  }
}
