/**
 * `smi replay --snapshot <file>`: run a mainnet transaction from a sui-replay snapshot
 * offline and compare it with the recorded effects: status, then every object (change,
 * version, digest), gas next to the recorded figures, the events digest and dependencies.
 * Exit 0 when status and objects match, 1 when they differ, 2 on bad input.
 */
import path from 'node:path';
import type { Argv } from 'yargs';
import { loadProtocolConfig, ProtocolConfigError } from '@smi/move-vm';
import { readReplaySnapshot, replaySnapshot, type ReplayReport, SimulationError } from '@smi/simulation';
import { type CliIo, jsonLine, resolvePath, UsageError } from '../io.js';

interface ReplayArgs {
  snapshot: string;
  json: boolean;
  'permissive-crypto': boolean;
}

const mark = (ok: boolean): string => (ok ? 'ok' : 'DIFFERS');

/** The report as JSON (the execution result itself is left out). */
export function replayJson(r: ReplayReport): Record<string, unknown> {
  const { result: _result, ...rest } = r;
  return rest;
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
  io.stdout(`${r.match ? 'MATCH' : 'MISMATCH'}: ${matched}/${r.objects.length} objects${r.gasMatch ? ', gas equal' : ', gas differs'}\n`);
}

/** Register the command. */
export function replayCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'replay',
    describe: 'Replay a mainnet transaction from a sui-replay snapshot offline and compare with its recorded effects',
    builder: (y: Argv) =>
      y
        .option('snapshot', { type: 'string', demandOption: true, describe: 'sui-replay snapshot JSON (fixtures/replay/<digest>.json)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the comparison as one JSON line' })
        .option('permissive-crypto', { type: 'boolean', default: false, describe: 'Signature checks always pass (benchmark runs)' })
        .example('$0 replay --snapshot ../shared/fixtures/replay/4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json', ''),
    handler: (args: ReplayArgs) => {
      const fixtures = resolvePath(io, process.env.SMI_FIXTURES ?? '../shared');
      let report: ReplayReport;
      try {
        const snap = readReplaySnapshot(resolvePath(io, args.snapshot));
        const protocolConfig = loadProtocolConfig(fixtures, snap.protocolVersion);
        report = replaySnapshot(snap, { protocolConfig, natives: { permissiveCrypto: args['permissive-crypto'] } });
      } catch (e) {
        if (e instanceof SimulationError || e instanceof ProtocolConfigError) throw new UsageError(`${path.basename(args.snapshot)}: ${e.message}`);
        throw e;
      }
      if (args.json) io.stdout(jsonLine(replayJson(report)));
      else printReport(io, report);
      setExit(report.match ? 0 : 1);
    },
  };
}
