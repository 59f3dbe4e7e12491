/**
 * Output in upstream's words: Move values as `{:#}` prints annotated values (structs as
 * `Type {\n    field: value,\n}`, vectors as `vector[...]`), owners, events (`{:?}`), gas
 * summaries, and the `stabilize_str` pass that replaces every address by the name of a
 * named address, by `fake(task,index)` of an enumerated object, or by `_`. Runner errors
 * get upstream's `process_error` pass instead (`@A`, `object(2,0)`).
 */
import { isInteger, type MoveVM, type MoveVector, primitiveName, type Type, TypeKind, type VariantValue } from '@smi/move-vm';
import type { Event, GasCostSummary, Owner, StructTag, TypeTag } from '@smi/ptb';
import { formatFakeId, type FakeId } from './values.js';

/** How addresses are named in output. */
export interface NameContext {
  /** Named addresses (name → `0x` + 64 hex), sorted by name. */
  namedAddresses(): readonly (readonly [string, string])[];
  /** The fake id of an object id, if it has one. */
  fakeOf(id: string): FakeId | undefined;
  /** Accounts (name → address), sorted by name. */
  accountAddresses(): readonly (readonly [string, string])[];
  /** Every object with a fake id (enumerated or well-known), sorted by id. */
  fakes(): readonly (readonly [string, FakeId])[];
}

/** `0x` + the shortest hex of an address (`AccountAddress::to_hex_literal`). */
export function shortHex(address: string): string {
  const s = address.replace(/^0x/, '').replace(/^0+/, '');
  return '0x' + (s === '' ? '0' : s);
}

function remapHex(hex: string, ctx: NameContext): string {
  const full = '0x' + hex.replace(/^0x/, '').padStart(64, '0');
  if (full.length !== 66) return hex;
  for (const [name, addr] of ctx.namedAddresses()) if (addr === full) return name;
  const fake = ctx.fakeOf(full);
  if (fake === undefined) return '_';
  if (fake.kind === 'known') return fake.address;
  return `fake(${formatFakeId(fake)})`;
}

const HEX_DIGIT = /[0-9a-fA-F]/;

/** Upstream's `stabilize_str`: every address-like hex run becomes a name, a fake id or `_`. */
export function stabilize(input: string, ctx: NameContext): string {
  const isCandidate = (s: string): boolean => (s.startsWith('0x') && s.length >= 3) || s.length === 64;
  let out = '';
  let cand = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '0' && cand === '' && input[i + 1] === 'x') {
      cand = '0x';
      i++;
    } else if (HEX_DIGIT.test(c)) {
      cand += c;
    } else {
      out += isCandidate(cand) ? remapHex(cand, ctx) : cand;
      cand = '';
      out += c;
    }
  }
  out += isCandidate(cand) ? remapHex(cand, ctx) : cand;
  return out;
}

/** Upstream's `process_error`: account addresses become `@name`, object ids `object(fake)`. */
export function processError(message: string, ctx: NameContext): string {
  let err = message;
  for (const [name, addr] of ctx.accountAddresses()) {
    err = err.split(addr).join(`@${name}`);
    err = err.split(addr.slice(2)).join(`@${name}`);
  }
  for (const [id, fake] of ctx.fakes()) {
    const rep = `object(${formatFakeId(fake)})`;
    err = err.split(id).join(rep);
    err = err.split(id.slice(2)).join(rep);
  }
  return err;
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n');
}

function mapBlock(head: string, entries: [string, string][]): string {
  if (entries.length === 0) return `${head}{}`;
  return `${head}{\n${entries.map(([k, v]) => indent(`${k}: ${v},`)).join('\n')}\n}`;
}

/** A runtime type as an annotated layout's `StructTag` Display prints it (short hex, original ids). */
export function typeDisplay(t: Type): string {
  switch (t.kind) {
    case TypeKind.Bool:
      return 'bool';
    case TypeKind.U8:
      return 'u8';
    case TypeKind.U16:
      return 'u16';
    case TypeKind.U32:
      return 'u32';
    case TypeKind.U64:
      return 'u64';
    case TypeKind.U128:
      return 'u128';
    case TypeKind.U256:
      return 'u256';
    case TypeKind.Address:
      return 'address';
    case TypeKind.Signer:
      return 'signer';
    case TypeKind.Vector:
      return `vector<${typeDisplay(t.elem as Type)}>`;
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return '?';
      // Layouts name datatypes by the address their module carries: the original id.
      const base = `${shortHex(d.address)}::${d.module}::${d.name}`;
      return t.typeArgs.length === 0 ? base : `${base}<${t.typeArgs.map(typeDisplay).join(', ')}>`;
    }
    default:
      return '?';
  }
}

/** A Move value as upstream's annotated `{:#}` prints it (addresses not yet stabilized). */
export function valueDisplay(vm: MoveVM, v: unknown, t: Type): string {
  if (isInteger(t)) return `${String(v)}${primitiveName(t)}`;
  switch (t.kind) {
    case TypeKind.Bool:
      return v ? 'true' : 'false';
    case TypeKind.Address:
      return shortHex(v as string);
    case TypeKind.Signer:
      return `signer(${shortHex(v as string)})`;
    case TypeKind.Vector: {
      const elems = (v as MoveVector).toArray();
      if (elems.length === 0) return 'vector[]';
      return `vector[\n${elems.map((e) => indent(`${valueDisplay(vm, e, t.elem as Type)},`)).join('\n')}\n]`;
    }
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return '?';
      if (d.isEnum) {
        const e = v as VariantValue;
        const variant = d.variants()[e.tag];
        const fields = variant.fields.map((f, i): [string, string] => [f.name, valueDisplay(vm, e.fields[i], vm.types.subst(f.type, t.typeArgs))]);
        return mapBlock(`${typeDisplay(t)}::${variant.name}`, fields);
      }
      const fields = d.fields().map((f, i): [string, string] => [f.name, valueDisplay(vm, (v as unknown[])[i], vm.types.subst(f.type, t.typeArgs))]);
      return mapBlock(`${typeDisplay(t)} `, fields);
    }
    default:
      return '?';
  }
}

/** `Owner`'s Display (addresses full, to be stabilized). */
export function ownerDisplay(o: Owner): string {
  switch (o.$kind) {
    case 'AddressOwner':
      return `Account Address ( ${o.AddressOwner} )`;
    case 'ObjectOwner':
      return `Object ID: ( ${o.ObjectOwner} )`;
    case 'Immutable':
      return 'Immutable';
    case 'Shared':
      return `Shared( ${o.Shared.initialSharedVersion} )`;
    case 'ConsensusAddressOwner':
      return `ConsensusAddressOwner( ${o.ConsensusAddressOwner.startVersion}, ${o.ConsensusAddressOwner.owner} )`;
    case 'Party':
      return `Party( ${o.Party.startVersion}, ? )`;
  }
}

/** `TypeTag`'s Debug. */
function typeTagDebug(t: TypeTag): string {
  switch (t.$kind) {
    case 'bool':
      return 'Bool';
    case 'u8':
      return 'U8';
    case 'u16':
      return 'U16';
    case 'u32':
      return 'U32';
    case 'u64':
      return 'U64';
    case 'u128':
      return 'U128';
    case 'u256':
      return 'U256';
    case 'address':
      return 'Address';
    case 'signer':
      return 'Signer';
    case 'vector':
      return `Vector(${typeTagDebug(t.vector)})`;
    case 'struct':
      return `Struct(${structTagDebug(t.struct)})`;
  }
}

/** `StructTag`'s Debug. */
function structTagDebug(s: StructTag): string {
  return `StructTag { address: ${s.address}, module: Identifier("${s.module}"), name: Identifier("${s.name}"), type_params: [${s.typeParams.map(typeTagDebug).join(', ')}] }`;
}

/** An event as upstream's `{:?}` prints it (addresses to be stabilized). */
export function eventDebug(e: Event): string {
  return `Event { package_id: ${e.packageId}, transaction_module: Identifier("${e.transactionModule}"), sender: ${e.sender}, type_: ${structTagDebug(e.type)}, contents: [${[...e.contents].join(', ')}] }`;
}

/** `GasCostSummary`'s Display. */
export function gasSummaryDisplay(g: GasCostSummary): string {
  return `computation_cost: ${g.computationCost}, storage_cost: ${g.storageCost},  storage_rebate: ${g.storageRebate}, non_refundable_storage_fee: ${g.nonRefundableStorageFee}`;
}
