/**
 * The framework's public macros, declared for its stubs.
 *
 * A macro (`public macro fun`) has no bytecode: the compiler inlines its body into the
 * caller, so a stub generated from bytecode cannot offer `v.do!(...)` or `u64::max_value!()`.
 * These are our declarations of every public macro of the framework packages we hold, with
 * the upstream signatures (names, type parameters, lambda shapes) and bodies that do the same
 * thing in the same order: the same calls, the same evaluation order of `$` arguments, the same
 * aborts, so code compiled against them computes (and pays gas for) what code compiled against
 * the real framework does.
 *
 * Each macro lists the public functions (and macros) of its own package that its body uses;
 * it is declared only when the bytecode has them, so an older framework gets the subset
 * that applies. The full list of upstream public macros, which this file must cover, is in
 * `framework-extras.generated.ts` (see `scripts/derive-framework-extras.mjs`).
 */
import { macro, type MacroDeclaration } from './stub-extras-types.js';
import { OPTION_MACROS, VECTOR_MACROS } from './stub-macros-std.js';
import { BCS_MACROS, fieldMacros, PARTY_MACROS, scratchMacros } from './stub-macros-sui.js';

export type { MacroDeclaration };

/** `std::macros`: the generic integer macros the `uN` modules forward to. */
const STD_MACROS: MacroDeclaration[] = [
  ...(['shl', 'shr'] as const).map((op) =>
    macro(
      `num_checked_${op}`,
      ['option::some', 'option::none'],
      `
public macro fun num_checked_${op}<$T>($x: $T, $shift: u8, $bit_size: u8): std::option::Option<$T> {
    let x = $x;
    let shift = $shift;
    let bit_size = $bit_size;
    if (shift >= bit_size) std::option::none() else std::option::some(x ${op === 'shl' ? '<<' : '>>'} shift)
}`,
    ),
  ),
  ...(['shl', 'shr'] as const).map((op) => {
    const [there, back] = op === 'shl' ? ['<<', '>>'] : ['>>', '<<'];
    return macro(
      `num_lossless_${op}`,
      ['option::some', 'option::none'],
      `
public macro fun num_lossless_${op}<$T>($x: $T, $shift: u8, $bit_size: u8): std::option::Option<$T> {
    let x = $x;
    let shift = $shift;
    let bit_size = $bit_size;
    if (shift >= bit_size) std::option::none()
    else {
        let result = x ${there} shift;
        if (result ${back} shift == x) std::option::some(result) else std::option::none()
    }
}`,
    );
  }),
  macro(
    'num_lossless_div',
    ['option::some', 'option::none'],
    `
public macro fun num_lossless_div<$T>($x: $T, $y: $T): std::option::Option<$T> {
    let x = $x;
    let y = $y;
    if (y == 0) std::option::none()
    else if (x % y == 0) std::option::some(x / y)
    else std::option::none()
}`,
  ),
  macro(
    'range_do',
    [],
    `
public macro fun range_do<$T, $R: drop>($start: $T, $stop: $T, $f: |$T| -> $R) {
    let mut i = $start;
    let stop = $stop;
    while (i < stop) {
        $f(i);
        i = i + 1;
    }
}`,
  ),
  macro(
    'range_do_eq',
    [],
    `
public macro fun range_do_eq<$T, $R: drop>($start: $T, $stop: $T, $f: |$T| -> $R) {
    let mut i = $start;
    let stop = $stop;
    if (i > stop) return;
    loop {
        $f(i);
        if (i >= stop) break;
        i = i + 1;
    }
}`,
  ),
  macro('do', ['macros::range_do!'], `public macro fun do<$T, $R: drop>($stop: $T, $f: |$T| -> $R) { range_do!(0, $stop, $f) }`),
  macro('do_eq', ['macros::range_do_eq!'], `public macro fun do_eq<$T, $R: drop>($stop: $T, $f: |$T| -> $R) { range_do_eq!(0, $stop, $f) }`),
];

/** `std::u8` ... `std::u256`: the maximum value and the loops, forwarding to `std::macros`. */
function integerMacros(width: number): MacroDeclaration[] {
  const t = `u${width}`;
  const max = '0x' + 'F'.repeat(width / 4);
  const forward = (name: string, params: string, args: string): MacroDeclaration =>
    macro(name, [`macros::${name}!`], `public macro fun ${name}<$R: drop>(${params}, $f: |${t}| -> $R) { std::macros::${name}!(${args}, $f) }`);
  return [
    macro('max_value', [], `public macro fun max_value(): ${t} { ${max} }`),
    forward('range_do', `$start: ${t}, $stop: ${t}`, '$start, $stop'),
    forward('range_do_eq', `$start: ${t}, $stop: ${t}`, '$start, $stop'),
    forward('do', `$stop: ${t}`, '$stop'),
    forward('do_eq', `$stop: ${t}`, '$stop'),
  ];
}

const FRAMEWORK_MACROS: ReadonlyMap<string, readonly MacroDeclaration[]> = new Map<string, readonly MacroDeclaration[]>([
  ['0x1::macros', STD_MACROS],
  ...[8, 16, 32, 64, 128, 256].map((w): [string, MacroDeclaration[]] => [`0x1::u${w}`, integerMacros(w)]),
  ['0x1::vector', VECTOR_MACROS],
  ['0x1::option', OPTION_MACROS],
  ['0x2::bcs', BCS_MACROS],
  ['0x2::dynamic_field', fieldMacros('dynamic_field', 'store')],
  ['0x2::dynamic_object_field', fieldMacros('dynamic_object_field', 'key + store')],
  ['0x2::party', PARTY_MACROS],
  ['0x2::scratch', scratchMacros()],
]);

/** The macros declared for a framework module (`address` short or canonical); empty when it has none. */
export function frameworkMacros(address: string, moduleName: string): readonly MacroDeclaration[] {
  const short = '0x' + (address.toLowerCase().replace(/^0x/, '').replace(/^0+/, '') || '0');
  return FRAMEWORK_MACROS.get(`${short}::${moduleName}`) ?? [];
}

/** Every module that has declared macros, as `0x<short address>::<module>`. */
export function frameworkMacroModules(): string[] {
  return [...FRAMEWORK_MACROS.keys()];
}
