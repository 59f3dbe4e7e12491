/**
 * `smi tx-replay`: the original's mainnet transaction fetcher and replayer, over Sui's gRPC or
 * GraphQL API (JSON-RPC is gone). Fetch a transaction (`--digest`) or the most recent ones
 * (`--recent N`) with every input object at the version it read and every package it
 * reaches; keep them in a cache (`--cache-dir`, the original's CachedTransaction JSON plus
 * what an exact replay needs); replay them offline (`--replay`, `--from-cache`, on worker
 * threads with `--parallel`) and compare the full effects, beside the original's match_score.
 */
import { availableProtocolVersions } from '@smi/move-vm';
import { fixturesRootNamed } from '../framework.js';
import { canonicalAddress, SYSTEM_PACKAGES, errorMessage } from '@smi/bytecode';
import type { SuiObject } from '@smi/ptb';
import {
  DataSourceError,
  fetchedFromSnapshot,
  type FetchedReplay,
  fetchedReplayJson,
  fetchReplaySnapshot,
  fetchRuntimeChildren,
  frameworkSnapshotFor,
  locateProtocolConfig,
  loadCorpus,
  NotProgrammableError,
  packageObjectOf,
  readReplaySnapshot,
  type ReplayOutcome,
  replayCachedParallel,
  replayFetched,
  type SuiDataSource,
  TransactionCache,
} from '@smi/simulation';
import { defineCommand } from '../command.js';
import { EXIT, inputError, UsageError } from '../errors.js';
import { type CliIo, jsonLine, resolvePath } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { openOutput } from './tx-replay-output.js';
import { header } from './registry.js';

interface TxReplayArgs extends NetworkArgs {
  digest?: string[];
  'import-snapshot'?: string[];
  recent?: number;
  output?: string;
  'bytecode-corpus'?: string;
  'summary-only': boolean;
  verbose: boolean;
  'fetch-objects': boolean;
  validate: boolean;
  replay: boolean;
  'framework-only': boolean;
  'cache-dir'?: string;
  'download-only': boolean;
  'from-cache': boolean;
  parallel: boolean;
  threads?: number;
  'clear-cache': boolean;
  'permissive-crypto': boolean;
}

const SYSTEM_CALLS = new Set(['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a)));

/** Every MoveCall of the transaction goes to 0x1, 0x2 or 0x3. */
function frameworkOnly(f: FetchedReplay): boolean {
  const k = f.snapshot.transaction.V1.kind;
  if (k.$kind !== 'ProgrammableTransaction') return false;
  return k.ProgrammableTransaction.commands.every((c) => c.$kind !== 'MoveCall' || SYSTEM_CALLS.has(canonicalAddress(c.MoveCall.package)));
}

/**
 * The node could not say which dynamic-field children the transaction read: replay it to find
 * them and fetch them (needs the protocol config of its version: the fixtures, else the cache).
 */
async function findChildren(f: FetchedReplay, source: SuiDataSource, fixtures: string, verbose: (line: string) => void, warn: (line: string) => void): Promise<void> {
  let protocolConfig;
  try {
    protocolConfig = locateProtocolConfig(f.snapshot.protocolVersion, { fixtures });
  } catch {
    warn(
      `the node did not say which dynamic fields it read, and protocol ${f.snapshot.protocolVersion}'s config is not here to find them (smi fetch framework --protocol-version ${f.snapshot.protocolVersion})`,
    );
    return;
  }
  const children = await fetchRuntimeChildren(source, f, { protocolConfig, onFetch: verbose });
  const approximate = children.filter((c) => c.how === 'current' && c.version !== null);
  if (children.length > 0) verbose(`${children.length} dynamic-field children found by replaying (${children.map((c) => `${c.id}${c.version === null ? ' absent' : ` v${c.version}`}`).join(', ')})`);
  if (approximate.length > 0) warn(`${approximate.length} dynamic-field children are the node's current version (it cannot give them as of the transaction): the replay may differ`);
}

/** The digests of the `n` most recent transactions, walking back from the latest checkpoint. */
async function recentDigests(source: SuiDataSource, n: number, io: CliIo, quiet: boolean): Promise<string[]> {
  const out: string[] = [];
  let seq = await source.latestCheckpoint();
  while (out.length < n && seq >= 0n) {
    const digests = await source.checkpointTransactions(seq);
    for (const d of [...digests].reverse()) if (out.length < n) out.push(d);
    if (!quiet) io.stderr(`tx-replay: checkpoint ${seq}: ${out.length}/${n} transactions\n`);
    seq--;
  }
  return out;
}

function oneLine(o: ReplayOutcome): string {
  const verdict = o.error !== null ? 'ERROR' : o.match ? 'MATCH' : 'MISMATCH';
  const score = o.comparison ? ` match_score ${o.comparison.match_score.toFixed(2)}` : '';
  const detail = o.error ?? (o.local_success ? '' : ` (${o.local_error ?? 'failed'})`);
  return `${o.digest} ${verdict} objects ${o.objects_matched}/${o.objects_total}${o.gas_match ? ', gas equal' : o.error === null ? ', gas differs' : ''}${score}${o.error !== null ? `: ${detail}` : detail}\n`;
}

/** `smi tx-replay`. */
export const txReplayCommand = defineCommand<TxReplayArgs>({
  ...header('tx-replay'),
  options: {
    digest: { type: 'string', array: true, describe: 'Transaction digest(s) to fetch (base58)' },
    recent: { type: 'number', describe: 'Fetch the N most recent transactions (walking back from the latest checkpoint)' },
    'import-snapshot': { type: 'string', array: true, describe: 'Put sui-replay snapshot files (fixtures/replay/<digest>.json) in --cache-dir, offline' },
    ...NETWORK_OPTIONS,
    output: { type: 'string', describe: "Write each transaction as the original's FetchedTransaction JSON line here, or - for standard output", file: 'write' },
    'bytecode-corpus': { type: 'string', describe: 'Packages held locally (sui-packages layout), used before fetching' },
    'summary-only': { type: 'boolean', default: false, describe: 'Print only the summary' },
    verbose: { type: 'boolean', alias: 'v', default: false, describe: 'Say what is fetched, retried and compared' },
    'fetch-objects': { type: 'boolean', default: false, describe: 'Fetch the input objects too when only listing (always done for --replay and --cache-dir)' },
    validate: { type: 'boolean', default: false, describe: 'Print the recorded effects of each transaction' },
    replay: { type: 'boolean', default: false, describe: 'Replay each transaction offline and compare with its recorded effects' },
    'framework-only': { type: 'boolean', default: false, describe: 'Keep only transactions whose Move calls are all to 0x1, 0x2 or 0x3' },
    'cache-dir': { type: 'string', describe: 'Transaction cache (<dir>/<digest>.json): fetched once, read from there after' },
    'download-only': { type: 'boolean', default: false, describe: 'Fetch into --cache-dir and stop (--recent defaults to 100)' },
    'from-cache': { type: 'boolean', default: false, describe: 'Replay what --cache-dir holds (or the --digest ones), without the network' },
    parallel: { type: 'boolean', default: false, describe: 'With --from-cache: replay on worker threads' },
    threads: { type: 'number', describe: 'Worker threads for --parallel (default: CPUs)' },
    'clear-cache': { type: 'boolean', default: false, describe: 'Empty --cache-dir first' },
    'permissive-crypto': { type: 'boolean', default: false, describe: 'Signature checks always pass' },
  },
  examples: [
    {
      command: '$0 tx-replay --import-snapshot ../shared/fixtures/replay/4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json --cache-dir txs && $0 tx-replay --from-cache --cache-dir txs',
      describe: 'offline: a recorded mainnet transaction into a cache, then replayed from it',
    },
    {
      command:
        '$0 tx-replay --import-snapshot ../shared/fixtures/replay/ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL.json --cache-dir txs && $0 tx-replay --from-cache --cache-dir txs --parallel --threads 2 --json',
      describe: 'the cache replayed on worker threads, one JSON line per transaction',
    },
  ],
  epilog:
    'Endpoints: --rpc-url takes a gRPC URL, a GraphQL URL (…/graphql) or a name (mainnet, testnet, mainnet-graphql, mainnet-archive); public endpoints are rate-limited. ' +
    'System packages of old transactions come from the framework of their protocol version ($SMI_FIXTURES/fixtures/framework-snapshots); a node serves only their latest version. ' +
    'Exit 0 when every transaction was fetched (and, when replayed, matched its recorded status and objects), 1 when one failed or differed, 2 on bad input, 130 when interrupted.',
  longRunning: true,
  run: async (args, io) => {
    const quiet = args.quiet || args['summary-only'];
    const say = (t: string): void => {
      if (!quiet) io.stderr(t);
    };
    const verbose = (t: string): void => {
      if (args.verbose && !args.quiet) io.stderr(`tx-replay: ${t}\n`);
    };
    if (args['from-cache'] && args['cache-dir'] === undefined) throw new UsageError('--from-cache reads --cache-dir: give it', 'USAGE');
    if (args['download-only'] && args['cache-dir'] === undefined) throw new UsageError('--download-only fills --cache-dir: give it', 'USAGE');
    if (args.parallel && !args['from-cache']) throw new UsageError('--parallel replays the cache: add --from-cache', 'USAGE');
    if (args['clear-cache'] && args['cache-dir'] === undefined) throw new UsageError('--clear-cache empties --cache-dir: give it', 'USAGE');
    const importing = args['import-snapshot'] !== undefined;
    if (importing && args['cache-dir'] === undefined) throw new UsageError('--import-snapshot fills --cache-dir: give it', 'USAGE');
    if (!args['from-cache'] && args.digest === undefined && args.recent === undefined && !args['clear-cache'] && !importing)
      throw new UsageError('give --digest, --recent N, --import-snapshot or --from-cache', 'USAGE');
    if (args.recent !== undefined && (!Number.isInteger(args.recent) || args.recent < 1)) throw new UsageError(`--recent ${args.recent}: expected a positive integer`, 'INVALID_NUMBER');
    const cache = args['cache-dir'] === undefined ? null : new TransactionCache(resolvePath(io, args['cache-dir']));
    for (const d of args.digest ?? []) if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(d)) throw new UsageError(`--digest ${d}: not a transaction digest (base58)`, 'INVALID_DIGEST');
    const fixtures = fixturesRootNamed(io);
    const hasFixtures = (() => {
      try {
        return availableProtocolVersions(fixtures).length > 0;
      } catch {
        return false;
      }
    })();
    if (cache !== null && args['clear-cache']) say(`tx-replay: removed ${cache.clear()} cached transactions from ${cache.dir}\n`);
    for (const file of args['import-snapshot'] ?? []) {
      let f: FetchedReplay;
      try {
        f = fetchedFromSnapshot(readReplaySnapshot(resolvePath(io, file)));
      } catch (e) {
        throw inputError(`--import-snapshot ${file}`, e);
      }
      say(`tx-replay: ${f.snapshot.digest} from ${file} → ${(cache as TransactionCache).write(f)}\n`);
    }
    if (args.digest === undefined && args.recent === undefined && !args['from-cache']) return EXIT.ok;
    const started = performance.now();
    const outcomes: ReplayOutcome[] = [];
    let fetchFailures = 0;
    /** Fetches that failed because the node did not answer. */
    let unavailable = 0;
    let skipped = 0;
    const output = openOutput(io, args.output);
    const writeOutput = (f: FetchedReplay): void => output?.write(fetchedReplayJson(f));
    const doReplay = (args.replay || args['from-cache']) && !args['download-only'];
    if (doReplay && !hasFixtures) throw new UsageError(`replaying needs the protocol configs of $SMI_FIXTURES (${fixtures}/fixtures/protocol-configs)`, 'MISSING_FIXTURES');

    if (args['from-cache']) {
      const c = cache as TransactionCache;
      const digests = args.digest ?? c.digests();
      if (digests.length === 0) throw new UsageError(`${c.dir} holds no cached transactions`, 'EMPTY_CACHE');
      say(`tx-replay: replaying ${digests.length} cached transactions${args.parallel ? ` on ${args.threads ?? 'all'} threads` : ''}\n`);
      const options = { fixturesRoot: fixtures, permissiveCrypto: args['permissive-crypto'] };
      if (args.parallel) {
        const { availableParallelism } = await import('node:os');
        const results = await replayCachedParallel(c.dir, digests, args.threads ?? availableParallelism(), {
          ...options,
          ...(io.signal ? { signal: io.signal } : {}),
          onOutcome: (o) => {
            if (args.json) io.stdout(jsonLine(o));
            else if (!args['summary-only']) io.stdout(oneLine(o));
          },
        });
        outcomes.push(...results);
      } else {
        for (const d of digests) {
          if (io.signal?.aborted) break;
          let f: FetchedReplay;
          try {
            f = c.read(d);
          } catch (e) {
            const error = errorMessage(e);
            outcomes.push({
              digest: d,
              local_success: false,
              local_error: error,
              comparison: null,
              commands_executed: 0,
              commands_failed: 0,
              match: false,
              gas_match: false,
              objects_matched: 0,
              objects_total: 0,
              error,
            });
            continue;
          }
          if (args['framework-only'] && !frameworkOnly(f)) continue;
          writeOutput(f);
          const o = replayFetched(f, options).outcome;
          outcomes.push(o);
          if (args.json) io.stdout(jsonLine(o));
          else if (!args['summary-only']) io.stdout(oneLine(o));
        }
      }
    } else {
      const source = dataSourceOf(args, (m) => verbose(`retry: ${m}`));
      const local = new Map<string, SuiObject>();
      if (args['bytecode-corpus'] !== undefined) for (const p of loadCorpus(resolvePath(io, args['bytecode-corpus']))) local.set(canonicalAddress(p.id), packageObjectOf(p));
      let digests = args.digest ?? [];
      if (args.recent !== undefined) digests = [...digests, ...(await recentDigests(source, args.recent, io, quiet))];
      say(`tx-replay: ${digests.length} transactions from ${source.endpoint}${cache ? `, cache ${cache.dir}` : ''}\n`);
      for (const d of digests) {
        if (io.signal?.aborted) break;
        let f: FetchedReplay;
        try {
          if (cache !== null && cache.has(d)) {
            verbose(`${d}: from the cache`);
            f = cache.read(d);
          } else {
            f = await fetchReplaySnapshot(source, d, {
              ...(hasFixtures
                ? { localSystemPackage: (id: string, protocol: number) => (SYSTEM_PACKAGES.has(id) ? frameworkSnapshotFor(fixtures, protocol)?.packages.find((p) => p.id === id) : undefined) }
                : {}),
              localPackage: (id) => local.get(id),
              onFetch: (what) => verbose(`${d}: ${what}`),
            });
            if (f.runtimeObjectsKnown === false)
              await findChildren(
                f,
                source,
                fixtures,
                (line) => verbose(`${d}: ${line}`),
                (line) => say(`tx-replay: ${d}: ${line}\n`),
              );
            if (cache !== null) verbose(`${d}: cached in ${cache.write(f)}`);
            for (const p of f.systemPackages)
              if (p.source === 'current') say(`tx-replay: ${d}: system package ${p.id} is the node's latest (v${p.version}); no framework snapshot for protocol ${f.snapshot.protocolVersion}\n`);
          }
        } catch (e) {
          if (e instanceof NotProgrammableError) {
            skipped++;
            verbose(`${d}: skipped: ${e.message}`);
            continue;
          }
          fetchFailures++;
          if (e instanceof DataSourceError && e.code === 'UNAVAILABLE') unavailable++;
          const message = e instanceof DataSourceError ? `${e.code}: ${e.message}` : errorMessage(e);
          io.stderr(`tx-replay: ${d}: ${message}\n`);
          if (args.json) io.stdout(jsonLine({ digest: d, error: message }));
          continue;
        }
        if (args['framework-only'] && !frameworkOnly(f)) continue;
        writeOutput(f);
        if (args.validate && !args['summary-only']) {
          const fx = f.snapshot.effects;
          io.stdout(
            `${d} recorded: ${fx.status}${fx.error ? ` (${fx.error})` : ''}, created ${fx.created.length}, mutated ${fx.mutated.length}, deleted ${fx.deleted.length}, wrapped ${fx.wrapped.length}, gas ${fx.gasUsed.computationCost}+${fx.gasUsed.storageCost}-${fx.gasUsed.storageRebate}\n`,
          );
        }
        if (!doReplay) continue;
        const o = replayFetched(f, { fixturesRoot: fixtures, permissiveCrypto: args['permissive-crypto'] }).outcome;
        outcomes.push(o);
        if (args.json) io.stdout(jsonLine(o));
        else if (!args['summary-only']) io.stdout(oneLine(o));
      }
    }
    output?.close();
    if (skipped > 0) say(`tx-replay: skipped ${skipped} system transactions (not programmable)\n`);
    const seconds = (performance.now() - started) / 1000;
    if (outcomes.length > 0) {
      const ok = outcomes.filter((o) => o.local_success).length;
      const status = outcomes.filter((o) => o.comparison?.status_match === true).length;
      const full = outcomes.filter((o) => o.match).length;
      const text = `Total: ${outcomes.length}  Successful: ${ok}  Status match: ${status}  Full match: ${full}  Gas equal: ${outcomes.filter((o) => o.gas_match).length}  Time: ${seconds.toFixed(2)} s (${(outcomes.length / Math.max(seconds, 1e-9)).toFixed(1)} tx/s)\n`;
      if (args.json) io.stderr(text);
      else io.stdout(text);
    }
    if (io.signal?.aborted) return EXIT.interrupted;
    // Nothing replayed because the node did not answer: the exit of every network command then.
    if (unavailable > 0 && unavailable === fetchFailures && outcomes.length === 0) return EXIT.unavailable;
    return fetchFailures > 0 || outcomes.some((o) => !o.match) ? EXIT.failure : EXIT.ok;
  },
});
