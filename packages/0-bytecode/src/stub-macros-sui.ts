/** Our declarations of the public macros of the Sui framework (0x2) (see `stub-macros.ts`). */
import { macro, type MacroDeclaration } from './stub-extras-types.js';

const OPT = 'std::option::Option';

/** `sui::bcs`. */
export const BCS_MACROS: MacroDeclaration[] = [
  macro(
    'peel_vec',
    ['bcs::peel_vec_length', '0x1::vector::tabulate!'],
    `
public macro fun peel_vec<$T>($bcs: &mut BCS, $peel: |&mut BCS| -> $T): vector<$T> {
    let bcs = $bcs;
    std::vector::tabulate!(bcs.peel_vec_length(), |_| $peel(bcs))
}`,
  ),
  macro(
    'peel_option',
    ['bcs::peel_bool'],
    `
public macro fun peel_option<$T>($bcs: &mut BCS, $peel: |&mut BCS| -> $T): ${OPT}<$T> {
    let bcs = $bcs;
    if (bcs.peel_bool()) std::option::some($peel(bcs)) else std::option::none()
}`,
  ),
];

/** `sui::dynamic_field` and `sui::dynamic_object_field` (`valueAbilities` of the stored value). */
export function fieldMacros(module: string, valueAbilities: string): MacroDeclaration[] {
  const name = '$Name: copy + drop + store';
  const value = `$Value: ${valueAbilities}`;
  const uid = 'sui::object::UID';
  // Newer frameworks name the test `exists`; older ones only `exists_`. The first declaration
  // of a name whose needs hold is the one declared.
  return (['exists', 'exists_'] as const).flatMap((test) => fieldMacrosWith(module, name, value, uid, test));
}

function fieldMacrosWith(module: string, name: string, value: string, uid: string, test: string): MacroDeclaration[] {
  const needs = (...fns: string[]) => [`${module}::${test}`, ...fns.map((f) => `${module}::${f}`)];
  return [
    ...(['', '_mut'] as const).map((mut) =>
      macro(
        `borrow${mut}_or_add`,
        needs('add', `borrow${mut}`),
        `
public macro fun borrow${mut}_or_add<${name}, ${value}>($object: &mut ${uid}, $name: $Name, $default: $Value): &${mut ? 'mut ' : ''}$Value {
    let o = $object;
    let name = $name;
    if (!${test}<$Name>(o, name)) add(o, name, $default);
    borrow${mut}(o, name)
}`,
      ),
    ),
    ...(['', '_mut'] as const).map((mut) =>
      macro(
        `get${mut}_do`,
        needs(`borrow${mut}`),
        `
public macro fun get${mut}_do<${name}, ${value}, $R: drop>($object: &${mut ? 'mut ' : ''}${uid}, $name: $Name, $f: |&${mut ? 'mut ' : ''}$Value| -> $R) {
    let o = $object;
    let name = $name;
    if (${test}<$Name>(o, name)) { $f(borrow${mut}(o, name)); }
}`,
      ),
    ),
    ...(['', '_mut'] as const).map((mut) =>
      macro(
        `get${mut}_fold`,
        needs(`borrow${mut}`),
        `
public macro fun get${mut}_fold<${name}, ${value}, $R>($object: &${mut ? 'mut ' : ''}${uid}, $name: $Name, $none: $R, $some: |&${mut ? 'mut ' : ''}$Value| -> $R): $R {
    let o = $object;
    let name = $name;
    if (${test}<$Name>(o, name)) $some(borrow${mut}(o, name)) else $none
}`,
      ),
    ),
  ];
}

/** `sui::party`. */
export const PARTY_MACROS: MacroDeclaration[] = [
  macro('transfer', ['transfer::party_transfer'], `public macro fun transfer<$T: key>($self: Party, $obj: $T) { let mp = $self; sui::transfer::party_transfer($obj, mp) }`),
  macro(
    'public_transfer',
    ['transfer::public_party_transfer'],
    `public macro fun public_transfer<$T: key + store>($self: Party, $obj: $T) { let mp = $self; sui::transfer::public_party_transfer($obj, mp) }`,
  ),
];

/** `sui::scratch`: the borrow macros over a transaction's scratch space, and the `internal_` forms with the caller's permit. */
export function scratchMacros(): MacroDeclaration[] {
  const ctx = 'sui::tx_context::TxContext';
  const k = '$K: copy + drop';
  const permit = 'permit(std::internal::permit<$K>())';
  const borrow = ['scratch::exists', 'scratch::begin_borrow', 'scratch::end_borrow'];
  const out: MacroDeclaration[] = [];
  for (const mut of ['', '_mut'] as const) {
    const ref = mut ? '&mut ' : '&';
    const bind = mut ? 'let (mut value, marker)' : 'let (value, marker)';
    out.push(
      macro(
        `get${mut}_do`,
        borrow,
        `
public macro fun get${mut}_do<${k}, $V: drop, $R: drop>($ctx: &mut ${ctx}, $permit: Permit<$K>, $key: $K, $f: |${ref}$V| -> $R) {
    let ctx = $ctx;
    let permit = $permit;
    let key = $key;
    if (!exists(ctx, permit, key)) return;
    ${bind} = begin_borrow<$K, $V>(ctx, permit, key);
    $f(${ref}value);
    end_borrow(ctx, permit, key, value, marker);
}`,
      ),
      macro(
        `get${mut}_fold`,
        borrow,
        `
public macro fun get${mut}_fold<${k}, $V: drop, $R>($ctx: &mut ${ctx}, $permit: Permit<$K>, $key: $K, $none: $R, $some: |${ref}$V| -> $R): $R {
    let ctx = $ctx;
    let permit = $permit;
    let key = $key;
    if (!exists(ctx, permit, key)) return ($none);
    ${bind} = begin_borrow<$K, $V>(ctx, permit, key);
    let r = $some(${ref}value);
    end_borrow(ctx, permit, key, value, marker);
    r
}`,
      ),
    );
  }
  const internal = (name: string, tps: string, params: string, ret: string, call: string, needs: string[]) =>
    macro(`internal_${name}`, ['scratch::permit', ...needs], `public macro fun internal_${name}<${tps}>(${params})${ret} { ${call} }`);
  out.push(
    internal('add', `${k}, $V: drop`, `$ctx: &mut ${ctx}, $key: $K, $value: $V`, '', `add($ctx, ${permit}, $key, $value)`, ['scratch::add']),
    internal('read', `${k}, $V: copy + drop`, `$ctx: &${ctx}, $key: $K`, ': $V', `read<$K, $V>($ctx, ${permit}, $key)`, ['scratch::read']),
    internal('remove', `${k}, $V: drop`, `$ctx: &mut ${ctx}, $key: $K`, ': $V', `remove<$K, $V>($ctx, ${permit}, $key)`, ['scratch::remove']),
    internal('exists', k, `$ctx: &${ctx}, $key: $K`, ': bool', `exists($ctx, ${permit}, $key)`, ['scratch::exists']),
    internal('exists_with_type', `${k}, $V: drop`, `$ctx: &${ctx}, $key: $K`, ': bool', `exists_with_type<$K, $V>($ctx, ${permit}, $key)`, ['scratch::exists_with_type']),
    internal('read_opt', `${k}, $V: copy + drop`, `$ctx: &${ctx}, $key: $K`, `: ${OPT}<$V>`, `read_opt<$K, $V>($ctx, ${permit}, $key)`, ['scratch::read_opt']),
    internal('remove_opt', `${k}, $V: drop`, `$ctx: &mut ${ctx}, $key: $K`, `: ${OPT}<$V>`, `remove_opt<$K, $V>($ctx, ${permit}, $key)`, ['scratch::remove_opt']),
    internal('replace', `${k}, $VNew: drop, $VOld: drop`, `$ctx: &mut ${ctx}, $key: $K, $value: $VNew`, `: ${OPT}<$VOld>`, `replace<$K, $VNew, $VOld>($ctx, ${permit}, $key, $value)`, [
      'scratch::replace',
    ]),
  );
  for (const mut of ['', '_mut'] as const) {
    const ref = mut ? '&mut ' : '&';
    out.push(
      internal(`get${mut}_do`, `${k}, $V: drop, $R: drop`, `$ctx: &mut ${ctx}, $key: $K, $f: |${ref}$V| -> $R`, '', `get${mut}_do!<$K, $V, $R>($ctx, ${permit}, $key, $f)`, [`scratch::get${mut}_do!`]),
      internal(`get${mut}_fold`, `${k}, $V: drop, $R`, `$ctx: &mut ${ctx}, $key: $K, $none: $R, $some: |${ref}$V| -> $R`, ': $R', `get${mut}_fold!<$K, $V, $R>($ctx, ${permit}, $key, $none, $some)`, [
        `scratch::get${mut}_fold!`,
      ]),
    );
  }
  return out;
}
