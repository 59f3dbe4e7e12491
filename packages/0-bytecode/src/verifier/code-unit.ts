/**
 * Per-function verification (`code_unit_verifier.rs`): control flow, basic-block and
 * back-edge limits, then stack usage, type safety, locals safety, jump-table usage and
 * reference safety, each error tagged with its function definition.
 */
import type { CompiledModule } from '../file-format.js';
import { PartialError } from './errors.js';
import { verifyControlFlow } from './control-flow.js';
import { verifyStackUsage } from './stack-usage.js';
import { verifyTypeSafety } from './type-safety.js';
import { verifyLocalsSafety } from './locals-safety.js';
import { verifyReferenceSafety } from './reference-safety.js';
import type { VerifierLimits } from './limits.js';

/** Verify one function definition; returns its number of back edges. */
function verifyFunction(m: CompiledModule, fn: number, cfg: VerifierLimits): number {
  const def = m.functionDefs[fn];
  const unit = def.code;
  if (unit === null) return 0;
  const handle = m.functionHandles[def.function];
  const graph = verifyControlFlow(m.version, fn, unit, cfg.maxLoopDepth);
  if (cfg.maxBasicBlocks !== null && graph.blocks.length > cfg.maxBasicBlocks) {
    throw new PartialError('TOO_MANY_BASIC_BLOCKS').atCodeOffset(fn, 0);
  }
  const backEdges = graph.numBackEdges();
  if (cfg.maxBackEdgesPerFunction !== null && backEdges > cfg.maxBackEdgesPerFunction) {
    throw new PartialError('TOO_MANY_BACK_EDGES').atCodeOffset(fn, 0);
  }
  const parameters = m.signatures[handle.parameters];
  const locals = m.signatures[unit.locals];
  const returns = m.signatures[handle.return];
  verifyStackUsage(m, fn, unit.code, returns.length, graph, cfg);
  verifyTypeSafety(m, { fn, parameters, locals, returns, typeParameters: handle.typeParameters, jumpTables: unit.jumpTables }, unit.code, graph);
  verifyLocalsSafety(m, fn, parameters, locals, handle.typeParameters, unit.code, graph);
  if (cfg.disallowJumpOrphans) {
    const used = new Set<number>();
    for (const ins of unit.code) if (ins.$kind === 'VariantSwitch') used.add(ins.index);
    if (used.size !== unit.jumpTables.length) throw new PartialError('INVALID_ENUM_SWITCH');
  }
  verifyReferenceSafety(m, fn, parameters, locals.length, returns.length, unit.code, graph, cfg.additionalBorrowChecks);
  return backEdges;
}

/** The code-unit pass over every function definition. Throws {@link PartialError}. */
export function verifyCodeUnits(m: CompiledModule, cfg: VerifierLimits): void {
  let total = 0;
  for (let fn = 0; fn < m.functionDefs.length; fn++) {
    try {
      total += verifyFunction(m, fn, cfg);
    } catch (e) {
      if (e instanceof PartialError) e.atIndex('FunctionDefinition', fn);
      throw e;
    }
  }
  if (cfg.maxBackEdgesPerModule !== null && total > cfg.maxBackEdgesPerModule) throw new PartialError('TOO_MANY_BACK_EDGES');
}
