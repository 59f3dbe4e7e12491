/**
 * `smi fetch framework|packages`: the data SMI needs, from a Sui node (gRPC or GraphQL).
 * `framework` writes the system packages (current, or as of `--protocol-version`) and that
 * version's protocol config into the user cache, where every command finds them;
 * `packages <id>...` writes packages by id (with `--with-deps`, their whole linkage closure) into
 * a folder in the sui-packages layout, each answer checked against the digest and version the
 * node reports. Both resume: what is on disk is not fetched again.
 */
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import { type FetchFrameworkReport, fetchFramework, type FetchPackagesReport, fetchPackages } from '@smi/simulation';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { cacheRoot } from '../framework.js';
import { type CliIo, jsonLine, readInput, resolvePath } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { header } from './registry.js';

interface FetchArgs extends NetworkArgs {
  what: 'framework' | 'packages';
  ids: string[];
  'ids-file'?: string;
  'with-deps': boolean;
  'include-framework': boolean;
  out?: string;
  'cache-dir'?: string;
  'protocol-version'?: number;
  concurrency: number;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** Package ids of the positionals and `--ids-file` (one per line; `#` comments; `-` for stdin). */
async function idsOf(args: FetchArgs, io: CliIo): Promise<string[]> {
  const words = [...args.ids.map(String)];
  if (args['ids-file'] !== undefined) {
    const text = (await readInput(io, args['ids-file'], '--ids-file')).toString('utf8');
    for (const line of text.split('\n')) {
      const t = line.replace(/#.*/, '').trim();
      if (t !== '') words.push(...t.split(/[\s,]+/));
    }
  }
  const out: string[] = [];
  for (const w of words) {
    if (!/^0x[0-9a-fA-F]{1,64}$/.test(w)) throw new UsageError(`${JSON.stringify(w)} is not a package id (0x followed by up to 64 hex digits)`, 'INVALID_ADDRESS');
    out.push(canonicalAddress(w));
  }
  if (out.length === 0) throw new UsageError('fetch packages needs package ids (as arguments or --ids-file)', 'USAGE');
  return [...new Set(out)];
}

function frameworkJson(r: FetchFrameworkReport): Record<string, unknown> {
  return {
    status: 'ok',
    endpoint: r.endpoint,
    protocol_version: r.protocolVersion,
    dir: r.dir,
    protocol_config_file: r.protocolConfigFile,
    packages: r.packages,
    absent: r.absent,
    requests: r.requests,
    bytes: r.bytes,
    seconds: Number(r.seconds.toFixed(3)),
  };
}

function packagesJson(r: FetchPackagesReport): Record<string, unknown> {
  return {
    status: r.failed.length > 0 ? 'partial' : r.interrupted ? 'interrupted' : 'ok',
    endpoint: r.endpoint,
    out: r.out,
    fetched: r.fetched,
    cached: r.cached,
    framework_left: r.system,
    failed: r.failed,
    requests: r.requests,
    bytes: r.bytes,
    seconds: Number(r.seconds.toFixed(3)),
    interrupted: r.interrupted,
  };
}

/** `smi fetch`. */
export const fetchCommand = defineCommand<FetchArgs>({
  ...header('fetch'),
  longRunning: true,
  positionals: {
    what: { choices: ['framework', 'packages'] as const, describe: 'framework | packages' },
    ids: { type: 'string', array: true, default: [], describe: 'packages: package ids (0x…)' },
  },
  options: {
    'ids-file': { type: 'string', file: 'read', describe: 'packages: a file of package ids, one per line (# comments; - for stdin)' },
    'with-deps': { type: 'boolean', default: false, describe: 'packages: also every package they link to, transitively (the linkage closure)' },
    'include-framework': { type: 'boolean', default: false, describe: 'packages: also the system packages (0x1, 0x2, 0x3, 0xb, 0xdee9) the linkage names (default: left to `smi fetch framework`)' },
    out: { type: 'string', describe: 'packages: the folder to write them to (sui-packages layout: <id>/bytecode_modules/*.mv, bcs.json, metadata.json)' },
    'cache-dir': { type: 'string', describe: 'framework: the cache to write to (default $XDG_CACHE_HOME/smi, else ~/.cache/smi)' },
    'protocol-version': { type: 'number', describe: 'framework: the system packages and config as of this protocol version (default: the current one)' },
    concurrency: { type: 'number', default: 4, describe: 'packages: packages fetched at once' },
    ...NETWORK_OPTIONS,
  },
  examples: [
    { command: '$0 fetch framework', describe: 'the current framework and protocol config into the cache (every command then finds them)' },
    { command: '$0 fetch packages 0x0cefa59cdde0de6e99842383caa80badfbf40476fabf203688bfb4a72510b37c --with-deps --out corpus', describe: 'a package and everything it links to' },
    {
      command: "printf '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb\\n' | $0 fetch packages --ids-file - --out corpus --json",
      describe: 'packages listed on standard input; a JSON report',
    },
  ],
  epilog:
    'The node is --rpc-url (default $SMI_RPC_URL, else mainnet over gRPC); `fetch framework --protocol-version N` also works against GraphQL (mainnet-graphql), which serves configs by version. ' +
    'Every answer is checked before it is written: it decodes as a package object, it is the package and version asked for, its bytes hash to the object digest the node reports, and every module deserializes; a corrupted or truncated answer is an error for that package, never a bad file. ' +
    'A package already in the folder is not fetched again (an interrupted fetch resumes; its linkage is read from disk). ' +
    'Exit 0 when every package was fetched or found, 1 when some failed (the report lists them with their codes: NOT_FOUND, INVALID_RESPONSE, …), 2 on bad input.',
  run: async (args, io) => {
    for (const [name, v] of [['concurrency', args.concurrency]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new UsageError(`--${name} ${v}: expected a whole number of at least 1`, 'INVALID_NUMBER');
    }
    const verbose = (line: string): void => {
      if (!args.quiet) io.stderr(`fetch: ${line}\n`);
    };
    const source = dataSourceOf(args, (m) => verbose(`retry: ${m}`));
    if (args.what === 'framework') {
      if (args.ids.length > 0 || args.out !== undefined) throw new UsageError('fetch framework takes no ids and no --out (it writes the cache; --cache-dir to choose it)', 'USAGE');
      const pv = args['protocol-version'];
      if (pv !== undefined && (!Number.isInteger(pv) || pv < 1)) throw new UsageError(`--protocol-version ${pv}: expected a whole number of at least 1`, 'INVALID_NUMBER');
      const dir = args['cache-dir'] !== undefined ? resolvePath(io, args['cache-dir']) : cacheRoot();
      verbose(`${source.endpoint}: the framework${pv !== undefined ? ` of protocol ${pv}` : ''} into ${dir}`);
      const r = await fetchFramework(source, dir, {
        ...(pv !== undefined ? { protocolVersion: pv } : {}),
        onEvent: (e) => {
          if (e.$kind === 'ProtocolConfig') verbose(`protocol ${e.version}`);
          else if (e.$kind === 'Searching') verbose(`${e.id}: which version ran then? trying v${e.version}`);
          else if (e.$kind === 'Package') verbose(`${e.id} v${e.version}${e.cached ? ' (in the cache)' : ''}`);
          else verbose(`${e.id}: not on this network`);
        },
      });
      if (args.json) io.stdout(jsonLine(frameworkJson(r)));
      else {
        io.stdout(`framework of protocol ${r.protocolVersion} in ${r.dir}: ${r.packages.map((p) => `${shortId(p.id)} v${p.version}`).join(', ')}\n`);
        io.stdout(`protocol config: ${r.protocolConfigFile}\n${r.requests} requests, ${size(r.bytes)}, ${r.seconds.toFixed(1)} s\n`);
      }
      return EXIT.ok;
    }
    if (args['cache-dir'] !== undefined || args['protocol-version'] !== undefined) throw new UsageError('--cache-dir and --protocol-version are options of fetch framework', 'USAGE');
    if (args.out === undefined) throw new UsageError('fetch packages needs --out DIR (the folder to write them to)', 'USAGE');
    const ids = await idsOf(args, io);
    const out = resolvePath(io, args.out);
    let total = ids.length;
    const r = await fetchPackages(source, ids, out, {
      withDeps: args['with-deps'],
      includeSystem: args['include-framework'],
      concurrency: args.concurrency,
      ...(io.signal !== undefined ? { signal: io.signal } : {}),
      onEvent: (e) => {
        total = Math.max(total, e.known);
        const at = `[${e.done}/${total}]`;
        if (e.$kind === 'Fetched') verbose(`${at} ${e.id} v${e.version}: ${e.modules} modules, ${size(e.bytes)}`);
        else if (e.$kind === 'Cached') verbose(`${at} ${e.id}: already in ${path.basename(out)}`);
        else verbose(`${at} ${e.id}: ${e.code}: ${e.message}`);
      },
    });
    if (args.json) io.stdout(jsonLine(packagesJson(r)));
    else {
      io.stdout(
        `${r.fetched.length} fetched (${size(r.bytes)}), ${r.cached.length} already there, ${r.failed.length} failed` +
          `${r.system.length > 0 ? `; framework packages left to \`smi fetch framework\`: ${r.system.map(shortId).join(', ')}` : ''}` +
          ` — ${r.requests} requests, ${r.seconds.toFixed(1)} s, into ${out}\n`,
      );
      for (const f of r.failed) io.stdout(`  failed ${f.id}: ${f.code}: ${f.message}\n`);
    }
    if (r.interrupted && io.signal?.aborted) {
      const reason: unknown = io.signal.reason;
      if (reason instanceof Error && 'exitCode' in reason && typeof reason.exitCode === 'number') return reason.exitCode;
    }
    // Nothing fetched because the node did not answer: the exit of every network command then.
    if (r.failed.length > 0 && r.fetched.length === 0 && r.failed.every((f) => f.code === 'UNAVAILABLE')) return EXIT.unavailable;
    return r.failed.length > 0 ? EXIT.failure : EXIT.ok;
  },
});

function shortId(id: string): string {
  const hex = id.slice(2).replace(/^0+(?=.)/, '');
  return hex.length <= 4 ? `0x${hex}` : `0x${id.slice(2, 10)}…`;
}
