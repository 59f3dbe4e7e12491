/**
 * Locals safety (`locals_safety`): a flow-sensitive analysis of which locals hold a value.
 * Moving, copying or borrowing needs a value on every path; overwriting or returning with a
 * value left needs `drop`.
 */
import type { AbilitySet, Bytecode, CompiledModule, SignatureToken } from '../file-format.js';
import { Ability } from '../file-format.js';
import { PartialError } from './errors.js';
import { analyzeFunction, type AbstractDomain, type ControlFlowGraph } from './cfg.js';
import { abilitiesOf } from './types.js';

const UNAVAILABLE = 0;
const MAYBE = 1;
const AVAILABLE = 2;

/** The locals-safety pass. */
export function verifyLocalsSafety(
  m: CompiledModule,
  fn: number,
  parameters: readonly SignatureToken[],
  locals: readonly SignatureToken[],
  typeParameters: readonly AbilitySet[],
  code: readonly Bytecode[],
  cfg: ControlFlowGraph,
): void {
  const all = [...parameters, ...locals];
  const canDrop = all.map((t) => (abilitiesOf(m, typeParameters, t) & Ability.Drop) !== 0);
  const initial = new Uint8Array(all.length);
  for (let i = 0; i < parameters.length; i++) initial[i] = AVAILABLE;
  const err = (
    code: 'STLOC_UNSAFE_TO_DESTROY_ERROR' | 'MOVELOC_UNAVAILABLE_ERROR' | 'COPYLOC_UNAVAILABLE_ERROR' | 'BORROWLOC_UNAVAILABLE_ERROR' | 'UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP',
    offset: number,
  ) => new PartialError(code).atCodeOffset(fn, offset);
  const domain: AbstractDomain<Uint8Array> = {
    clone: (s) => s.slice(),
    join(pre, post) {
      let changed = false;
      const out = pre.slice();
      for (let i = 0; i < out.length; i++) {
        const j = pre[i] === post[i] ? pre[i] : MAYBE;
        if (j !== pre[i]) changed = true;
        out[i] = j;
      }
      return changed ? out : null;
    },
    execute(state, ins, offset) {
      switch (ins.$kind) {
        case 'StLoc':
          if (state[ins.index] !== UNAVAILABLE && !canDrop[ins.index]) throw err('STLOC_UNSAFE_TO_DESTROY_ERROR', offset);
          state[ins.index] = AVAILABLE;
          break;
        case 'MoveLoc':
          if (state[ins.index] !== AVAILABLE) throw err('MOVELOC_UNAVAILABLE_ERROR', offset);
          state[ins.index] = UNAVAILABLE;
          break;
        case 'CopyLoc':
          if (state[ins.index] !== AVAILABLE) throw err('COPYLOC_UNAVAILABLE_ERROR', offset);
          break;
        case 'MutBorrowLoc':
        case 'ImmBorrowLoc':
          if (state[ins.index] !== AVAILABLE) throw err('BORROWLOC_UNAVAILABLE_ERROR', offset);
          break;
        case 'Ret':
          for (let i = 0; i < state.length; i++) {
            if (state[i] !== UNAVAILABLE && !canDrop[i]) throw err('UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP', offset);
          }
          break;
        default:
          break;
      }
      return state;
    },
  };
  analyzeFunction(cfg, code, initial, domain);
}
