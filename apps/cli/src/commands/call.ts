/**
 * `smi call <address>::<module>::<function>`: run one function of the framework or of a
 * corpus package with JSON arguments read by the parameter types. Exit 0 when the call
 * ran (success, abort or execution error alike), 2 on bad input.
 */
import type { MovePackage } from '@smi/bytecode';
import {
  formatType,
  type Json,
  type ProtocolConfig,
  MoveVM,
  type Type,
  TypeKind,
  valueFromJson,
  valueToJson,
  VmError,
  type CallResult,
  OBJECT_RUNTIME_KEY,
  ObjectRuntime,
  type Owner,
  suiNativeRegistry,
} from '@smi/move-vm';
import { canonicalAddress, SYSTEM_PACKAGES, SUI_ADDRESS } from '@smi/bytecode';
import { frameworkPackages, loadCorpora, protocolConfigFor } from '../framework.js';
import { defineCommand } from '../command.js';
import { toCliError } from '../errors.js';
import { type CliIo, jsonLine, UsageError } from '../io.js';
import { header } from './registry.js';

interface CallArgs {
  target: string;
  'type-args': string[];
  args: string[];
  corpus: string[];
  framework?: string;
  'gas-budget'?: number;
  'protocol-version'?: number;
  sender: string;
  'permissive-crypto': boolean;
}

/** `true` for `&TxContext` / `&mut TxContext`. */
function isTxContextRef(t: Type): boolean {
  if (t.kind !== TypeKind.Reference && t.kind !== TypeKind.MutableReference) return false;
  const d = (t.elem as Type).datatype;
  return d !== null && d.address === SUI_ADDRESS && d.module === 'tx_context' && d.name === 'TxContext';
}

/** The packages a call sees: the framework unless the corpora bring their own, then the corpora. */
export function packagesFor(io: CliIo, corpus: readonly string[], frameworkDir?: string, closureOf?: readonly string[]): MovePackage[] {
  const fromCorpus = loadCorpora(io, corpus);
  return [...frameworkPackages(io, frameworkDir, fromCorpus, fromCorpus.length === 0 ? closureOf : undefined), ...fromCorpus];
}

/**
 * The first integer of JSON text `text` that a JSON number cannot hold exactly (beyond
 * 2^53), as typed, or `null` (strings are skipped: a quoted number is exact).
 */
function bigJsonNumber(text: string): string | null {
  for (const m of text.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    const t = m[0];
    if (t.startsWith('"') || !/^-?\d+$/.test(t)) continue;
    if (!Number.isSafeInteger(Number(t))) return t;
  }
  return null;
}

/** JSON printed by `smi call --json`. */
function callResultJson(vm: MoveVM, r: CallResult): Record<string, Json> {
  switch (r.$kind) {
    case 'Success':
      return {
        status: 'success',
        return_values: r.returnValues.map((v) => ({
          type: v.typeTag,
          bcs: Buffer.from(v.bcs).toString('hex'),
          value: valueToJson(vm.types, v.value, v.type),
        })),
        gas_used: r.gasUsed,
      };
    case 'Aborted':
      return {
        status: 'aborted',
        abort_code: r.abortCode.toString(),
        location: `${r.location.module}::${r.location.function}`,
        instruction: r.location.instruction,
      };
    case 'Error':
      return {
        status: 'error',
        error_code: r.code,
        message: r.location ? `${r.message} (in ${r.location.module}::${r.location.function} at instruction ${r.location.instruction})` : r.message,
      };
  }
}

function ownerJson(owner: Owner): Json {
  switch (owner.$kind) {
    case 'AddressOwner':
    case 'ObjectOwner':
      return { $kind: owner.$kind, address: owner.address };
    case 'Shared':
      return { $kind: 'Shared', initial_shared_version: owner.initialSharedVersion.toString() };
    case 'Immutable':
      return { $kind: 'Immutable' };
    case 'ConsensusAddressOwner':
      return { $kind: 'ConsensusAddressOwner', owner: owner.owner, start_version: owner.startVersion.toString() };
  }
}

/** `events` and `objects` of a successful call, when it produced any. */
export function effectsJson(vm: MoveVM, runtime: ObjectRuntime): Record<string, Json> {
  const r = runtime.results();
  const out: Record<string, Json> = {};
  if (r.events.length > 0) {
    out.events = r.events.map((e) => ({ type: e.typeTag, bcs: Buffer.from(e.bcs).toString('hex'), value: valueToJson(vm.types, e.value, e.type) }));
  }
  const created = new Set(r.createdIds);
  const objects: Json[] = r.writes.map((w) => ({
    id: w.id,
    status: created.has(w.id) ? 'created' : 'mutated',
    type: w.typeTag,
    owner: ownerJson(w.owner),
    bcs: Buffer.from(w.bcs).toString('hex'),
  }));
  for (const id of r.deletedIds) objects.push({ id, status: 'deleted' });
  const written = new Set(r.writes.map((w) => w.id));
  // Created and handed back to the caller (returned, or held in a returned value).
  for (const id of r.createdIds) if (!written.has(id)) objects.push({ id, status: 'created', owner: null });
  if (objects.length > 0) out.objects = objects;
  return out;
}

function humanEffects(out: Record<string, Json>): string {
  const lines: string[] = [];
  for (const e of (out.events as { type: string }[] | undefined) ?? []) lines.push(`  event: ${e.type}`);
  for (const o of (out.objects as { id: string; status: string; type?: string }[] | undefined) ?? []) {
    lines.push(`  object ${o.status}: ${o.id}${o.type ? ` (${o.type})` : ''}`);
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}

function humanResult(vm: MoveVM, r: CallResult): string {
  switch (r.$kind) {
    case 'Success': {
      const lines = [`success (gas used ${r.gasUsed})`];
      r.returnValues.forEach((v, i) => lines.push(`  return ${i}: ${v.typeTag} = ${JSON.stringify(valueToJson(vm.types, v.value, v.type))} (bcs 0x${Buffer.from(v.bcs).toString('hex')})`));
      return lines.join('\n') + '\n';
    }
    case 'Aborted':
      return `aborted with code ${r.abortCode} in ${r.location.module}::${r.location.function} at instruction ${r.location.instruction}\n`;
    case 'Error':
      return `error ${r.code}: ${r.message}${r.location ? ` (in ${r.location.module}::${r.location.function} at instruction ${r.location.instruction})` : ''}\n`;
  }
}

/** `smi call`. */
export const callCommand = defineCommand<CallArgs>({
  ...header('call'),
  positionals: { target: { type: 'string', demandOption: true, describe: 'address::module::function (address: storage id, short forms allowed)' } },
  options: {
    'type-args': { type: 'string', array: true, default: [] as string[], describe: 'Type arguments, e.g. u64 or 0x2::sui::SUI' },
    args: {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Arguments as JSON, one per parameter (a &TxContext parameter is supplied automatically)',
    },
    corpus: { type: 'string', array: true, default: [] as string[], describe: 'Package directory or corpus root to load (repeatable)' },
    framework: { type: 'string', describe: 'Framework bundles directory (default $SMI_FIXTURES/fixtures/framework)' },
    'gas-budget': { type: 'number', describe: 'Gas budget in internal units' },
    'protocol-version': {
      type: 'number',
      describe: 'Mainnet protocol version whose limits apply (from $SMI_FIXTURES/fixtures/protocol-config; default: latest)',
    },
    sender: { type: 'string', default: '0x0', describe: 'Sender address of the transaction context' },
    'permissive-crypto': {
      type: 'boolean',
      default: false,
      describe: 'Every signature/proof verification returns true (the original sandbox behaviour; recorded in the output)',
    },
  },
  examples: [
    { command: '$0 call 0x1::u64::pow --args 2 10 --json', describe: '2^10, as one JSON line' },
    { command: '$0 call 0x1::vector::reverse --type-args u8 --args \'"0x010203"\'', describe: 'a generic function; vector<u8> as hex' },
    { command: '$0 call 0x2::coin::value --type-args 0x2::sui::SUI --args \'{"id":"0x5","balance":{"value":"7"}}\'', describe: 'a struct argument as JSON' },
  ],
  epilog:
    'With --json: {"status":"success","return_values":[{"type","bcs","value"}],"gas_used"}, {"status":"aborted","abort_code","location","instruction"} ' +
    'or {"status":"error","error_code","message"}. Exit 0 when the call ran (an abort is a result), 2 on bad input.',
  run: (args, io) => {
    let protocolConfig: ProtocolConfig | undefined;
    if (args['protocol-version'] !== undefined) {
      protocolConfig = protocolConfigFor(io, args['protocol-version']);
    }
    const natives = suiNativeRegistry({ permissiveCrypto: args['permissive-crypto'] });
    // A call into the framework needs only its package and those it names (0x1::u64 needs 0x1).
    const address = /^(0x[0-9a-fA-F]{1,64})::/.exec(args.target)?.[1];
    const closureOf = address !== undefined && SYSTEM_PACKAGES.has(canonicalAddress(address)) ? [canonicalAddress(address)] : undefined;
    const vm = MoveVM.create({ packages: packagesFor(io, args.corpus, args.framework, closureOf), protocolConfig, natives });
    let sender: string;
    try {
      sender = canonicalAddress(args.sender);
    } catch {
      throw new UsageError(`--sender ${args.sender} is not an address`, 'INVALID_ADDRESS');
    }
    const runtime = new ObjectRuntime({
      tx: { sender, digest: new Uint8Array(32), epoch: 0n, epochTimestampMs: 0n, gasPrice: 1000n, rgp: 1000n, gasBudget: 50_000_000_000n, sponsor: null },
      bcs: vm.bcs,
      ...(protocolConfig ? { protocolConfig } : {}),
    });
    const parts = args.target.split('::');
    if (parts.length !== 3) throw new UsageError(`target ${args.target} is not address::module::function`, 'INVALID_TARGET');
    let result: CallResult;
    try {
      const fn = vm.resolveFunction(parts[0], parts[1], parts[2]);
      if (args['type-args'].length !== fn.typeParams.length) {
        const n = fn.typeParams.length;
        throw new UsageError(`${args.target} takes ${n} type argument${n === 1 ? '' : 's'} (--type-args), got ${args['type-args'].length}`, 'TYPE_ARGUMENT_COUNT');
      }
      const typeArgs = args['type-args'].map((t) => vm.resolveType(t, parts[0]));
      const params = fn.params.map((p) => vm.types.subst(p, typeArgs));
      const needed = params.filter((p) => !isTxContextRef(p)).length;
      if (args.args.length !== needed) {
        throw new UsageError(`${args.target} takes ${needed} argument${needed === 1 ? '' : 's'} (--args), got ${args.args.length}`, 'ARGUMENT_COUNT');
      }
      let next = 0;
      const callArgs = params.map((p) => {
        if (isTxContextRef(p)) return { $kind: 'Value' as const, value: runtime.txContextValue() };
        const text = args.args[next++] as string;
        // Positions in messages count from 1, as the user counts --args.
        const where = `argument ${next} (${formatType(p)})`;
        let json: Json;
        try {
          json = JSON.parse(text) as Json;
        } catch {
          throw new UsageError(`${where}: not JSON: ${text}`, 'INVALID_JSON');
        }
        // A JSON number above 2^53 has already lost digits: say what was typed, not the rounded value.
        const big = bigJsonNumber(text);
        if (big !== null) throw new UsageError(`${where}: ${big} is above 2^53 as a JSON number, which rounds it; quote it: '"${big}"'`, 'INVALID_ARGUMENT');
        return { $kind: 'Value' as const, value: valueFromJson(vm.types, json, p, where) };
      });
      result = vm.call(args.target, {
        typeArgs,
        args: callArgs,
        gasBudget: args['gas-budget'],
        extensions: new Map([[OBJECT_RUNTIME_KEY, runtime]]),
      });
    } catch (e) {
      // A module whose dependency closure misses a module cannot run any function (the VM
      // links eagerly): the call is reported, as a failed run is, not refused as bad input.
      if (e instanceof VmError && e.linkFailure !== undefined) {
        result = { $kind: 'Error', code: e.code, message: e.message, subStatus: undefined, location: undefined, gasUsed: 0, modulesTouched: [] };
      } else if (e instanceof VmError) throw toCliError(e);
      else throw e;
    }
    const out = callResultJson(vm, result);
    if (result.$kind === 'Success') Object.assign(out, effectsJson(vm, runtime));
    if (args['permissive-crypto']) out.permissive_crypto = true;
    io.stdout(args.json ? jsonLine(out) : humanResult(vm, result) + humanEffects(out));
    return 0;
  },
});
