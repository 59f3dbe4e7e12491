/**
 * The original's mock agents, made deterministic: `perfect` answers the truth, `empty`
 * nothing, `random` keeps each truth type when `random() < 0.5`, `noisy` when `< 0.7` and
 * adds five `0xdead::<randint(0, 9999)>::Fake`. As in the original, a fresh
 * `random.Random(seed)` serves each package; unlike it, the truth is visited in sorted
 * order (the original iterated a Python set, whose order changed with `PYTHONHASHSEED`).
 */
import { compareCodePoints } from '@smi/bytecode';
import { PyRandom } from './py-random.js';

/** Agents of Phase I. */
export const PHASE1_AGENTS = ['mock-perfect', 'mock-empty', 'mock-random', 'mock-noisy', 'real-openai-compatible'] as const;

/** A Phase I agent name. */
export type Phase1Agent = (typeof PHASE1_AGENTS)[number];

/** A mock agent name. */
export type MockAgent = Exclude<Phase1Agent, 'real-openai-compatible'>;

/** `true` for the mock agents. */
export function isMockAgent(agent: string): agent is MockAgent {
  return agent === 'mock-perfect' || agent === 'mock-empty' || agent === 'mock-random' || agent === 'mock-noisy';
}

/** A mock agent's prediction for a package whose truth is `truth`. */
export function mockPrediction(agent: MockAgent, truth: readonly string[], seed: bigint | number): string[] {
  if (agent === 'mock-perfect') return [...truth];
  if (agent === 'mock-empty') return [];
  const rng = new PyRandom(seed);
  const keep = agent === 'mock-random' ? 0.5 : 0.7;
  const out = new Set<string>();
  for (const t of [...new Set(truth)].sort(compareCodePoints)) if (rng.random() < keep) out.add(t);
  if (agent === 'mock-noisy') for (let i = 0; i < 5; i++) out.add(`0xdead::${rng.randint(0, 9999)}::Fake`);
  return [...out].sort(compareCodePoints);
}
