/**
 * `smi ptb-eval`: run every cached mainnet PTB offline and report whether it executes, healing
 * missing packages and objects from a node when `--enable-fetching` is given (the original's
 * self-healing loop). One JSON line a transaction (the original's `PtbEvalReport`), then its
 * summary: framework-only vs third-party success, top error categories, healing success rate.
 */
import { type FetchedReplay, type PtbEvalReport, ptbEvalSummary, evaluateTransaction, TransactionCache } from '@smi/simulation';
import { fixturesRootNamed } from '../framework.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { type CliIo, jsonLine, resolvePath } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { openOutput } from './tx-replay-output.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface PtbEvalArgs extends NetworkArgs {
  'cache-dir': string;
  output?: string;
  'max-retries': number;
  'enable-fetching': boolean;
  'framework-only': boolean;
  'third-party-only': boolean;
  limit?: number;
  verbose: boolean;
  'show-healing': boolean;
  'save-healed': boolean;
  'permissive-crypto': boolean;
}

function summaryText(s: ReturnType<typeof ptbEvalSummary>): string {
  const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
  const lines = [
    `Total: ${s.total}  Success: ${s.success} (${pct(s.success, s.total)})  Failed: ${s.failed}  Skipped: ${s.skipped}`,
    `Framework-only: ${s.framework_only.success}/${s.framework_only.total} (${pct(s.framework_only.success, s.framework_only.total)})  Third-party: ${s.third_party.success}/${s.third_party.total} (${pct(s.third_party.success, s.third_party.total)})`,
    `Healing: ${s.healing.successful_actions}/${s.healing.actions} actions succeeded (${pct(s.healing.successful_actions, s.healing.actions)}), ${s.healing.transactions_healed} transactions healed`,
  ];
  if (s.top_error_categories.length > 0) lines.push(`Top error categories: ${s.top_error_categories.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  return lines.join('\n') + '\n';
}

/** `smi ptb-eval`. */
export const ptbEvalCommand = defineCommand<PtbEvalArgs>({
  ...header('ptb-eval'),
  options: {
    'cache-dir': { type: 'string', default: '.tx-cache', describe: 'The transaction cache smi tx-replay fills' },
    output: { type: 'string', describe: 'Write one PtbEvalReport JSON line a transaction here, or - for standard output', file: 'write' },
    'max-retries': { type: 'number', default: 3, describe: 'Healing rounds a transaction gets' },
    'enable-fetching': { type: 'boolean', default: false, describe: 'Fetch missing packages and objects from the node (--rpc-url)' },
    'framework-only': { type: 'boolean', default: false, describe: 'Only transactions whose Move calls are all to 0x1, 0x2, 0x3' },
    'third-party-only': { type: 'boolean', default: false, describe: 'Only transactions calling other packages' },
    limit: { type: 'number', describe: 'Evaluate at most N transactions' },
    verbose: { type: 'boolean', alias: 'v', default: false, describe: 'One line a transaction on stderr' },
    'show-healing': { type: 'boolean', default: false, describe: 'Print every healing action' },
    'save-healed': { type: 'boolean', default: true, describe: 'Write what healing fetched back to the cache (--no-save-healed: leave it)' },
    'permissive-crypto': { type: 'boolean', default: false, describe: 'Signature checks always pass' },
    ...NETWORK_OPTIONS,
  },
  examples: [
    {
      command: '$0 tx-replay --import-snapshot ../shared/fixtures/replay/ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL.json --cache-dir txs && $0 ptb-eval --cache-dir txs --output -',
      describe: 'a cached mainnet transaction evaluated offline, its report on standard output',
    },
  ],
  epilog:
    'Healing: a package or object a transaction misses is fetched from --rpc-url (with --enable-fetching) at the version the transaction read, added, and the transaction runs again, up to --max-retries times; without fetching the missing thing is reported once. ' +
    'Categories: MissingPackage, MissingObject, Abort(<code>), TypeMismatch, DeserializationFailed, SharedObjectLockConflict, ExecutionError, ConversionError. Exit 0 when every transaction ran, 1 when one failed, 2 on bad input, 130 when interrupted.',
  longRunning: true,
  run: async (args, io: CliIo) => {
    if (args['framework-only'] && args['third-party-only']) throw new UsageError('give either --framework-only or --third-party-only', 'USAGE');
    if (!Number.isInteger(args['max-retries']) || args['max-retries'] < 0) throw new UsageError(`--max-retries ${args['max-retries']}: expected a non-negative integer`, 'INVALID_NUMBER');
    if (args.limit !== undefined && (!Number.isInteger(args.limit) || args.limit < 1)) throw new UsageError(`--limit ${args.limit}: expected a positive integer`, 'INVALID_NUMBER');
    if (args.output === '-' && args.json) throw new UsageError('--json and --output - both print on standard output: give --output a file', 'USAGE');
    const cache = new TransactionCache(resolvePath(io, args['cache-dir']));
    const digests = cache.digests();
    if (digests.length === 0) throw new UsageError(`${cache.dir} holds no cached transactions (fill it with smi tx-replay --cache-dir ${args['cache-dir']} --download-only)`, 'EMPTY_CACHE');
    const fixturesRoot = fixturesRootNamed(io);
    const fetcher = args['enable-fetching'] ? dataSourceOf(args, (m) => args.verbose && !args.quiet && io.stderr(`ptb-eval: retry: ${m}\n`)) : null;
    const output = openOutput(io, args.output);
    const reports: PtbEvalReport[] = [];
    for (const d of digests) {
      if (io.signal?.aborted) break;
      if (args.limit !== undefined && reports.length >= args.limit) break;
      let f: FetchedReplay;
      try {
        f = cache.read(d);
      } catch (e) {
        const report: PtbEvalReport = {
          digest: d,
          is_framework_only: false,
          command_count: 0,
          input_count: 0,
          status: 'Skipped',
          retry_count: 0,
          error: errorMessage(e),
          error_category: 'ConversionError',
        };
        reports.push(report);
        output?.write(report as never);
        continue;
      }
      const { report, healed } = await evaluateTransaction(f, {
        fixturesRoot,
        maxRetries: args['max-retries'],
        fetcher,
        permissiveCrypto: args['permissive-crypto'],
        onHeal: (a) => {
          if (args['show-healing'] && !args.quiet) io.stderr(`ptb-eval: ${d}: ${a.action_type} ${a.success ? 'ok' : 'FAILED'}: ${a.details}\n`);
        },
      });
      if ((args['framework-only'] && !report.is_framework_only) || (args['third-party-only'] && report.is_framework_only)) continue;
      if (healed !== null && args['save-healed']) cache.write(healed);
      reports.push(report);
      output?.write(report as never);
      if (args.verbose && !args.quiet)
        io.stderr(`ptb-eval: ${d} ${report.status}${report.error_category ? ` ${report.error_category}` : ''}${report.retry_count > 0 ? ` after ${report.retry_count} healing rounds` : ''}\n`);
    }
    output?.close();
    const summary = ptbEvalSummary(reports);
    if (args.json) io.stdout(jsonLine({ status: io.signal?.aborted ? 'interrupted' : 'done', cache_dir: cache.dir, ...summary }));
    else if (!args.quiet) {
      if (args.output === '-') io.stderr(summaryText(summary));
      else io.stdout(summaryText(summary));
    }
    if (io.signal?.aborted) return EXIT.interrupted;
    return summary.failed + summary.skipped > 0 ? EXIT.failure : EXIT.ok;
  },
});
