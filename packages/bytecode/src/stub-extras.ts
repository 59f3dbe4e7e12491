/**
 * Source-level declarations of the framework that bytecode does not keep, re-added to
 * its stubs so that code written against the real framework compiles against them:
 *
 * - `#[defines_primitive(T)]` on the `std` modules that give primitive types their
 *   methods (`v.length()`, `x.min(y)`);
 * - `#[syntax(index)]` on the functions behind `v[i]`, `map[&k]`, `table[k]`;
 * - `public use fun` method aliases (`id.to_inner()`, `coin.split_vec(...)`).
 *
 * The lists follow the upstream sources (`crates/sui-framework/packages/*`). Each entry is
 * emitted only when the bytecode has what it names, so older framework versions get the
 * subset that applies. Macros (`public macro fun`) cannot be recovered: they have no
 * bytecode.
 */

/** Source-only declarations of one module. */
export interface ModuleSourceExtras {
  /** The primitive type this `std` module defines methods for. */
  definesPrimitive?: string;
  /** Functions marked `#[syntax(index)]`. */
  indexFunctions?: readonly string[];
  /**
   * `public use fun` aliases: `[function, type, method]`. `function` is a function of
   * this module, or `module::function` in the same package; `type` is a datatype of
   * this module, or the module's primitive.
   */
  methodAliases?: readonly (readonly [string, string, string])[];
}

const PRIMITIVE_MODULES = ['address', 'bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256'];

const FRAMEWORK_EXTRAS: ReadonlyMap<string, ModuleSourceExtras> = new Map<string, ModuleSourceExtras>([
  [
    '0x1::vector',
    {
      definesPrimitive: 'vector',
      indexFunctions: ['borrow', 'borrow_mut'],
      methodAliases: [
        ['string::utf8', 'vector', 'to_string'],
        ['string::try_utf8', 'vector', 'try_to_string'],
        ['ascii::string', 'vector', 'to_ascii_string'],
        ['ascii::try_string', 'vector', 'try_to_ascii_string'],
      ],
    },
  ],
  ...PRIMITIVE_MODULES.map((p): [string, ModuleSourceExtras] => [`0x1::${p}`, { definesPrimitive: p }]),
  ['0x1::ascii', { methodAliases: [['string::from_ascii', 'String', 'to_string']] }],
  [
    '0x1::string',
    {
      methodAliases: [
        ['bytes', 'String', 'as_bytes'],
        ['sub_string', 'String', 'substring'],
      ],
    },
  ],
  [
    '0x2::object',
    {
      methodAliases: [
        ['id_to_address', 'ID', 'to_address'],
        ['id_to_bytes', 'ID', 'to_bytes'],
        ['uid_as_inner', 'UID', 'as_inner'],
        ['uid_to_inner', 'UID', 'to_inner'],
        ['uid_to_address', 'UID', 'to_address'],
        ['uid_to_bytes', 'UID', 'to_bytes'],
      ],
    },
  ],
  [
    '0x2::coin',
    {
      methodAliases: [
        ['pay::split_vec', 'Coin', 'split_vec'],
        ['pay::join_vec', 'Coin', 'join_vec'],
        ['pay::split_and_transfer', 'Coin', 'split_and_transfer'],
        ['pay::divide_and_keep', 'Coin', 'divide_and_keep'],
        ['treasury_into_supply', 'TreasuryCap', 'into_supply'],
      ],
    },
  ],
  [
    '0x2::balance',
    {
      methodAliases: [
        ['coin::from_balance', 'Balance', 'into_coin'],
        ['supply_value', 'Supply', 'value'],
      ],
    },
  ],
  ['0x2::vec_map', { indexFunctions: ['get', 'get_mut'] }],
  ['0x2::table', { indexFunctions: ['borrow', 'borrow_mut'] }],
  ['0x2::bag', { indexFunctions: ['borrow', 'borrow_mut'] }],
  ['0x2::object_table', { indexFunctions: ['borrow', 'borrow_mut'] }],
  ['0x2::object_bag', { indexFunctions: ['borrow', 'borrow_mut'] }],
  ['0x2::linked_table', { indexFunctions: ['borrow', 'borrow_mut'] }],
  ['0x2::table_vec', { indexFunctions: ['borrow', 'borrow_mut'] }],
]);

/**
 * The source-only declarations of a framework module (`address` short or canonical),
 * or `undefined` when there are none.
 */
export function frameworkSourceExtras(address: string, moduleName: string): ModuleSourceExtras | undefined {
  const short = '0x' + (address.toLowerCase().replace(/^0x/, '').replace(/^0+/, '') || '0');
  return FRAMEWORK_EXTRAS.get(`${short}::${moduleName}`);
}
