/**
 * Unit tests of the lexer, parser, assembler and transactional-test helpers that need no
 * fixtures.
 */
import { describe, expect, it } from 'vitest';
import { deserializeModule, disassembleModule, type CompiledModule } from '@smi/bytecode';
import {
  IrCompileError,
  IrParseError,
  Lexer,
  compareWithSnapshot,
  compileIrModule,
  encodeConstantValue,
  parseModule,
  parseSnapshot,
  parseTransactionalTestFile,
  runTransactionalTestFile,
  type Tok,
} from '@smi/move-ir';

function tokens(text: string): [Tok, string][] {
  const lx = new Lexer(text);
  const out: [Tok, string][] = [];
  for (lx.advance(); lx.peek() !== 'EOF'; lx.advance()) out.push([lx.peek(), lx.content()]);
  return out;
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error');
}

describe('lexer', () => {
  it('lexes upstream token shapes', () => {
    expect(tokens('vector<u64; 0>() copy(x) copy &mut y &x vec_len<u8> h"00ff" 0x1 7u8 @A // c')).toEqual([
      ['NameBeginTyValue', 'vector<'],
      ['NameValue', 'u64'],
      ['Semicolon', ';'],
      ['U64Value', '0'],
      ['Greater', '>'],
      ['LParen', '('],
      ['RParen', ')'],
      ['Copy', 'copy('],
      ['NameValue', 'x'],
      ['RParen', ')'],
      ['Copy', 'copy'],
      ['AmpMut', '&mut '],
      ['NameValue', 'y'],
      ['Amp', '&'],
      ['NameValue', 'x'],
      ['VecLen', 'vec_len'],
      ['Less', '<'],
      ['NameValue', 'u8'],
      ['Greater', '>'],
      ['ByteArrayValue', 'h"00ff"'],
      ['AccountAddressValue', '0x1'],
      ['U8Value', '7u8'],
      ['At', '@'],
      ['NameValue', 'A'],
    ]);
  });
});

describe('parser errors carry upstream texts', () => {
  const cases: [string, string][] = [
    ['mvir 0x1::M { public struct T { x: u64, f() {} } }', 'ParserError: Invalid Token: expected Colon, not LParen'],
    ['module 0x1::M {}', 'ParserError: Invalid Token: expected Mvir, not NameValue'],
    ['mvir 0x1::M { const c: u64 = 1u64; }', 'ParserError: Invalid Token: constant names must begin with an uppercase letter'],
    ['mvir 0x1::M { const C: u64 = 1; }', 'ParserError: Invalid Token: integer constant value requires a type suffix (e.g. 7u64)'],
    ['mvir 0x1::M { struct T { x: u64 } }', "ParserError: Invalid Token: struct declarations require an explicit 'public' visibility"],
    ['mvir 0x1::M { public struct T has copy, copy { x: u64 } }', "ParserError: Duplicate ability 'copy'"],
  ];
  for (const [source, message] of cases) {
    it(message, () => {
      const e = errorOf(() => parseModule(source));
      expect(e).toBeInstanceOf(IrParseError);
      expect((e as IrParseError).code).toBe('PARSE_ERROR');
      expect(e.message).toBe(message);
    });
  }
});

describe('assembler', () => {
  const source = `
mvir 0x42::M {
    import 0x43::N;
    public struct S<T: copy + drop> has copy, drop { v: T }
    public enum E has drop { A { }, B { x: u64 } }
    const C: vector<u8> = h"beef";

    public fun f<T: copy + drop>(s: Self::S<T>, n: N::R): T * u64 {
        let e: Self::E;
        let x: u64;
    label b0:
        e = E::B { x: 1 };
        variant_switch E (&e) { A: b1, B: b2 };
    label b1:
        abort 0;
    label b2:
        E::B { x } = move(e);
        assert(copy(x) == 1, 7);
        _ = N::g(move(n));
        _ = copy(C);
        return *&(&s).S<T>::v, move(x);
    }
}`;
  const dep = compileIrModule('mvir 0x43::N { public struct R has drop { a: bool } public fun g(r: Self::R): bool { let a: bool; label b0: R { a } = move(r); return move(a); } }').module;

  it('produces a module that serializes and loads back identical', () => {
    const { module, bytes, sourceNames } = compileIrModule(source, { dependencies: [dep] });
    const json = (m: CompiledModule) => JSON.stringify(m, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v instanceof Uint8Array ? [...v] : v));
    expect(json(deserializeModule(bytes))).toBe(json(module));
    // `R` comes before `f`: the signature is compiled before the function's name is interned.
    expect(module.identifiers).toEqual(['M', 'N', 'S', 'E', 'R', 'f', 'v', 'A', 'B', 'x', 'g']);
    expect(module.moduleHandles).toHaveLength(2);
    const text = disassembleModule(module, { sourceNames });
    expect(text).toContain('public f<T: copy + drop>(s: S<T>, n: R): T * u64 {');
    expect(text).toContain('Call N::g(R): bool');
  });

  it('resolves dependencies through a callback and reports unbound names', () => {
    const e = errorOf(() => compileIrModule(source, { dependencies: () => undefined }));
    expect(e).toBeInstanceOf(IrCompileError);
    expect(e.message).toBe('Dependency not provided for 0000000000000000000000000000000000000000000000000000000000000043::N');
    expect(errorOf(() => compileIrModule('mvir 0x1::M { fun f(x: Self::Q) { label b0: return; } }')).message).toBe('Unbound struct Self::Q');
  });

  it('encodes constants as BCS of the value', () => {
    expect([...encodeConstantValue({ $kind: 'Vector', elements: [{ $kind: 'U64', value: 1n }] })]).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0]);
    const { module } = compileIrModule('unpublishable mvir 0x1::M { const A: u16 = 258u16; }');
    expect(module.publishable).toBe(false);
    expect([...module.constantPool[0].data]).toEqual([2, 1]);
  });
});

describe('transactional tests', () => {
  const file = '// header comment\n//# init --addresses A=0x1\n\n//# print-bytecode \n// note\nmvir A::M {\n\n}\n\n//# publish\nmvir 0x1::N { }\n';

  it('splits tasks as upstream taskify does', () => {
    const tasks = parseTransactionalTestFile(file);
    expect(tasks.map((t) => [t.number, t.command, t.args, t.taskText, t.startLine, t.stopLine])).toEqual([
      [0, 'init', ['--addresses', 'A=0x1'], '//# init --addresses A=0x1', 2, 2],
      [1, 'print-bytecode', [], '//# print-bytecode ', 4, 8],
      [2, 'publish', [], '//# publish', 10, 11],
    ]);
    expect(tasks[1].body).toBe('\n\n\n\n// note\nmvir A::M {\n}');
  });

  it('renders and compares transcripts', () => {
    const run = runTransactionalTestFile(file);
    expect(run.transcript).toBe('processed 3 tasks\n\ntask 1, lines 4-8:\n//# print-bytecode \n// Move bytecode v7\nmodule 1.M {\n\n}\n\n');
    const snap = parseSnapshot(`---\nsource: x\n---\n${run.transcript}`);
    expect(compareWithSnapshot(run.outcomes, snap).every((c) => c.matched)).toBe(true);
    const other = parseSnapshot('processed 3 tasks\n\ntask 2, line 10:\n//# publish\nError: boom\n');
    expect(compareWithSnapshot(run.outcomes, other).map((c) => c.reason)).toEqual(['', 'unexpected output (snapshot has none)', 'no output (snapshot has some)']);
  });
});
