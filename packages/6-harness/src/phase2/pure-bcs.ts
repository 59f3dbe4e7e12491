/**
 * BCS of a plan's pure arguments without a Move VM (for transactions sent to a node): the
 * integers, `bool`, `address` and vectors of them that the plan schema has (`PURE_KINDS`),
 * given as the JSON `planToPtb` passes (integers as decimal strings, `vector<u8>` as `0x` hex
 * or a list).
 */
import type { Json as MoveJson } from '@smi/move-vm';
import { PlanError } from '@smi/inhabit';
import { addressBytes, pushUleb128 } from '@smi/bytecode';

const WIDTHS: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16, u256: 32 };

function fail(type: string, value: MoveJson): never {
  throw new PlanError('PLAN_PARSE_ERROR', `a pure ${type} cannot hold ${JSON.stringify(value)}`);
}

function integer(type: string, value: MoveJson): number[] {
  const width = WIDTHS[type];
  let n: bigint;
  if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^\d+$/.test(value)) n = BigInt(value);
  else fail(type, value);
  if (n < 0n || n >= 1n << BigInt(8 * width)) fail(type, value);
  const out: number[] = [];
  for (let i = 0; i < width; i++) out.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return out;
}

function address(value: MoveJson): number[] {
  const hex = typeof value === 'string' ? value.replace(/^0[xX]/, '') : '';
  if (!/^[0-9a-fA-F]{1,64}$/.test(hex)) fail('address', value);
  return [...addressBytes(hex)];
}

function encode(type: string, value: MoveJson): number[] {
  if (type in WIDTHS) return integer(type, value);
  if (type === 'bool') return typeof value === 'boolean' ? [value ? 1 : 0] : fail(type, value);
  if (type === 'address') return address(value);
  const inner = /^vector<(.+)>$/.exec(type)?.[1];
  if (inner === undefined) throw new PlanError('UNSUPPORTED_ARG_KIND', `a pure ${type} is not supported on a node`);
  if (inner === 'u8' && typeof value === 'string') {
    const hex = value.replace(/^0[xX]/, '');
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) fail(type, value);
    return [...pushUleb128([], hex.length / 2), ...Buffer.from(hex, 'hex')];
  }
  if (!Array.isArray(value)) fail(type, value);
  return [...pushUleb128([], value.length), ...value.flatMap((v) => encode(inner, v))];
}

/** The BCS of `value` as a pure `type`. */
export function pureBcs(type: string, value: MoveJson): Uint8Array {
  return Uint8Array.from(encode(type, value));
}
