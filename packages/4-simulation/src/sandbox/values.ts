/**
 * Types and values: `validate_type` resolves a type against the loaded packages (arity,
 * constraints and all), `encode_bcs` / `decode_bcs` convert between JSON and BCS for any
 * Move type with the VM's own layouts (`valueFromJson` / `valueToJson`).
 */
import { abilityNames, errorMessage } from '@smi/bytecode';
import { formatType, type Json, type Type, TypeKind, valueFromJson, valueToJson } from '@smi/move-vm';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import { SandboxError } from './errors.js';
import { RequestError } from './request.js';

/** Resolve a type string, as a `TYPE_MISMATCH` on failure. */
export function resolveTypeString(env: SimulationEnvironment, text: string): Type {
  try {
    return env.vm.resolveType(text.trim());
  } catch (e) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `type ${text} does not resolve: ${errorMessage(e)}`);
  }
}

function kindOf(t: Type): string {
  if (t.kind === TypeKind.Vector) return 'vector';
  if (t.kind === TypeKind.Datatype) return t.datatype?.isEnum ? 'enum' : 'struct';
  return 'primitive';
}

/** `validate_type`: `{valid: true, canonical, kind, abilities, …}` or `{valid: false, error}`. */
export function validateType(env: SimulationEnvironment, text: string): Json {
  let t: Type;
  try {
    t = resolveTypeString(env, text);
  } catch (e) {
    return { valid: false, type_str: text, error: errorMessage(e) };
  }
  const out: Record<string, Json> = {
    valid: true,
    type_str: text,
    canonical: formatType(t),
    kind: kindOf(t),
    abilities: abilityNames(t.abilities),
    is_object: t.kind === TypeKind.Datatype && abilityNames(t.abilities).includes('key'),
  };
  if (t.kind === TypeKind.Vector) out.element_type = formatType(t.elem as Type);
  if (t.kind === TypeKind.Datatype && t.datatype !== null) {
    out.address = t.datatype.address;
    out.module = t.datatype.module;
    out.name = t.datatype.name;
    out.type_args = t.typeArgs.map((a) => formatType(a));
  }
  return out;
}

/** `encode_bcs`: `{type, bytes_hex, bytes_len}`. */
export function encodeBcs(env: SimulationEnvironment, text: string, value: Json): Json {
  const t = resolveTypeString(env, text);
  let bytes: Uint8Array;
  try {
    bytes = env.vm.bcs.encode(valueFromJson(env.vm.types, value, t), t);
  } catch (e) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `value does not fit ${formatType(t)}: ${errorMessage(e)}`);
  }
  return { type: formatType(t), bytes_hex: Buffer.from(bytes).toString('hex'), bytes_len: bytes.length };
}

/** Bytes of a hex string (`0x` optional). */
export function hexBytes(text: string): Uint8Array {
  const hex = text.trim().replace(/^0x/i, '');
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new RequestError('bytes_hex is not an even-length hex string');
  }
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** `decode_bcs`: `{type, value, bytes_len}` (every byte must be used). */
export function decodeBcs(env: SimulationEnvironment, text: string, bytesHex: string): Json {
  const t = resolveTypeString(env, text);
  const bytes = hexBytes(bytesHex);
  let value: Json;
  try {
    value = valueToJson(env.vm.types, env.vm.bcs.decode(bytes, t), t);
  } catch (e) {
    throw new SandboxError('DeserializationFailed', `bytes are not a ${formatType(t)}: ${errorMessage(e)}`);
  }
  return { type: formatType(t), value, bytes_len: bytes.length };
}
