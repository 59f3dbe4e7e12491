/**
 * `smi doctor`: what this machine gives SMI. Where the framework and the protocol configs are
 * found (and where they are not), the user cache, and, for the node and the archive the
 * network options name, which wire protocol each answers: gRPC-web (what full nodes speak over
 * HTTP/1.1), native gRPC over HTTP/2 (all the archive speaks), or GraphQL.
 */
import { availableProtocolVersions } from '@smi/move-vm';
import { dataSourceFor, endpointKind, resolveEndpoint } from '@smi/network';
import { cachedFrameworkVersions, locateFramework, type SuiDataSource } from '@smi/simulation';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { cacheRoot, fixturesRoot } from '../framework.js';
import { jsonLine, resolveInputPath } from '../io.js';
import { endpointsOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface DoctorArgs extends NetworkArgs {
  framework?: string;
  offline: boolean;
}

/** One probe of an endpoint over one wire protocol. */
interface Probe {
  transport: 'grpc-web' | 'grpc' | 'graphql';
  url: string;
  ok: boolean;
  checkpoint: string | null;
  ms: number;
  error: string | null;
}

/** The URL forms to try for an endpoint: both gRPC wire protocols, or GraphQL. */
function forms(url: string): { transport: Probe['transport']; url: string }[] {
  if (endpointKind(url) === 'graphql') return [{ transport: 'graphql', url }];
  const u = new URL(url);
  const secure = u.protocol === 'https:' || u.protocol === 'grpcs:';
  const host = `${u.hostname}${u.port !== '' ? `:${u.port}` : ''}`;
  return [
    { transport: 'grpc-web', url: `${secure ? 'https' : 'http'}://${host}` },
    { transport: 'grpc', url: `${secure ? 'grpcs' : 'grpc'}://${host}` },
  ];
}

async function probe(form: { transport: Probe['transport']; url: string }, timeoutMs: number): Promise<Probe> {
  const started = performance.now();
  let source: SuiDataSource;
  try {
    source = dataSourceFor(form.url, { timeoutMs, ...(form.transport === 'graphql' ? {} : { transport: form.transport }) });
  } catch (e) {
    return { ...form, ok: false, checkpoint: null, ms: 0, error: errorMessage(e) };
  }
  try {
    const checkpoint = await source.latestCheckpoint();
    return { ...form, ok: true, checkpoint: checkpoint.toString(), ms: Math.round(performance.now() - started), error: null };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { ...form, ok: false, checkpoint: null, ms: Math.round(performance.now() - started), error: `${typeof code === 'string' ? `${code}: ` : ''}${errorMessage(e)}` };
  }
}

/** `smi doctor`. */
export const doctorCommand = defineCommand<DoctorArgs>({
  ...header('doctor'),
  options: {
    framework: { type: 'string', describe: 'A framework folder to check (as commands take it)' },
    offline: { type: 'boolean', default: false, describe: 'Only the local data: do not contact any endpoint' },
    ...NETWORK_OPTIONS,
  },
  examples: [
    { command: '$0 doctor --offline', describe: 'where the framework, protocol configs and cache are' },
    { command: '$0 doctor --offline --json', describe: 'the same as one JSON line' },
  ],
  epilog:
    "For each endpoint (--rpc-url, default $SMI_RPC_URL or mainnet; --archive-url, default the network's archive) doctor asks for the latest checkpoint over gRPC-web (https://host), native gRPC over HTTP/2 (grpcs://host) or GraphQL (…/graphql), and says which answer: give a command the URL form that does (the public archive speaks only native gRPC: grpcs://archive.mainnet.sui.io:443). " +
    'Exit 0 when the framework is found and every endpoint answers over at least one protocol, 1 otherwise.',
  run: async (args, io) => {
    const fixtures = fixturesRoot(io);
    const cache = cacheRoot();
    let framework: Record<string, unknown>;
    let frameworkOk = true;
    try {
      const f = locateFramework({ ...(args.framework !== undefined ? { framework: resolveInputPath(io, args.framework) } : {}), ...(fixtures !== undefined ? { fixtures } : {}) });
      framework = { found: true, origin: f.origin, path: f.path, packages: f.packages.map((p) => p.id), ...(f.protocolVersion !== undefined ? { protocol_version: f.protocolVersion } : {}) };
    } catch (e) {
      frameworkOk = false;
      framework = { found: false, error: errorMessage(e) };
    }
    const configs = (root: string | undefined): number[] => {
      if (root === undefined) return [];
      try {
        return availableProtocolVersions(root);
      } catch {
        return [];
      }
    };
    const fixtureVersions = configs(fixtures);
    const cacheVersions = configs(cache);
    const data = {
      fixtures: fixtures ?? null,
      cache,
      framework,
      cached_frameworks: cachedFrameworkVersions(cache),
      protocol_configs: {
        fixtures: fixtureVersions.length > 0 ? `${fixtureVersions[0]}..${fixtureVersions.at(-1)} (${fixtureVersions.length})` : null,
        cache: cacheVersions,
      },
    };
    const endpoints: { role: string; url: string; probes: Probe[] }[] = [];
    if (!args.offline) {
      if (!Number.isFinite(args['rpc-timeout-seconds']) || args['rpc-timeout-seconds'] <= 0)
        throw new UsageError(`--rpc-timeout-seconds ${args['rpc-timeout-seconds']}: expected a positive number`, 'INVALID_NUMBER');
      const timeoutMs = args['rpc-timeout-seconds'] * 1000;
      const { node, archive } = endpointsOf(args);
      for (const [role, name] of [['node', node], ...(archive !== undefined ? [['archive', archive]] : [])] as [string, string][]) {
        let url: string;
        try {
          url = resolveEndpoint(name);
          endpointKind(url);
        } catch (e) {
          throw new UsageError(`--${role === 'node' ? 'rpc-url' : 'archive-url'} ${name}: ${errorMessage(e)}`, 'INVALID_URL');
        }
        const probes = await Promise.all(forms(url).map((f) => probe(f, timeoutMs)));
        endpoints.push({ role, url, probes });
      }
    }
    const reachable = endpoints.every((e) => e.probes.some((p) => p.ok));
    if (args.json) io.stdout(jsonLine({ status: frameworkOk && reachable ? 'ok' : 'problems', data, endpoints }));
    else {
      io.stdout(`fixtures:  ${data.fixtures ?? '(none)'}\ncache:     ${cache}\n`);
      io.stdout(
        frameworkOk
          ? `framework: ${String(framework.origin)} ${String(framework.path)} (${(framework.packages as string[]).length} packages${framework.protocol_version !== undefined ? `, protocol ${String(framework.protocol_version)}` : ''})\n`
          : `framework: NOT FOUND: ${String(framework.error)}\n`,
      );
      io.stdout(`protocol configs: fixtures ${data.protocol_configs.fixtures ?? 'none'}; cache ${cacheVersions.length > 0 ? cacheVersions.join(', ') : 'none'}\n`);
      for (const e of endpoints) {
        io.stdout(`${e.role} ${e.url}:\n`);
        for (const p of e.probes) io.stdout(`  ${p.transport.padEnd(8)} ${p.url}: ${p.ok ? `ok, checkpoint ${p.checkpoint}, ${p.ms} ms` : `no (${p.error})`}\n`);
        const working = e.probes.filter((p) => p.ok);
        if (working.length === 0) io.stdout('  -> no protocol answers: check the URL and the network\n');
        else if (!e.probes[0]?.ok) io.stdout(`  -> use ${working[0]?.url}\n`);
      }
    }
    // The node did not answer: the exit of every network command then (69).
    if (!reachable) return EXIT.unavailable;
    return frameworkOk ? EXIT.ok : EXIT.failure;
  },
});
