/**
 * The options of `runPhase2` that tests share: the shared corpus, every package of it, the
 * framework and protocol of the fixtures, a local simulation with the CLI's defaults (sender
 * 0xa11ce with two coins, publisher 0xb0b, the gas ladder), a run in memory. A test names
 * only what it changes.
 */
import type { MovePackage } from '@smi/bytecode';
import { MemoryRunStore, type Phase2Options } from '@smi/harness';
import type { ProtocolConfig } from '@smi/move-vm';
import { fromFixtures } from '@smi/simulation';
import { fixturePath, FIXTURES_ROOT } from './fixtures.js';

/** The sender of every transaction (the CLI's default). */
export const PHASE2_SENDER = '0x' + 'a11ce'.padStart(64, '0');

let loaded: { framework: MovePackage[]; protocolConfig: ProtocolConfig } | null = null;

/** The framework packages of the fixtures (0x1 … 0xdee9) and their latest protocol config, loaded once. */
function phase2Framework(): { framework: MovePackage[]; protocolConfig: ProtocolConfig } {
  if (loaded === null) {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    loaded = { framework: packages.filter((p) => BigInt(p.id) <= 0xdee9n), protocolConfig };
  }
  return loaded;
}

/** `runPhase2` options: the shared defaults, with `overrides` (the fixtures' framework is loaded only when not given). */
export function phase2Options(overrides: Partial<Phase2Options> = {}): Phase2Options {
  const { framework, protocolConfig } =
    overrides.framework !== undefined && overrides.protocolConfig !== undefined ? { framework: overrides.framework, protocolConfig: overrides.protocolConfig } : phase2Framework();
  return {
    corpusRoot: fixturePath('corpus'),
    samples: 0,
    seed: 0n,
    agent: 'mock-empty',
    framework,
    protocolConfig,
    simulationMode: 'local',
    sender: PHASE2_SENDER,
    publisher: '0x' + 'b0b'.padStart(64, '0'),
    senderCoins: 2,
    coinBalance: 100_000_000_000n,
    gasBudget: 10_000_000n,
    gasBudgetLadder: [50_000_000n],
    maxHeuristicVariants: 4,
    baselineMaxCandidates: 25,
    store: new MemoryRunStore(),
    runId: 'p2',
    continueOnError: true,
    ...overrides,
  };
}
