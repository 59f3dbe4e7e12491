/**
 * The bytecode verifier: real mainnet code passes (corpus, latest framework, every framework
 * snapshot), and hand-made invalid modules — real modules mutated through the model — are
 * rejected with upstream's status code, indices and code offset.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Ability,
  findPackageDirs,
  loadBundleFile,
  loadPackageDir,
  loadSnapshotFile,
  moduleName,
  type AbilitySet,
  type Bytecode,
  type CompiledModule,
  type MovePackage,
  type SignatureToken,
} from '@smi/bytecode';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { VerificationError, formatVerificationError, verifyModule, verifyPackage, type VerifyOptions } from '../src/verifier/index.js';

// ---- real packages ------------------------------------------------------------------------------

function corpusPackages(): MovePackage[] {
  return findPackageDirs(fixturePath('corpus')).map((d) => loadPackageDir(d));
}

function frameworkPackages(): MovePackage[] {
  const root = fixturePath('fixtures', 'framework');
  return readdirSync(root)
    .sort()
    .map((f) => loadBundleFile(path.join(root, f)));
}

/** Own modules, then the linked versions (linkage table) found in `all`, then everything else. */
function linkedDependencies(pkg: MovePackage, all: MovePackage[]): CompiledModule[] {
  const byId = new Map(all.map((p) => [p.id, p]));
  const linked = Object.values(pkg.linkageTable)
    .map((l) => byId.get(l.upgradedId))
    .filter((p): p is MovePackage => p !== undefined);
  return [pkg, ...linked, ...all].flatMap((p) => p.modules.map((m) => m.module));
}

/** Verify every module of `packages`; `package::module: error` lines. */
function verifyAll(packages: MovePackage[], all: MovePackage[], options: VerifyOptions = {}): string[] {
  const failures: string[] = [];
  for (const pkg of packages) {
    const dependencies = linkedDependencies(pkg, all);
    for (const { module } of pkg.modules) {
      try {
        verifyPackage([module], { ...options, dependencies });
      } catch (e) {
        failures.push(`${pkg.id.slice(0, 10)}::${moduleName(module)}: ${(e as Error).message}`);
      }
    }
  }
  return failures;
}

describeWithFixtures('verifier: real mainnet code passes', ['corpus'], () => {
  it('verifies every corpus module, linked to its siblings, its linkage table and the corpus framework', () => {
    const pkgs = corpusPackages();
    expect(pkgs.reduce((n, p) => n + p.modules.length, 0)).toBeGreaterThanOrEqual(200);
    // Some third-party dependencies are not in the corpus: imports from them stay unchecked.
    expect(verifyAll(pkgs, pkgs, { ignoreMissingDependencies: true })).toEqual([]);
  });
});

describeWithFixtures('verifier: framework passes', ['fixtures', 'framework'], () => {
  it('verifies every latest framework module against the latest framework', () => {
    const pkgs = frameworkPackages();
    expect(verifyAll(pkgs, pkgs)).toEqual([]);
  });
});

describeWithFixtures('verifier: framework snapshots pass', ['fixtures', 'framework-snapshots'], () => {
  it('verifies every framework snapshot (protocol 3..134) against its own protocol version', () => {
    const root = fixturePath('fixtures', 'framework-snapshots');
    const failures: string[] = [];
    const seen = new Set<string>();
    let modules = 0;
    for (const version of readdirSync(root)) {
      const pkgs = readdirSync(path.join(root, version)).map((f) => loadSnapshotFile(path.join(root, version, f)));
      // Consecutive protocol versions often ship the very same framework: verify each set once.
      const key = pkgs.flatMap((p) => p.modules.map((m) => Buffer.from(m.bytes).toString('base64'))).join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      modules += pkgs.reduce((n, p) => n + p.modules.length, 0);
      failures.push(...verifyAll(pkgs, pkgs).map((f) => `${version}/${f}`));
    }
    expect(modules).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });
});

// ---- mutations of real modules ----------------------------------------------------------------

const U64: SignatureToken = { $kind: 'U64' };
const BOOL: SignatureToken = { $kind: 'Bool' };
const SIGNER: SignatureToken = { $kind: 'Signer' };

const ins = {
  simple: (k: 'Pop' | 'Ret' | 'LdTrue' | 'FreezeRef' | 'WriteRef' | 'Nop'): Bytecode => ({ $kind: k }),
  idx: (k: 'StLoc' | 'MoveLoc' | 'CopyLoc' | 'MutBorrowLoc' | 'ImmBorrowLoc' | 'Branch' | 'Pack' | 'Call', index: number): Bytecode => ({ $kind: k, index }),
  u64: (value: bigint): Bytecode => ({ $kind: 'LdU64', value }),
};
const POP = ins.simple('Pop');
const RET = ins.simple('Ret');

function sameSig(a: readonly SignatureToken[], b: readonly SignatureToken[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Index of `sig` in the pool, appended when missing. */
function signatureIndex(m: CompiledModule, sig: SignatureToken[]): number {
  const i = m.signatures.findIndex((s) => sameSig(s, sig));
  if (i >= 0) return i;
  m.signatures.push(sig);
  return m.signatures.length - 1;
}

/** Append a private function with the given body to a (copied) real module; its definition index. */
function addFunction(m: CompiledModule, f: { params?: SignatureToken[]; returns?: SignatureToken[]; locals?: SignatureToken[]; code: Bytecode[]; typeParameters?: AbilitySet[] }): number {
  m.identifiers.push(`smi_mutation_${m.functionHandles.length}`);
  m.functionHandles.push({
    module: m.selfModuleHandleIndex,
    name: m.identifiers.length - 1,
    parameters: signatureIndex(m, f.params ?? []),
    return: signatureIndex(m, f.returns ?? []),
    typeParameters: f.typeParameters ?? [],
  });
  m.functionDefs.push({
    function: m.functionHandles.length - 1,
    visibility: 'Private',
    isEntry: false,
    acquiresGlobalResources: [],
    code: { locals: signatureIndex(m, f.locals ?? []), code: f.code, jumpTables: [] },
  });
  return m.functionDefs.length - 1;
}

/** The error `verifyModule` throws (fails the test when it throws none). */
function rejection(m: CompiledModule, options: VerifyOptions = {}): VerificationError {
  try {
    verifyModule(m, options);
  } catch (e) {
    if (e instanceof VerificationError) return e;
    throw e;
  }
  throw new Error('module was accepted');
}

/** `code` at `(FunctionDefinition, fn)`, offset `offset`. */
function expectCodeError(e: VerificationError, code: string, fn: number, offset: number): void {
  expect({ code: e.code, indices: e.indices, offsets: e.offsets }).toEqual({
    code,
    indices: [['FunctionDefinition', fn]],
    offsets: [[fn, offset]],
  });
  expect(e.indexKind).toBe('FunctionDefinition');
  expect(e.index).toBe(fn);
  expect(e.offset).toBe(offset);
}

describeWithFixtures('verifier: mutated modules are rejected like upstream', ['fixtures', 'framework'], () => {
  const framework = frameworkPackages();
  const sui = framework.find((p) => p.modules.some((m) => m.name === 'coin')) as MovePackage;
  const real = (name: string): CompiledModule => structuredClone((sui.modules.find((m) => m.name === name) as { module: CompiledModule }).module);
  const deps = framework.flatMap((p) => p.modules.map((m) => m.module));

  it('the unmutated modules pass', () => {
    for (const name of ['coin', 'balance', 'object', 'transfer']) expect(() => verifyModule(real(name), { dependencies: deps })).not.toThrow();
  });

  it('StLoc of the wrong type: STLOC_TYPE_MISMATCH_ERROR at the StLoc', () => {
    const m = real('coin');
    const fn = addFunction(m, { locals: [U64], code: [ins.simple('LdTrue'), ins.idx('StLoc', 0), RET] });
    expectCodeError(rejection(m), 'STLOC_TYPE_MISMATCH_ERROR', fn, 1);
  });

  it('popping an empty stack: NEGATIVE_STACK_SIZE_WITHIN_BLOCK at the block start', () => {
    const m = real('coin');
    const fn = addFunction(m, { code: [ins.simple('Nop'), POP, RET] });
    expectCodeError(rejection(m), 'NEGATIVE_STACK_SIZE_WITHIN_BLOCK', fn, 0);
  });

  it('branching out of a block that leaves a value: POSITIVE_STACK_SIZE_AT_BLOCK_END', () => {
    const m = real('coin');
    const fn = addFunction(m, { code: [ins.u64(7n), ins.idx('Branch', 2), RET] });
    expectCodeError(rejection(m), 'POSITIVE_STACK_SIZE_AT_BLOCK_END', fn, 0);
  });

  it('turning a real MoveLoc of a non-copy value into CopyLoc: COPYLOC_WITHOUT_COPY_ABILITY', () => {
    const m = real('coin');
    // A real function that moves a non-copy local (a Coin, a TreasuryCap, ...).
    let target: { fn: number; pc: number } | undefined;
    m.functionDefs.forEach((def, fn) => {
      if (target || def.code === null) return;
      const h = m.functionHandles[def.function];
      const locals = [...m.signatures[h.parameters], ...m.signatures[def.code.locals]];
      def.code.code.forEach((i, pc) => {
        if (target || i.$kind !== 'MoveLoc') return;
        const t = locals[i.index];
        const noCopy = t.$kind === 'DatatypeInstantiation' && !(m.datatypeHandles[t.index].abilities & Ability.Copy);
        if (noCopy) target = { fn, pc };
      });
    });
    expect(target).toBeDefined();
    const { fn, pc } = target as { fn: number; pc: number };
    const code = (m.functionDefs[fn].code as { code: Bytecode[] }).code;
    code[pc] = ins.idx('CopyLoc', (code[pc] as { index: number }).index);
    expectCodeError(rejection(m), 'COPYLOC_WITHOUT_COPY_ABILITY', fn, pc);
  });

  it('copying a signer: COPYLOC_WITHOUT_COPY_ABILITY', () => {
    const m = real('coin');
    const fn = addFunction(m, { params: [SIGNER], code: [ins.idx('CopyLoc', 0), POP, RET] });
    expectCodeError(rejection(m), 'COPYLOC_WITHOUT_COPY_ABILITY', fn, 0);
  });

  it('Pack with too few values on the stack: NEGATIVE_STACK_SIZE_WITHIN_BLOCK', () => {
    const m = real('object');
    const s = m.structDefs.findIndex((d) => m.datatypeHandles[d.structHandle].typeParameters.length === 0 && d.fieldInformation.$kind === 'Declared');
    const fn = addFunction(m, { code: [ins.idx('Pack', s), POP, RET] });
    expectCodeError(rejection(m), 'NEGATIVE_STACK_SIZE_WITHIN_BLOCK', fn, 0);
  });

  it('Pack with fields of the wrong type: PACK_TYPE_MISMATCH_ERROR', () => {
    const m = real('object');
    const s = m.structDefs.findIndex((d) => m.datatypeHandles[d.structHandle].typeParameters.length === 0 && d.fieldInformation.$kind === 'Declared');
    const info = m.structDefs[s].fieldInformation as { fields: unknown[] };
    const pushes = info.fields.map(() => ins.simple('LdTrue'));
    const fn = addFunction(m, { code: [...pushes, ins.idx('Pack', s), POP, RET] });
    expectCodeError(rejection(m), 'PACK_TYPE_MISMATCH_ERROR', fn, pushes.length);
  });

  it('moving an unassigned local: MOVELOC_UNAVAILABLE_ERROR', () => {
    const m = real('balance');
    const fn = addFunction(m, { locals: [U64], code: [ins.idx('MoveLoc', 0), POP, RET] });
    expectCodeError(rejection(m), 'MOVELOC_UNAVAILABLE_ERROR', fn, 0);
  });

  it('overwriting a borrowed local: STLOC_UNSAFE_TO_DESTROY_ERROR', () => {
    const m = real('balance');
    const code = [ins.u64(1n), ins.idx('StLoc', 0), ins.idx('MutBorrowLoc', 0), ins.u64(2n), ins.idx('StLoc', 0), POP, RET];
    const fn = addFunction(m, { locals: [U64], code });
    expectCodeError(rejection(m), 'STLOC_UNSAFE_TO_DESTROY_ERROR', fn, 4);
  });

  it('writing through a reference with a live frozen copy: WRITEREF_EXISTS_BORROW_ERROR', () => {
    const m = real('balance');
    const locals: SignatureToken[] = [U64, { $kind: 'MutableReference', type: U64 }, { $kind: 'Reference', type: U64 }];
    const code = [
      ins.u64(1n),
      ins.idx('StLoc', 0),
      ins.idx('MutBorrowLoc', 0),
      ins.idx('StLoc', 1),
      ins.idx('CopyLoc', 1),
      ins.simple('FreezeRef'),
      ins.idx('StLoc', 2),
      ins.u64(5n),
      ins.idx('MoveLoc', 1),
      ins.simple('WriteRef'),
      ins.idx('MoveLoc', 2),
      POP,
      RET,
    ];
    const fn = addFunction(m, { locals, code });
    expectCodeError(rejection(m), 'WRITEREF_EXISTS_BORROW_ERROR', fn, 9);
  });

  it('a code unit falling off its end: INVALID_FALL_THROUGH', () => {
    const m = real('balance');
    const fn = addFunction(m, { code: [ins.u64(0n), POP] });
    expectCodeError(rejection(m), 'INVALID_FALL_THROUGH', fn, 1);
  });

  it('Call of a generic function without type arguments: GENERIC_MEMBER_OPCODE_MISMATCH', () => {
    const m = real('coin');
    const generic = m.functionHandles.findIndex((h) => h.typeParameters.length > 0);
    const fn = addFunction(m, { code: [ins.idx('Call', generic), RET] });
    const e = rejection(m);
    expect([e.code, e.offsets]).toEqual(['GENERIC_MEMBER_OPCODE_MISMATCH', [[fn, 0]]]);
  });

  it('a bool where a u64 is returned: RET_TYPE_MISMATCH_ERROR', () => {
    const m = real('coin');
    const fn = addFunction(m, { returns: [U64], code: [ins.simple('LdTrue'), RET] });
    expectCodeError(rejection(m), 'RET_TYPE_MISMATCH_ERROR', fn, 1);
  });

  it('a duplicate identifier: DUPLICATE_ELEMENT (Identifier, i)', () => {
    const m = real('coin');
    m.identifiers.push(m.identifiers[0]);
    const e = rejection(m);
    expect([e.code, e.indices]).toEqual(['DUPLICATE_ELEMENT', [['Identifier', m.identifiers.length - 1]]]);
  });

  it('a u64 constant of 3 bytes: MALFORMED_CONSTANT_DATA (ConstantPool, i)', () => {
    const m = real('coin');
    m.constantPool.push({ type: U64, data: new Uint8Array([1, 2, 3]) });
    const e = rejection(m);
    expect([e.code, e.indices]).toEqual(['MALFORMED_CONSTANT_DATA', [['ConstantPool', m.constantPool.length - 1]]]);
  });

  it('constants of struct types: MALFORMED_CONSTANT_DATA (vectors, limits pass) and INVALID_CONSTANT_TYPE', () => {
    const m = real('coin');
    const datatype: SignatureToken = { $kind: 'Datatype', index: m.datatypeHandles.findIndex((h) => h.typeParameters.length === 0) };
    m.constantPool.push({ type: { $kind: 'Vector', type: datatype }, data: new Uint8Array([0]) });
    const e = rejection(m);
    expect([e.code, e.indices]).toEqual(['MALFORMED_CONSTANT_DATA', [['ConstantPool', m.constantPool.length - 1]]]);
    m.constantPool[m.constantPool.length - 1] = { type: datatype, data: new Uint8Array([0]) };
    const e2 = rejection(m);
    expect([e2.code, e2.indices]).toEqual(['INVALID_CONSTANT_TYPE', [['ConstantPool', m.constantPool.length - 1]]]);
  });

  it('a struct that contains itself: RECURSIVE_DATATYPE_DEFINITION', () => {
    const m = real('object');
    const s = m.structDefs.findIndex((d) => {
      const h = m.datatypeHandles[d.structHandle];
      return h.typeParameters.length === 0 && d.fieldInformation.$kind === 'Declared' && !(h.abilities & Ability.Key);
    });
    expect(s).toBeGreaterThanOrEqual(0);
    const info = m.structDefs[s].fieldInformation as { fields: { name: number; type: SignatureToken }[] };
    info.fields[0] = { name: info.fields[0].name, type: { $kind: 'Vector', type: { $kind: 'Datatype', index: m.structDefs[s].structHandle } } };
    const e = rejection(m);
    expect([e.code, e.indices]).toEqual(['RECURSIVE_DATATYPE_DEFINITION', [['StructDefinition', s]]]);
  });

  it('a limit override: TOO_MANY_PARAMETERS (FunctionHandle, i)', () => {
    const m = real('coin');
    const h = m.functionHandles.findIndex((x) => m.signatures[x.parameters].length > 3);
    const e = rejection(m, { limits: { maxFunctionParameters: 3 } });
    expect([e.code, e.indices]).toEqual(['TOO_MANY_PARAMETERS', [['FunctionHandle', h]]]);
  });

  it('an import that does not exist in the dependency: LOOKUP_FAILED (FunctionHandle, i)', () => {
    const m = real('coin');
    const h = m.functionHandles.findIndex((x) => x.module !== m.selfModuleHandleIndex);
    m.identifiers.push('smi_no_such_function');
    m.functionHandles[h] = { ...m.functionHandles[h], name: m.identifiers.length - 1 };
    expect(() => verifyModule(m)).not.toThrow();
    const e = rejection(m, { dependencies: deps });
    expect([e.code, e.indices]).toEqual(['LOOKUP_FAILED', [['FunctionHandle', h]]]);
  });

  it('a missing dependency module: MISSING_DEPENDENCY at the package', () => {
    const m = real('coin');
    const e = rejection(m, { dependencies: deps.filter((d) => moduleName(d) !== 'balance') });
    expect([e.code, e.location]).toEqual(['MISSING_DEPENDENCY', { $kind: 'Package', address: `0x${'0'.repeat(63)}2` }]);
  });

  it('prints errors in the wording of upstream transactional tests', () => {
    const m = real('coin');
    const fn = addFunction(m, { locals: [BOOL], code: [ins.u64(1n), ins.idx('StLoc', 0), RET] });
    expect(formatVerificationError(rejection(m))).toBe(
      [
        '{',
        '    major_status: STLOC_TYPE_MISMATCH_ERROR,',
        '    sub_status: None,',
        '    location: 0x2::coin,',
        `    indices: [(FunctionDefinition, ${fn})],`,
        `    offsets: [(FunctionDefinitionIndex(${fn}), 1)],`,
        '}',
      ].join('\n'),
    );
  });
});

describeWithFixtures('verifier: random mutations never crash it', ['fixtures', 'framework'], () => {
  it('throws only VerificationError on 2,000 deterministic instruction mutations', () => {
    const modules = frameworkPackages().flatMap((p) => p.modules.map((m) => m.module));
    const simple = ['Pop', 'Ret', 'CastU8', 'LdTrue', 'ReadRef', 'WriteRef', 'FreezeRef', 'Add', 'Eq', 'Abort', 'Nop', 'Not', 'Shl'];
    const indexed = ['BrTrue', 'Branch', 'LdConst', 'CopyLoc', 'MoveLoc', 'StLoc', 'MutBorrowLoc', 'ImmBorrowField', 'Call', 'Pack', 'Unpack'];
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const others: string[] = [];
    let rejected = 0;
    for (let iter = 0; iter < 2000; iter++) {
      const m = structuredClone(modules[rnd(modules.length)]);
      const withCode = m.functionDefs.filter((f) => f.code !== null && f.code.code.length > 0);
      if (withCode.length === 0) continue;
      const code = (withCode[rnd(withCode.length)].code as { code: Bytecode[] }).code;
      const pc = rnd(code.length);
      const kind = rnd(3);
      if (kind === 0) code[pc] = { $kind: simple[rnd(simple.length)] } as Bytecode;
      else if (kind === 1) code[pc] = { $kind: indexed[rnd(indexed.length)], index: rnd(8) } as Bytecode;
      else [code[pc], code[0]] = [code[0], code[pc]];
      try {
        verifyModule(m, { dependencies: modules });
      } catch (e) {
        if (e instanceof VerificationError) rejected++;
        else others.push(String(e));
      }
    }
    expect(others).toEqual([]);
    expect(rejected).toBeGreaterThan(1000);
  });
});

describe('verifier: API', () => {
  it('refuses out-of-bounds indices before anything else, located at the package', () => {
    const m: CompiledModule = {
      version: 7,
      publishable: true,
      selfModuleHandleIndex: 0,
      moduleHandles: [{ address: 0, name: 0 }],
      datatypeHandles: [],
      functionHandles: [],
      fieldHandles: [],
      friendDecls: [],
      structDefInstantiations: [],
      functionInstantiations: [],
      fieldInstantiations: [],
      signatures: [],
      identifiers: ['m'],
      addressIdentifiers: [`0x${'0'.repeat(62)}42`],
      constantPool: [{ type: { $kind: 'Datatype', index: 3 }, data: new Uint8Array() }],
      metadata: [],
      structDefs: [],
      functionDefs: [],
      enumDefs: [],
      enumDefInstantiations: [],
      variantHandles: [],
      variantInstantiationHandles: [],
    };
    const e = rejection(m);
    expect([e.code, e.indices, e.location.$kind]).toEqual(['INDEX_OUT_OF_BOUNDS', [['DatatypeHandle', 3]], 'Package']);
  });
});
