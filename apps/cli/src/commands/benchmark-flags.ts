/**
 * `benchmark-local` flags checked and turned into run options: regular expressions that
 * compile, numbers in range, a hex seed, a `K/N` shard. Each bad value is a usage error
 * that names the flag.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_MAX_ATTEMPTS, type RunOptions } from '@smi/inhabit';
import { UsageError } from '../errors.js';
import type { NetworkArgs } from '../network-setup.js';
import { errorMessage } from '@smi/bytecode';

/** The flags of `smi benchmark-local`, as parsed. */
export interface BenchmarkLocalArgs extends NetworkArgs {
  'target-corpus': string[];
  sample: boolean;
  output: string;
  'tier-a-only': boolean;
  'restricted-state': boolean;
  'use-mm2': boolean;
  'static-only': boolean;
  'max-chain-depth': number;
  'phase-errors': boolean;
  'error-distribution': boolean;
  'function-filter'?: string;
  'module-filter'?: string;
  'use-ptb': boolean;
  'strict-crypto': boolean;
  'clock-base-ms'?: string;
  'random-seed'?: string;
  corpus: string[];
  'package-ids-file'?: string;
  'include-framework': boolean;
  jobs?: number;
  shard?: string;
  summary?: string;
  resume: boolean;
  timings: boolean;
  'max-attempts'?: number;
  'gas-budget'?: string;
  'timeout-ms': number;
  framework?: string;
  'protocol-version'?: number;
}

/** The run options the flags decide (everything but the packages and protocol config). */
export type BenchmarkFlags = Omit<RunOptions, 'framework' | 'dependencies' | 'targets' | 'protocolConfig'> & { jobs: number };

function regex(flag: string, text: string | undefined): RegExp | null {
  if (text === undefined) return null;
  try {
    return new RegExp(text);
  } catch (e) {
    throw new UsageError(`--${flag} ${JSON.stringify(text)}: not a regular expression (${errorMessage(e)})`, 'INVALID_REGEX');
  }
}

function integer(flag: string, v: number | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min) throw new UsageError(`--${flag} ${v}: expected an integer of at least ${min}`, 'INVALID_NUMBER');
  return v;
}

function u64(flag: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || BigInt(text.trim()) >= 1n << 64n) throw new UsageError(`--${flag} ${text}: expected a decimal u64`, 'INVALID_NUMBER');
  return BigInt(text.trim());
}

/** `--random-seed`: hex (`0x` optional), at most 32 bytes, zero-padded at the end. */
function parseSeed(text: string | undefined): Uint8Array | null {
  if (text === undefined) return null;
  let hex = text.trim().replace(/^0x/i, '');
  if (hex.length === 0 || hex.length > 64 || !/^[0-9a-fA-F]+$/.test(hex)) throw new UsageError(`--random-seed ${text}: expected hex, at most 64 digits`, 'INVALID_SEED');
  if (hex.length % 2 === 1) hex = '0' + hex;
  const seed = new Uint8Array(32);
  seed.set(Buffer.from(hex, 'hex'));
  return seed;
}

/** `--shard K/N`. */
export function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${text}: expected K/N with 1 <= K <= N (e.g. 1/4)`, 'INVALID_SHARD');
  return { index, count };
}

/** Every flag checked. */
export function parseBenchmarkFlags(args: BenchmarkLocalArgs): BenchmarkFlags {
  const clock = u64('clock-base-ms', args['clock-base-ms']);
  const gas = u64('gas-budget', args['gas-budget']);
  if (gas === 0n) throw new UsageError('--gas-budget 0: a transaction needs a budget', 'INVALID_NUMBER');
  const shard = parseShard(args.shard);
  return {
    tierAOnly: args['tier-a-only'],
    staticOnly: args['static-only'],
    restrictedState: args['restricted-state'],
    multiHop: args['use-mm2'],
    maxChainDepth: integer('max-chain-depth', args['max-chain-depth'], 1) ?? 5,
    usePtb: args['use-ptb'],
    strictCrypto: args['strict-crypto'],
    ...(clock === undefined ? {} : { clockBaseMs: clock }),
    randomSeed: parseSeed(args['random-seed']),
    phaseErrors: args['phase-errors'],
    functionFilter: regex('function-filter', args['function-filter']),
    moduleFilter: regex('module-filter', args['module-filter']),
    includeFramework: args['include-framework'],
    maxAttempts: integer('max-attempts', args['max-attempts'], 1) ?? DEFAULT_MAX_ATTEMPTS,
    ...(gas === undefined ? {} : { gasBudget: gas }),
    timings: args.timings,
    // One job runs in this thread (no worker to start); more run on worker threads.
    jobs: integer('jobs', args.jobs, 1) ?? availableParallelism(),
    ...(shard === undefined ? {} : { shard }),
    timeoutMs: integer('timeout-ms', args['timeout-ms'], 1) ?? 60_000,
  };
}
