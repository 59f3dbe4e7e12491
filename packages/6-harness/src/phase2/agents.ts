/**
 * Phase II agents that need no model: the plans each gives for a package, as the original's
 * `inhabit_runner.py` chose them. `mock-perfect` gives no plan at all: its row claims the
 * targets without running anything, and says so (`synthetic: true`).
 */
import type { MovePackage } from '@smi/bytecode';
import { baselineCandidates } from './baseline.js';
import { errorMessage, SmiError, canonicalAddress, type Json } from '@smi/bytecode';

/** The Phase II agents. */
export const PHASE2_AGENTS = ['mock-empty', 'mock-perfect', 'mock-planfile', 'baseline-search', 'chain-search', 'template-search', 'real-openai-compatible', 'helper-package'] as const;
export type Phase2Agent = (typeof PHASE2_AGENTS)[number];

/** The agents that give a fixed list of plans (no model). */
export type StaticPhase2Agent = 'mock-empty' | 'mock-perfect' | 'mock-planfile' | 'baseline-search';

/** The agents that ask a model. */
export const MODEL_PHASE2_AGENTS: readonly Phase2Agent[] = ['template-search', 'real-openai-compatible', 'helper-package'];

/** `true` for an agent that gives a fixed list of plans (no model, no search). */
export function isStaticPhase2Agent(agent: Phase2Agent): agent is StaticPhase2Agent {
  return agent !== 'chain-search' && !MODEL_PHASE2_AGENTS.includes(agent);
}

/** Why a Phase II agent cannot be used. */
export class Phase2AgentError extends SmiError<'NEEDS_PLAN_FILE' | 'BAD_PLAN_FILE'> {
  override readonly name = 'Phase2AgentError';
  constructor(code: 'NEEDS_PLAN_FILE' | 'BAD_PLAN_FILE', message: string) {
    super(code, message);
  }
}

/** A plan file: `{package_id: plan}` (the original's `--plan-file`). */
export function readPlanFile(text: string, source: string): Map<string, Json> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Phase2AgentError('BAD_PLAN_FILE', `${source}: not JSON (${errorMessage(e)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Phase2AgentError('BAD_PLAN_FILE', `${source}: expected {"<package id>": {"calls": [...]}}`);
  const out = new Map<string, Json>();
  for (const [id, plan] of Object.entries(data as Record<string, Json>)) {
    const hex = id.replace(/^0[xX]/, '');
    if (!/^[0-9a-fA-F]{1,64}$/.test(hex)) throw new Phase2AgentError('BAD_PLAN_FILE', `${source}: "${id}" is not a package id`);
    out.set(canonicalAddress(hex), plan);
  }
  return out;
}

/** The plans an agent gives for `pkg`. */
export function agentPlans(agent: StaticPhase2Agent, pkg: MovePackage, options: { planFile?: ReadonlyMap<string, Json>; maxCandidates?: number }): Json[] {
  switch (agent) {
    case 'mock-empty':
      return [{ calls: [] }];
    case 'mock-perfect':
      return [];
    case 'mock-planfile': {
      if (!options.planFile) throw new Phase2AgentError('NEEDS_PLAN_FILE', 'the mock-planfile agent needs --plan-file');
      const plan = options.planFile.get(pkg.id);
      return plan === undefined ? [] : [plan];
    }
    case 'baseline-search':
      return baselineCandidates(pkg)
        .flatMap((c) => (c.$kind === 'Ok' ? [c.plan] : []))
        .slice(0, options.maxCandidates ?? 25);
  }
}
