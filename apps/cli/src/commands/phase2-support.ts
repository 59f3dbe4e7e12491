/**
 * What the commands that run Phase II share (`smi phase2`, `smi run-all`): the simulation's
 * options (mode, sender and its coins, gas, framework, protocol) declared once, and read
 * into the settings `runPhase2` takes, with the same errors for bad values. The modes that
 * run plans on a node (dry-run, dev-inspect) are `smi phase2`'s only; it adds the network
 * options itself.
 */
import type { MissingDependencies, Phase2Options } from '@smi/harness';
import { UsageError } from '../errors.js';
import { frameworkPackages, protocolConfigFor } from '../framework.js';
import type { CliIo } from '../io.js';
import { canonicalAddress } from '@smi/bytecode';

/** The publisher whose transactions run each package's inits. */
export const PUBLISHER = canonicalAddress('0xb0b');

/** The sender of every transaction, unless `--sender` names another. */
export const DEFAULT_SENDER = canonicalAddress('0xa11ce');

/** A non-negative integer option (MIST, gas), or a usage error naming it. */
export function bigintOf(name: string, text: string): bigint {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${name} ${text}: expected a non-negative integer`, 'INVALID_NUMBER');
  return BigInt(text.trim());
}

/** An address option, padded to 32 bytes, or a usage error naming it. */
export function addressOf(name: string, text: string): string {
  const hex = text.trim().replace(/^0[xX]/, '');
  if (!/^[0-9a-fA-F]{1,64}$/.test(hex)) throw new UsageError(`--${name} ${text}: not an address`, 'INVALID_ADDRESS');
  return canonicalAddress(hex);
}

/** Where plans are simulated. */
export type SimulationMode = Phase2Options['simulationMode'];

/** `true` for the modes that run plans on a node. */
export function isNodeMode(mode: SimulationMode): mode is 'dry-run' | 'dev-inspect' {
  return mode === 'dry-run' || mode === 'dev-inspect';
}

/**
 * `--simulation-mode`: `local` or `build-only`, and with `node` (smi phase2) `dry-run` or
 * `dev-inspect`; without it those say they need a node.
 */
export function simulationModeOf(mode: string, options: { node?: boolean } = {}): SimulationMode {
  if (mode === 'dry-run' || mode === 'dev-inspect') {
    if (options.node === true) return mode;
    throw new UsageError(`--simulation-mode ${mode} runs plans on a fullnode: only smi phase2 does (use local here)`, 'NEEDS_NETWORK');
  }
  if (mode !== 'local' && mode !== 'build-only')
    throw new UsageError(`--simulation-mode ${mode}: expected ${options.node === true ? 'local, build-only, dry-run or dev-inspect' : 'local or build-only'}`, 'INVALID_CHOICE');
  return mode;
}

/** Arguments of the simulation options. */
export interface SimulationArgs {
  'simulation-mode': string;
  sender: string;
  'sender-coins': number;
  'coin-balance': string;
  'gas-budget': string;
  'gas-budget-ladder': string;
  'max-heuristic-variants': number;
  framework?: string;
  'protocol-version'?: number;
}

/** The simulation options as yargs declarations (merged into a command's options). */
export const SIMULATION_OPTIONS = {
  'simulation-mode': {
    type: 'string',
    default: 'local',
    describe: 'local (run every plan on our simulator) or build-only (check plans only); smi phase2 also runs them on a node (dry-run, dev-inspect)',
  },
  sender: {
    type: 'string',
    default: DEFAULT_SENDER,
    describe:
      'Sender of every transaction (on a node: a real address, which pays the gas); `publisher`: the address the inits ran as, so what they gave the publisher is usable (an upper bound, labelled in the run JSON)',
  },
  'sender-coins': { type: 'number', default: 2, describe: 'Coin<SUI> objects the sender holds (the first pays gas)' },
  'coin-balance': { type: 'string', default: '100000000000', describe: 'MIST in each sender coin' },
  'gas-budget': { type: 'string', default: '10000000', describe: 'First gas budget (MIST)' },
  'gas-budget-ladder': { type: 'string', default: '20000000,50000000', describe: 'Larger budgets tried in turn, only after running out of gas' },
  'max-heuristic-variants': { type: 'number', default: 4, describe: 'Variants of each plan tried (base, addr_sender, ints_0, ints_2, ints_10, ints_100)' },
  framework: { type: 'string', describe: 'Framework bundles directory (default $SMI_FIXTURES/fixtures/framework)' },
  'protocol-version': { type: 'number', describe: 'Mainnet protocol version of the simulation (default: latest)' },
} as const;

/** The simulation settings of `runPhase2`. */
export type SimulationSettings = Pick<
  Phase2Options,
  'framework' | 'protocolConfig' | 'simulationMode' | 'sender' | 'publisher' | 'senderCoins' | 'coinBalance' | 'gasBudget' | 'gasBudgetLadder' | 'maxHeuristicVariants'
>;

/**
 * The simulation settings from the options: every value checked (exit 2 naming the option),
 * the framework bundles and the protocol config loaded.
 */
export function simulationSettingsOf(io: CliIo, args: SimulationArgs, options: { node?: boolean } = {}): SimulationSettings {
  const simulationMode = simulationModeOf(args['simulation-mode'], options);
  const ladder = args['gas-budget-ladder'].trim() === '' ? [] : args['gas-budget-ladder'].split(',').map((x) => bigintOf('gas-budget-ladder', x));
  const sender = args.sender.trim() === 'publisher' ? PUBLISHER : addressOf('sender', args.sender);
  const coinBalance = bigintOf('coin-balance', args['coin-balance']);
  const gasBudget = bigintOf('gas-budget', args['gas-budget']);
  const framework = frameworkPackages(io, args.framework);
  const protocolConfig: SimulationSettings['protocolConfig'] = protocolConfigFor(io, args['protocol-version']);
  return {
    framework,
    protocolConfig,
    simulationMode,
    sender,
    publisher: PUBLISHER,
    senderCoins: args['sender-coins'],
    coinBalance,
    gasBudget,
    gasBudgetLadder: ladder,
    maxHeuristicVariants: args['max-heuristic-variants'],
  };
}

/** The warning about packages to run whose dependencies the corpus does not hold ('' when there are none). */
export function missingDependenciesWarning(prefix: string, unlinked: readonly MissingDependencies[]): string {
  if (unlinked.length === 0) return '';
  const ids = [...new Set(unlinked.flatMap((u) => u.missing))];
  const lines = [
    `${prefix}: warning: ${unlinked.length} of the packages to run link to ${ids.length} package(s) the corpus does not hold (their code cannot run; add them to --corpus-root): ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`,
  ];
  for (const u of unlinked.slice(0, 10)) lines.push(`  ${u.package_id} needs ${u.missing.join(', ')}`);
  if (unlinked.length > 10) lines.push(`  … and ${unlinked.length - 10} more (the run's events.jsonl lists them: missing_dependencies)`);
  return lines.join('\n') + '\n';
}
