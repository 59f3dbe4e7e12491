/**
 * Parsing of Move type tags (`u64`, `vector<u8>`, `0x2::coin::Coin<0x2::sui::SUI>`) into
 * an AST, and resolution of that AST to runtime types through a resolver.
 */
import { canonicalAddress, isPrimitiveName, type PrimitiveName } from '@smi/bytecode';
import { VmError } from '../errors.js';
import type { DatatypeInfo, Type, TypeTable } from './runtime-type.js';

/** A parsed type tag. */
export type TypeTagAst =
  | { $kind: 'Primitive'; name: PrimitiveName }
  | { $kind: 'Vector'; elem: TypeTagAst }
  | { $kind: 'Datatype'; address: string; module: string; name: string; typeArgs: TypeTagAst[] };

function parseError(text: string, msg: string): VmError {
  return new VmError('TYPE_MISMATCH', `invalid type tag ${JSON.stringify(text)}: ${msg}`);
}

/**
 * Parse a type tag. Addresses may be short (`0x2`).
 * @throws {VmError} `TYPE_MISMATCH` on malformed text.
 */
export function parseTypeTag(text: string): TypeTagAst {
  const src = text.trim();
  let pos = 0;
  const ws = () => {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const ident = (): string => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(pos));
    if (!m) throw parseError(text, `expected an identifier at ${pos}`);
    pos += m[0].length;
    return m[0];
  };
  const expect = (s: string) => {
    ws();
    if (!src.startsWith(s, pos)) throw parseError(text, `expected "${s}" at ${pos}`);
    pos += s.length;
  };
  const parse = (depth: number): TypeTagAst => {
    if (depth > 64) throw parseError(text, 'nested too deeply');
    ws();
    const addr = /^0x[0-9a-fA-F]+/.exec(src.slice(pos));
    if (addr) {
      pos += addr[0].length;
      let address: string;
      try {
        address = canonicalAddress(addr[0]);
      } catch {
        throw parseError(text, `bad address ${addr[0]}`);
      }
      expect('::');
      const module = ident();
      expect('::');
      const name = ident();
      const typeArgs: TypeTagAst[] = [];
      ws();
      if (src[pos] === '<') {
        pos++;
        for (;;) {
          typeArgs.push(parse(depth + 1));
          ws();
          if (src[pos] === ',') {
            pos++;
            continue;
          }
          expect('>');
          break;
        }
      }
      return { $kind: 'Datatype', address, module, name, typeArgs };
    }
    const id = ident();
    if (id === 'vector') {
      expect('<');
      const elem = parse(depth + 1);
      expect('>');
      return { $kind: 'Vector', elem };
    }
    if (!isPrimitiveName(id)) throw parseError(text, `unknown type ${id}`);
    return { $kind: 'Primitive', name: id };
  };
  const ast = parse(0);
  ws();
  if (pos !== src.length) throw parseError(text, `unexpected text at ${pos}`);
  return ast;
}

/** Finds datatypes for {@link resolveTypeTag}. */
export type DatatypeResolver = (address: string, module: string, name: string) => DatatypeInfo;

/** Resolve a parsed tag to a runtime type, checking type-argument counts. */
export function resolveTypeTag(table: TypeTable, ast: TypeTagAst, resolve: DatatypeResolver): Type {
  switch (ast.$kind) {
    case 'Primitive':
      return table[ast.name];
    case 'Vector':
      return table.vector(resolveTypeTag(table, ast.elem, resolve));
    case 'Datatype': {
      const info = resolve(ast.address, ast.module, ast.name);
      if (info.typeParams.length !== ast.typeArgs.length) {
        throw new VmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `${ast.module}::${ast.name} takes ${info.typeParams.length} type arguments, got ${ast.typeArgs.length}`);
      }
      const args = ast.typeArgs.map((a) => resolveTypeTag(table, a, resolve));
      info.typeParams.forEach((p, i) => {
        if ((args[i].abilities & p.constraints) !== p.constraints) {
          throw new VmError('CONSTRAINT_NOT_SATISFIED', `type argument ${i} of ${ast.module}::${ast.name} lacks required abilities`);
        }
      });
      return table.datatype(info, args);
    }
  }
}
