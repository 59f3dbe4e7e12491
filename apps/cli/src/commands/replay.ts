/**
 * `smi replay --snapshot <file>`: run a mainnet transaction from a sui-replay snapshot
 * offline and compare it with the recorded effects: status, then every object (change,
 * version, digest), gas next to the recorded figures, the events digest and dependencies.
 * Exit 0 when status and objects match, 1 when they differ, 2 on bad input.
 */
import { fixturesRootNamed } from '../framework.js';
import { snakeKeys } from '../snake-json.js';
import { locateProtocolConfig, parseReplaySnapshot, replaySnapshot, type ReplayReport } from '@smi/simulation';
import { defineCommand } from '../command.js';
import { inputError, UsageError } from '../errors.js';
import { type CliIo, jsonLine, readInput } from '../io.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface ReplayArgs {
  snapshot: string;
  'permissive-crypto': boolean;
}

const mark = (ok: boolean): string => (ok ? 'ok' : 'DIFFERS');

/** The report as JSON (the execution result itself is left out). */
function replayJson(r: ReplayReport): Record<string, unknown> {
  const { result: _result, ...rest } = r;
  return snakeKeys(rest) as Record<string, unknown>;
}

function printReport(io: CliIo, r: ReplayReport): void {
  io.stdout(`replay ${r.digest} (protocol ${r.protocolVersion})\n`);
  io.stdout(`  status: ${r.status.actual} (recorded ${r.status.expected}) ${mark(r.status.match)}${r.status.message ? ` — ${r.status.message}` : ''}\n`);
  for (const o of r.objects) {
    const side = (s: typeof o.expected): string => (s === null ? '—' : `${s.change} v${s.version} ${s.digest}`);
    io.stdout(`  ${mark(o.match).padEnd(7)} ${o.id}\n           ours:     ${side(o.actual)}\n           recorded: ${side(o.expected)}\n`);
  }
  for (const [k, c] of Object.entries(r.gas)) io.stdout(`  gas ${k}: ${c.actual} (recorded ${c.expected}) ${mark(c.match)}\n`);
  io.stdout(`  events digest: ${r.eventsDigest.actual ?? 'none'} (recorded ${r.eventsDigest.expected ?? 'none'}) ${mark(r.eventsDigest.match)}\n`);
  io.stdout(`  dependencies: ${r.dependencies.actual.length} (recorded ${r.dependencies.expected.length}) ${mark(r.dependencies.match)}\n`);
  const matched = r.objects.filter((o) => o.match).length;
  const verdict = r.match && r.gasMatch ? 'MATCH' : r.match ? 'MISMATCH (gas only: status and every object match)' : 'MISMATCH';
  io.stdout(`${verdict}: ${matched}/${r.objects.length} objects${r.gasMatch ? ', gas equal' : ', gas differs'}\n`);
}

/** `smi replay`. */
export const replayCommand = defineCommand<ReplayArgs>({
  ...header('replay'),
  options: {
    snapshot: { type: 'string', demandOption: true, describe: 'sui-replay snapshot JSON (fixtures/replay/<digest>.json), or - for standard input', file: 'read' },
    'permissive-crypto': { type: 'boolean', default: false, describe: 'Signature checks always pass (benchmark runs)' },
  },
  examples: [
    { command: '$0 replay --snapshot ../shared/fixtures/replay/4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json', describe: 'a mainnet transaction, compared object by object' },
    { command: '$0 replay --snapshot - --json < ../shared/fixtures/replay/ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL.json', describe: 'a snapshot on standard input; the report as one JSON line' },
  ],
  epilog:
    'JSON keys are snake_case (match, gas_match, events_digest, ...). Exit 0 when status, every object and the gas match; 1 when any differs (gas too: a difference is a difference); 2 on bad input.',
  run: async (args, io) => {
    const fixtures = fixturesRootNamed(io);
    const source = args.snapshot === '-' ? 'standard input' : args.snapshot;
    const text = (await readInput(io, args.snapshot, '--snapshot')).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--snapshot ${source}: not JSON: ${errorMessage(e)}`, 'INVALID_JSON');
    }
    let report: ReplayReport;
    try {
      const snap = parseReplaySnapshot(json);
      const protocolConfig = locateProtocolConfig(snap.protocolVersion, { fixtures });
      report = replaySnapshot(snap, { protocolConfig, natives: { permissiveCrypto: args['permissive-crypto'] } });
    } catch (e) {
      throw inputError(`--snapshot ${source}`, e);
    }
    if (args.json) io.stdout(jsonLine(replayJson(report)));
    else printReport(io, report);
    return report.match && report.gasMatch ? 0 : 1;
  },
});
