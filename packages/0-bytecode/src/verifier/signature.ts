/**
 * Signature checks (`signature.rs`): references only at the top of signatures and never in
 * fields or type arguments, type arguments satisfy the constraints of what they instantiate,
 * phantom type parameters only in phantom positions.
 */
import type { AbilitySet, Bytecode, CompiledModule, DatatypeTypeParameter, SignatureToken } from '../file-format.js';
import { PartialError, abilitySetDebug, tokenDebug } from './errors.js';
import { abilitiesOf, isSubset, preorder } from './types.js';

class SignatureChecker {
  private readonly m: CompiledModule;
  /** Signatures already checked against a given list of type-parameter abilities. */
  private readonly checked = new Map<number, Set<string>>();

  constructor(m: CompiledModule) {
    this.m = m;
  }

  run(): void {
    const m = this.m;
    for (let i = 0; i < m.signatures.length; i++) this.checkSignature(i);
    m.functionHandles.forEach((h, idx) => {
      try {
        this.checkInstantiation(h.return, h.typeParameters);
        this.checkInstantiation(h.parameters, h.typeParameters);
      } catch (e) {
        // Upstream tags both entries with the handle index.
        throw this.wrap(e, (p) => p.atIndex('Signature', idx).atIndex('FunctionHandle', idx));
      }
    });
    m.structDefs.forEach((def, defIdx) => {
      if (def.fieldInformation.$kind === 'Native') return;
      const handle = m.datatypeHandles[def.structHandle];
      def.fieldInformation.fields.forEach((f, fieldIdx) => {
        try {
          this.checkFieldType(f.type, handle.typeParameters);
        } catch (e) {
          throw this.wrap(e, (p) => p.atIndex('FieldDefinition', fieldIdx).atIndex('StructDefinition', defIdx));
        }
      });
    });
    m.enumDefs.forEach((def, defIdx) => {
      const handle = m.datatypeHandles[def.enumHandle];
      def.variants.forEach((v, tag) => {
        v.fields.forEach((f, fieldIdx) => {
          try {
            this.checkFieldType(f.type, handle.typeParameters);
          } catch (e) {
            throw this.wrap(e, (p) => p.atIndex('FieldDefinition', fieldIdx).atIndex('VariantTag', tag).atIndex('EnumDefinition', defIdx));
          }
        });
      });
    });
    m.functionDefs.forEach((def, defIdx) => {
      if (def.code === null) return;
      const code = def.code;
      try {
        this.verifyCode(code.locals, code.code, m.functionHandles[def.function].typeParameters);
      } catch (e) {
        throw this.wrap(e, (p) => p.atIndex('Signature', code.locals).atIndex('FunctionDefinition', defIdx));
      }
    });
  }

  private wrap(e: unknown, add: (p: PartialError) => PartialError): unknown {
    return e instanceof PartialError ? add(e) : e;
  }

  private checkFieldType(t: SignatureToken, params: readonly DatatypeTypeParameter[]): void {
    this.checkToken(t);
    this.checkTypeInstantiation(
      t,
      params.map((p) => p.constraints),
    );
    this.checkPhantomParams(t, false, params);
  }

  private verifyCode(locals: number, code: readonly Bytecode[], typeParams: readonly AbilitySet[]): void {
    const m = this.m;
    this.checkInstantiation(locals, typeParams);
    for (let offset = 0; offset < code.length; offset++) {
      const ins = code[offset];
      let args: readonly SignatureToken[] | null = null;
      let constraints: readonly AbilitySet[] = [];
      switch (ins.$kind) {
        case 'CallGeneric': {
          const inst = m.functionInstantiations[ins.index];
          args = m.signatures[inst.typeParameters];
          constraints = m.functionHandles[inst.handle].typeParameters;
          break;
        }
        case 'PackGeneric':
        case 'UnpackGeneric':
        case 'ExistsGenericDeprecated':
        case 'MoveFromGenericDeprecated':
        case 'MoveToGenericDeprecated':
        case 'ImmBorrowGlobalGenericDeprecated':
        case 'MutBorrowGlobalGenericDeprecated': {
          const inst = m.structDefInstantiations[ins.index];
          args = m.signatures[inst.typeParameters];
          constraints = this.constraintsOf(m.structDefs[inst.def].structHandle);
          break;
        }
        case 'ImmBorrowFieldGeneric':
        case 'MutBorrowFieldGeneric': {
          const inst = m.fieldInstantiations[ins.index];
          args = m.signatures[inst.typeParameters];
          constraints = this.constraintsOf(m.structDefs[m.fieldHandles[inst.handle].owner].structHandle);
          break;
        }
        case 'PackVariantGeneric':
        case 'UnpackVariantGeneric':
        case 'UnpackVariantGenericImmRef':
        case 'UnpackVariantGenericMutRef': {
          const inst = m.enumDefInstantiations[m.variantInstantiationHandles[ins.index].enumDef];
          args = m.signatures[inst.typeParameters];
          constraints = this.constraintsOf(m.enumDefs[inst.def].enumHandle);
          break;
        }
        case 'VecPack':
        case 'VecLen':
        case 'VecImmBorrow':
        case 'VecMutBorrow':
        case 'VecPushBack':
        case 'VecPopBack':
        case 'VecUnpack':
        case 'VecSwap': {
          const sig = m.signatures[ins.index];
          if (sig.length !== 1) {
            throw new PartialError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `expected 1 type token for vector operations, got ${sig.length}`);
          }
          try {
            for (const t of sig) this.checkToken(t);
          } catch (e) {
            throw this.wrap(e, (p) => p.appendDetail(' ', `at offset ${offset} `));
          }
          continue;
        }
        default:
          continue;
      }
      // Reference checks of the arguments return early, without the offset in the message.
      for (const t of args) this.checkToken(t);
      try {
        this.checkGenericInstance(args, constraints, typeParams);
      } catch (e) {
        throw this.wrap(e, (p) => p.appendDetail(' ', `at offset ${offset} `));
      }
    }
  }

  private constraintsOf(handle: number): AbilitySet[] {
    return this.m.datatypeHandles[handle].typeParameters.map((p) => p.constraints);
  }

  private checkPhantomParams(t: SignatureToken, phantomPosition: boolean, params: readonly DatatypeTypeParameter[]): void {
    switch (t.$kind) {
      case 'Vector':
        this.checkPhantomParams(t.type, false, params);
        break;
      case 'DatatypeInstantiation': {
        const h = this.m.datatypeHandles[t.index];
        t.typeArguments.forEach((a, i) => this.checkPhantomParams(a, h.typeParameters[i].isPhantom, params));
        break;
      }
      case 'TypeParameter':
        if (params[t.index].isPhantom && !phantomPosition) {
          throw new PartialError('INVALID_PHANTOM_TYPE_PARAM_POSITION', 'phantom type parameter cannot be used in non-phantom position');
        }
        break;
      default:
        break;
    }
  }

  /** References allowed at the top level only. */
  private checkSignature(idx: number): void {
    for (const t of this.m.signatures[idx]) {
      this.checkToken(t.$kind === 'Reference' || t.$kind === 'MutableReference' ? t.type : t);
    }
  }

  /** No references anywhere. */
  private checkToken(t: SignatureToken): void {
    switch (t.$kind) {
      case 'Reference':
      case 'MutableReference':
        throw new PartialError('INVALID_SIGNATURE_TOKEN', 'reference not allowed');
      case 'Vector':
        this.checkToken(t.type);
        break;
      case 'DatatypeInstantiation':
        for (const a of t.typeArguments) this.checkToken(a);
        break;
      default:
        break;
    }
  }

  private checkInstantiation(sigIdx: number, typeParams: readonly AbilitySet[]): void {
    const key = typeParams.join(',');
    let done = this.checked.get(sigIdx);
    if (done?.has(key)) return;
    for (const t of this.m.signatures[sigIdx]) this.checkTypeInstantiation(t, typeParams);
    if (!done) {
      done = new Set();
      this.checked.set(sigIdx, done);
    }
    done.add(key);
  }

  private checkTypeInstantiation(t: SignatureToken, typeParams: readonly AbilitySet[]): void {
    const visit = (n: SignatureToken): void => {
      if (n.$kind !== 'DatatypeInstantiation') return;
      this.checkGenericInstance(n.typeArguments, this.constraintsOf(n.index), typeParams);
    };
    // Version 5 and older checked the outermost type only (kept for compatibility).
    if (this.m.version >= 6) preorder(t, visit);
    else visit(t);
  }

  private checkGenericInstance(args: readonly SignatureToken[], constraints: readonly AbilitySet[], typeParams: readonly AbilitySet[]): void {
    if (args.length !== constraints.length) {
      throw new PartialError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `expected ${constraints.length} type argument(s), got ${args.length}`);
    }
    for (let i = 0; i < args.length; i++) {
      const given = abilitiesOf(this.m, typeParams, args[i]);
      if (!isSubset(constraints[i], given)) {
        throw new PartialError(
          'CONSTRAINT_NOT_SATISFIED',
          `expected type with abilities ${abilitySetDebug(constraints[i])} got type actual ${tokenDebug(args[i])} with incompatible abilities ${abilitySetDebug(given)}`,
        );
      }
    }
  }
}

/** The signature pass. Throws {@link PartialError}. */
export function verifySignatures(m: CompiledModule): void {
  new SignatureChecker(m).run();
}
