/**
 * `baseline-search`: the original's PTB synthesis without a model (`inhabit/executable_subset.py`,
 * §10.5). Candidates are the package's `public entry` functions (by module, then function); a
 * trailing `&TxContext` is supplied by the runtime; type parameters become `0x2::sui::SUI`;
 * every other parameter gets a default value, a system object, the sender's coin, a setup call
 * for the standard types, a constructor found up to depth 3, or a `$smi_placeholder` the run
 * resolves from the objects that exist.
 *
 * Beyond the original: `u128`/`u256` get defaults too (it refused them), and the exclusion
 * reasons are kept per function for the manifest's viability report.
 */
import { canonicalAddress, type CompiledModule, formatToken, type MovePackage, type SignatureToken, type Json } from '@smi/bytecode';

const SUI = '0x2::sui::SUI';
const pad = (a: string) => canonicalAddress(a);
const ADDR_2 = pad('0x2');

/** Why a function is not a candidate. */
export type ExclusionReason = 'not_public_entry' | 'unsupported_param_type' | 'no_candidates' | 'interface_missing_or_invalid';

/** A candidate plan for one function, or why there is none. */
export type BaselineCandidate = { $kind: 'Ok'; target: string; typeParams: number; plan: Json } | { $kind: 'Rejected'; target: string; typeParams: number; reason: ExclusionReason; detail: string };

interface FnInfo {
  m: CompiledModule;
  name: string;
  target: string;
  typeParams: number;
  params: SignatureToken[];
  returns: SignatureToken[];
  isEntry: boolean;
  isPublic: boolean;
}

function functionsOf(pkg: MovePackage): FnInfo[] {
  const out: FnInfo[] = [];
  for (const { name: modName, module: m } of [...pkg.modules].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const defs = [...m.functionDefs].sort((a, b) => {
      const x = m.identifiers[m.functionHandles[a.function].name];
      const y = m.identifiers[m.functionHandles[b.function].name];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    for (const d of defs) {
      const h = m.functionHandles[d.function];
      const name = m.identifiers[h.name];
      out.push({
        m,
        name,
        target: `${pkg.id}::${modName}::${name}`,
        typeParams: h.typeParameters.length,
        params: [...m.signatures[h.parameters]],
        returns: [...m.signatures[h.return]],
        isEntry: d.isEntry,
        isPublic: d.visibility === 'Public',
      });
    }
  }
  return out;
}

/** A type as text with full addresses, type parameters as `SUI`. */
function typeText(m: CompiledModule, t: SignatureToken): string {
  return formatToken(m, t, { fullAddresses: true, typeParamName: () => SUI });
}

function baseOf(text: string): string {
  const lt = text.indexOf('<');
  return lt < 0 ? text : text.slice(0, lt);
}

function isTxContext(m: CompiledModule, t: SignatureToken): boolean {
  const inner = t.$kind === 'Reference' || t.$kind === 'MutableReference' ? t.type : t;
  return baseOf(typeText(m, inner)) === `${ADDR_2}::tx_context::TxContext`;
}

const INT_DEFAULT: Record<string, Json> = { U8: { u8: 1 }, U16: { u16: 1 }, U32: { u32: 1 }, U64: { u64: 1 }, U128: { u128: 1 }, U256: { u256: 1 } };

/** Plan-building state for one candidate: setup calls come first, the target last. */
class Builder {
  readonly calls: Json[] = [];
  constructor(
    private readonly fns: readonly FnInfo[],
    private readonly depth: number,
  ) {}

  /** The argument for a parameter, or `undefined` when the type is unsupported. */
  arg(m: CompiledModule, t: SignatureToken, depth: number): Json | undefined {
    const byRef = t.$kind === 'Reference' || t.$kind === 'MutableReference';
    const mutable = t.$kind === 'MutableReference';
    const inner = byRef ? t.type : t;
    if (inner.$kind in INT_DEFAULT) return byRef ? undefined : INT_DEFAULT[inner.$kind];
    if (inner.$kind === 'Bool') return byRef ? undefined : { bool: false };
    if (inner.$kind === 'Address') return byRef ? undefined : { address: '0x' + '1'.repeat(64) };
    if (inner.$kind === 'Vector') {
      if (byRef) return undefined;
      const e = inner.type;
      if (e.$kind === 'U8') return { vector_u8_hex: '0x01' };
      if (e.$kind === 'Bool') return { vector_bool: [false] };
      if (e.$kind === 'Address') return { vector_address: ['0x' + '1'.repeat(64)] };
      if (e.$kind in INT_DEFAULT) return { [`vector_${e.$kind.toLowerCase()}`]: [1] };
      return undefined;
    }
    if (inner.$kind === 'TypeParameter' || inner.$kind === 'Signer') return undefined;
    const text = typeText(m, inner);
    const base = baseOf(text);
    if (base === `${ADDR_2}::coin::Coin` && text.endsWith(`<${pad('0x2')}::sui::SUI>`)) return { sender_sui_coin: { index: 0, exclude_gas: true } };
    if (base === `${ADDR_2}::clock::Clock`) return { shared_object: { id: pad('0x6'), mutable } };
    if (base === `${ADDR_2}::random::Random`) return { shared_object: { id: pad('0x8'), mutable } };
    if (base === `${ADDR_2}::deny_list::DenyList`) return { shared_object: { id: pad('0x403'), mutable } };
    if (!byRef) {
      const setup = this.standard(base, text);
      if (setup !== undefined) return setup;
    }
    if (depth < this.depth) {
      const made = this.construct(text, depth + 1);
      if (made !== undefined) return made;
    }
    return { $smi_placeholder: text };
  }

  /** Setup calls for the standard types (`String`, `ascii::String`, `Url`, `Option<T>`). */
  private standard(base: string, text: string): Json | undefined {
    const std = pad('0x1');
    const call = (target: string, args: Json[], typeArgs: string[] = []): Json => {
      this.calls.push({ target, type_args: typeArgs, args });
      return { result: this.calls.length - 1 };
    };
    if (base === `${std}::string::String`) return call(`${std}::string::utf8`, [{ vector_u8_utf8: 'sui' }]);
    if (base === `${std}::ascii::String`) return call(`${std}::ascii::string`, [{ vector_u8_utf8: 'sui' }]);
    if (base === `${ADDR_2}::url::Url`) return call(`${ADDR_2}::url::new_unsafe_from_bytes`, [{ vector_u8_utf8: 'https://sui.io' }]);
    if (base === `${std}::option::Option`) return call(`${std}::option::none`, [], [text.slice(text.indexOf('<') + 1, -1)]);
    return undefined;
  }

  /** A call of a non-generic public function returning `text`, its own arguments built recursively. */
  private construct(text: string, depth: number): Json | undefined {
    for (const f of this.fns) {
      if (!f.isPublic || f.typeParams > 0 || f.returns.length !== 1 || typeText(f.m, f.returns[0]) !== text) continue;
      const mark = this.calls.length;
      const args: Json[] = [];
      let ok = true;
      const params = f.params.length > 0 && isTxContext(f.m, f.params[f.params.length - 1]) ? f.params.slice(0, -1) : f.params;
      for (const p of params) {
        const a = this.arg(f.m, p, depth);
        if (a === undefined || (typeof a === 'object' && a !== null && '$smi_placeholder' in a)) {
          ok = false;
          break;
        }
        args.push(a);
      }
      if (!ok) {
        this.calls.length = mark;
        continue;
      }
      this.calls.push({ target: f.target, type_args: [], args });
      return { result: this.calls.length - 1 };
    }
    return undefined;
  }
}

/** The candidates of a package, as the original's `analyze_package` (`candidates_ok` first in order). */
export function baselineCandidates(pkg: MovePackage, options: { maxConstructorDepth?: number } = {}): BaselineCandidate[] {
  const fns = functionsOf(pkg);
  const out: BaselineCandidate[] = [];
  for (const f of fns) {
    if (!f.isPublic || !f.isEntry) {
      out.push({ $kind: 'Rejected', target: f.target, typeParams: f.typeParams, reason: 'not_public_entry', detail: 'not public entry' });
      continue;
    }
    const b = new Builder(fns, options.maxConstructorDepth ?? 3);
    const params = f.params.length > 0 && isTxContext(f.m, f.params[f.params.length - 1]) ? f.params.slice(0, -1) : f.params;
    const args: Json[] = [];
    let unsupported: string | null = null;
    for (const p of params) {
      const a = b.arg(f.m, p, 0);
      if (a === undefined) {
        unsupported = typeText(f.m, p);
        break;
      }
      args.push(a);
    }
    if (unsupported !== null) {
      out.push({ $kind: 'Rejected', target: f.target, typeParams: f.typeParams, reason: 'unsupported_param_type', detail: unsupported });
      continue;
    }
    b.calls.push({ target: f.target, type_args: Array(f.typeParams).fill(SUI), args });
    out.push({ $kind: 'Ok', target: f.target, typeParams: f.typeParams, plan: { calls: b.calls } });
  }
  return out;
}
