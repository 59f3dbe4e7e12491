/**
 * Scale-out on many machines: the `Dockerfile` and the Kubernetes example of `examples/k8s`.
 * Every manifest is a well-formed Kubernetes object whose image, paths, user and shard
 * counts agree with each other and with the Dockerfile; then the Jobs' own commands run here,
 * each as its pod would (`smi` is the built CLI, the completion index is set, the volumes are
 * temp folders, N is 2): the shards and the merge step give what one unsharded run gives, and
 * the report step writes the report.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRunJson } from '@smi/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { CLI, REPO, requireBuiltCli } from './support/spawn-cli.js';

const K8S = path.join(REPO, 'examples/k8s');
const LOADED = [
  '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f', // oracle: 6 functions, Tier B hits
  '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d', // migrate_proposal: 3 functions, a dependency missing
];
const BROKEN = '0x000000000000000000000000000000000000000000000000000000000000dead';

// ---- the manifests ----

interface EnvVar {
  name: string;
  value?: string;
}
interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  workingDir?: string;
  volumeMounts?: VolumeMount[];
  securityContext?: { readOnlyRootFilesystem?: boolean };
}
interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  emptyDir?: object;
}
interface PodSpec {
  restartPolicy?: string;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  resources?: string[];
  images?: { name: string }[];
}
interface Manifest {
  file: string;
  obj: K8sObject;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

const parseErrors: string[] = [];
const MANIFESTS: Manifest[] = existsSync(K8S)
  ? yamlFiles(K8S).flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).flatMap((doc) => {
        for (const e of [...doc.errors, ...doc.warnings]) parseErrors.push(`${path.relative(REPO, file)}: ${e.message}`);
        const obj = doc.toJS() as K8sObject | null;
        return obj === null ? [] : [{ file, obj }];
      }),
    )
  : [];
const byKind = (kind: string): Manifest[] => MANIFESTS.filter((m) => m.obj.kind === kind);
const jobs = (): Manifest[] => byKind('Job');
function job(name: string): Manifest {
  const m = jobs().find((j) => j.obj.metadata.name === name);
  if (m === undefined) throw new Error(`no Job ${name} under examples/k8s`);
  return m;
}
const podOf = (m: Manifest): PodSpec => (m.obj.kind === 'Pod' ? m.obj.spec : (m.obj.spec?.template as { spec: PodSpec } | undefined)?.spec) as PodSpec;
const containersOf = (pod: PodSpec): Container[] => [...(pod.initContainers ?? []), ...pod.containers];
function container(jobName: string, name?: string): Container {
  const all = containersOf(podOf(job(jobName)));
  const c = name === undefined ? all[0] : all.find((x) => x.name === name);
  if (c === undefined) throw new Error(`no container ${name} in Job ${jobName}`);
  return c;
}
const envOf = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;
const script = (c: Container): string => [...(c.command ?? []), ...(c.args ?? [])].join(' ');

// ---- the Dockerfile ----

interface Instruction {
  op: string;
  rest: string;
}

/** The instructions of each stage (continuation lines joined, comments dropped). */
function dockerStages(text: string): Instruction[][] {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const stages: Instruction[][] = [[]];
  for (const line of logical) {
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile: cannot read ${JSON.stringify(line)}`);
    const ins = { op: m[1].toUpperCase(), rest: m[2].trim() };
    if (ins.op === 'FROM') stages.push([]);
    stages[stages.length - 1].push(ins);
  }
  return stages;
}

const DOCKERFILE = path.join(REPO, 'Dockerfile');
const STAGES = existsSync(DOCKERFILE) ? dockerStages(readFileSync(DOCKERFILE, 'utf8')) : [[]];
const RUNTIME = STAGES[STAGES.length - 1];
const last = (stage: Instruction[], op: string): string | undefined => stage.filter((i) => i.op === op).at(-1)?.rest;
/** `ENV` of the runtime stage (`KEY=value` pairs, values without spaces or quotes). */
const IMAGE_ENV: Record<string, string> = Object.fromEntries(RUNTIME.filter((i) => i.op === 'ENV').flatMap((i) => [...i.rest.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])));
const IMAGE_WORKDIR = last(RUNTIME, 'WORKDIR') ?? '/';
const IMAGE_USER = last(RUNTIME, 'USER') ?? 'root';

/** `.dockerignore` patterns as regular expressions over context-relative paths (a match on a folder covers its files). */
function dockerignore(): { patterns: string[]; ignored: (rel: string) => boolean } {
  const patterns = readFileSync(path.join(REPO, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const res = patterns.map((p) => {
    const body = p
      .replace(/^\//, '')
      .split(/(\*\*\/|\*\*|\*|\?)/)
      .map((t) => (t === '**/' ? '(?:.*/)?' : t === '**' ? '.*' : t === '*' ? '[^/]*' : t === '?' ? '[^/]' : t.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${body}$`);
  });
  const ignored = (rel: string): boolean => {
    const parts = rel.split('/');
    return parts.some((_, i) => res.some((re) => re.test(parts.slice(0, i + 1).join('/'))));
  };
  return { patterns, ignored };
}

describe('examples/k8s and the Dockerfile', () => {
  it('every manifest is a well-formed Kubernetes object', () => {
    expect(parseErrors).toEqual([]);
    expect(MANIFESTS.length).toBeGreaterThan(0);
    for (const { file, obj } of MANIFESTS) {
      const where = `${path.relative(REPO, file)} (${obj.kind} ${obj.metadata?.name})`;
      expect(typeof obj.apiVersion, where).toBe('string');
      expect(obj.apiVersion, where).toMatch(/^([a-z0-9.-]+\/)?v\d+(alpha\d+|beta\d+)?$/);
      expect(typeof obj.kind, where).toBe('string');
      expect(obj.metadata?.name, where).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    }
    // Kustomizations name files beside them; every Job is in one (so `kubectl apply -k` gets it).
    const listed = new Set<string>();
    for (const { file, obj } of byKind('Kustomization')) {
      for (const r of obj.resources ?? []) {
        const p = path.join(path.dirname(file), r);
        expect(existsSync(p), `${path.relative(REPO, file)}: resource ${r}`).toBe(true);
        listed.add(p);
      }
    }
    for (const j of jobs()) expect(listed.has(j.file), `${path.relative(REPO, j.file)} in a kustomization.yaml`).toBe(true);
  });

  it('Jobs: Indexed shard Jobs with completions = SMI_SHARDS, containers with an image and a command, volumes that exist', () => {
    const claims = new Set(byKind('PersistentVolumeClaim').map((m) => m.obj.metadata.name));
    const images = new Set<string>();
    expect(
      jobs()
        .map((j) => j.obj.metadata.name)
        .sort(),
    ).toEqual(['smi-benchmark-local', 'smi-merge-report', 'smi-phase2']);
    for (const m of [...jobs(), ...byKind('Pod')]) {
      const name = m.obj.metadata.name;
      const pod = podOf(m);
      expect(pod.containers.length, name).toBeGreaterThan(0);
      expect(['Never', 'OnFailure'], name).toContain(pod.restartPolicy);
      // Non-root, as the image's user.
      expect(pod.securityContext?.runAsNonRoot, name).toBe(true);
      const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
      for (const c of containersOf(pod)) {
        const where = `${name}/${c.name}`;
        expect(c.image, where).toMatch(/^[\w.-]+(:\d+)?(\/[\w.-]+)+:[\w.-]+$|^[\w.-]+:[\w.-]+$/);
        expect((c.command ?? []).length + (c.args ?? []).length, `${where}: command or args`).toBeGreaterThan(0);
        for (const s of [...(c.command ?? []), ...(c.args ?? [])]) expect(typeof s, where).toBe('string');
        for (const e of c.env ?? []) expect(typeof e.value, `${where}: env ${e.name}`).toBe('string');
        for (const vm of c.volumeMounts ?? []) {
          const v = volumes.get(vm.name);
          expect(v, `${where}: volume ${vm.name}`).toBeDefined();
          if (v?.persistentVolumeClaim) expect(claims.has(v.persistentVolumeClaim.claimName), `${where}: claim ${v.persistentVolumeClaim.claimName}`).toBe(true);
        }
        if (m.obj.kind === 'Job') images.add(c.image);
      }
    }
    // One image everywhere, the one the kustomizations rewrite.
    expect(images.size).toBe(1);
    const [image] = [...images];
    for (const k of byKind('Kustomization')) expect(k.obj.images?.map((i) => i.name)).toEqual([image.replace(/:[^:/]+$/, '')]);

    for (const name of ['smi-benchmark-local', 'smi-phase2']) {
      const spec = job(name).obj.spec as { completionMode?: string; completions?: unknown; parallelism?: unknown };
      expect(spec.completionMode, name).toBe('Indexed');
      expect(Number.isInteger(spec.completions) && (spec.completions as number) > 0, `${name}: completions`).toBe(true);
      expect(Number.isInteger(spec.parallelism) && (spec.parallelism as number) > 0, `${name}: parallelism`).toBe(true);
      expect(spec.parallelism as number, name).toBeLessThanOrEqual(spec.completions as number);
      expect(podOf(job(name)).restartPolicy, `${name}: backoffLimitPerIndex and podFailurePolicy need Never`).toBe('Never');
      const c = container(name);
      expect(envOf(c, 'SMI_SHARDS'), `${name}: SMI_SHARDS = completions`).toBe(String(spec.completions));
      // K = index + 1 (--shard is 1-based), N from SMI_SHARDS.
      expect(script(c)).toMatch(/K=\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/);
      expect(script(c)).toContain('--shard "$K/$SMI_SHARDS"');
    }
    // benchmark-local: as many worker threads as CPUs requested.
    const bl = container('smi-benchmark-local') as Container & { resources?: { requests?: { cpu?: string } } };
    expect(script(bl)).toContain('--jobs "$SMI_JOBS"');
    expect(envOf(bl, 'SMI_JOBS')).toBe(bl.resources?.requests?.cpu);
    // The merge Job waits for N shards of each.
    const completions = (name: string): string => String((job(name).obj.spec as { completions: number }).completions);
    expect(envOf(container('smi-merge-report', 'merge-benchmark-local'), 'BENCHMARK_LOCAL_SHARDS')).toBe(completions('smi-benchmark-local'));
    expect(envOf(container('smi-merge-report', 'merge-phase2'), 'PHASE2_SHARDS')).toBe(completions('smi-phase2'));
    expect(script(container('smi-merge-report', 'merge-phase2'))).toMatch(/smi merge "\$@" --out-dir/);
    expect(script(container('smi-merge-report', 'report'))).toMatch(/smi report "\$@" --out \/results\/report\.html/);
  });

  it('the Dockerfile builds what the manifests run: entrypoint, smi on the PATH, user, working dir, mount points', () => {
    // Stages: node 22 (the engines of package.json), a build stage and the runtime.
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { packageManager: string; engines: { node: string } };
    expect(pkg.engines.node).toBe('>=22');
    expect(STAGES[0].find((i) => i.op === 'ARG')?.rest).toMatch(/^NODE_IMAGE=node:22(\.\d+)*-bookworm-slim$/);
    expect(STAGES.slice(1).map((s) => s[0].rest)).toEqual(['${NODE_IMAGE} AS build', '${NODE_IMAGE} AS runtime']);
    const build = STAGES[1];

    // pnpm at the version package.json pins: the Dockerfile's own expression, run here.
    const expr = /pnpm@\$\(node -p "(.+?)"\)/.exec(build.find((i) => i.op === 'RUN' && i.rest.includes('npm install -g'))?.rest ?? '')?.[1];
    expect(expr, 'npm install -g "pnpm@$(node -p ...)"').toBeDefined();
    const version = execFileSync(process.execPath, ['-p', expr!], { cwd: REPO, encoding: 'utf8' }).trim();
    expect(`pnpm@${version}`).toBe(pkg.packageManager.split('+')[0]);
    const runs = build.filter((i) => i.op === 'RUN').map((i) => i.rest);
    expect(runs.some((r) => r.includes('pnpm install --frozen-lockfile'))).toBe(true);
    expect(runs.some((r) => r.startsWith('pnpm build'))).toBe(true);

    // COPY sources exist and the build context keeps them; the context drops what the build makes.
    const { patterns, ignored } = dockerignore();
    expect(patterns.filter((p) => p.startsWith('!'))).toEqual([]);
    for (const i of build.filter((x) => x.op === 'COPY')) {
      for (const src of i.rest.split(/\s+/).slice(0, -1)) {
        expect(existsSync(path.join(REPO, src)), `COPY ${src}`).toBe(true);
        if (src !== '.') expect(ignored(src), `COPY ${src} is in .dockerignore`).toBe(false);
      }
    }
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\n');
    const needed = files.filter((f) =>
      /^(package\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|turbo\.json|tsconfig(\.base)?\.json|(packages|apps)\/[^/]+\/(package\.json|tsconfig\.json|tsup\.config\.ts|src\/.+))$/.test(f),
    );
    expect(needed.length).toBeGreaterThan(100);
    expect(needed.filter(ignored)).toEqual([]);
    for (const p of ['node_modules', 'packages/0-bytecode/node_modules', 'apps/cli/dist/cli.js', '.git', '.tools', '.env', 'apps/cli/.env']) expect(ignored(p), p).toBe(true);

    // The runtime: the build's /app copied whole, a `smi` shim running the CLI's bin, ENTRYPOINT smi.
    const copy = RUNTIME.find((i) => i.op === 'COPY')?.rest.split(/\s+/) ?? [];
    expect(copy[0]).toBe('--from=build');
    expect(copy[1]).toBe(last(build, 'WORKDIR'));
    const appDir = copy[2];
    const bin = (JSON.parse(readFileSync(path.join(REPO, 'apps/cli/package.json'), 'utf8')) as { bin: { smi: string } }).bin.smi;
    const shim = RUNTIME.find((i) => i.op === 'RUN' && i.rest.includes('/usr/local/bin/smi'))?.rest ?? '';
    expect(shim).toContain(`exec node ${path.posix.join(appDir, 'apps/cli', bin)} "$@"`);
    expect(shim).toContain('chmod 0755 /usr/local/bin/smi');
    expect(JSON.parse(last(RUNTIME, 'ENTRYPOINT') ?? 'null')).toEqual(['smi']);

    // User and working dir: what the pods run as and write to.
    const [uid] = IMAGE_USER.split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(shim).toContain(`chown ${IMAGE_USER} ${IMAGE_WORKDIR}`);
    for (const m of [...jobs(), ...byKind('Pod')]) expect(podOf(m).securityContext?.runAsUser, m.obj.metadata.name).toBe(uid);
    expect(IMAGE_WORKDIR).toBe('/work');

    // Mount points: the fixtures where SMI_FIXTURES points, the corpus where the shard Jobs read it,
    // and (read-only root) writable /tmp and working dir.
    expect(IMAGE_ENV.SMI_FIXTURES).toBe('/data/shared');
    for (const m of jobs()) {
      for (const c of containersOf(podOf(m))) {
        const where = `${m.obj.metadata.name}/${c.name}`;
        const mounts = new Map((c.volumeMounts ?? []).map((v) => [v.mountPath, v]));
        expect(mounts.get(IMAGE_ENV.SMI_FIXTURES)?.readOnly, `${where}: fixtures at SMI_FIXTURES`).toBe(true);
        expect(mounts.get('/data/corpus')?.readOnly, `${where}: corpus`).toBe(true);
        expect(mounts.get('/results')?.readOnly, `${where}: results`).not.toBe(true);
        expect(c.workingDir ?? IMAGE_WORKDIR).toBe(IMAGE_WORKDIR);
        if (c.securityContext?.readOnlyRootFilesystem) for (const p of [IMAGE_WORKDIR, '/tmp']) expect(mounts.has(p), `${where}: ${p} writable`).toBe(true);
        for (const p of mounts.keys()) if (p.startsWith('/data/')) expect(shim, `mkdir ${p}`).toContain(p);
      }
    }
  });
});

// ---- the Jobs, run here ----

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeWithFixtures('examples/k8s, run locally with the built CLI', ['corpus'], () => {
  let tmp: string;
  let bin: string;
  let tinyCorpus: string;
  let shardResults: string;

  beforeAll(() => {
    requireBuiltCli();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'smi-scale-out-'));
    // `smi` as the image has it: a shim on the PATH running the CLI.
    bin = path.join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'smi'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(bin, 'smi'), 0o755);
    // A tiny corpus: two small packages, and one that fails to load (as some of the full corpus do).
    tinyCorpus = path.join(tmp, 'corpus');
    mkdirSync(path.join(tinyCorpus, BROKEN, 'bytecode_modules'), { recursive: true });
    writeFileSync(path.join(tinyCorpus, BROKEN, 'bytecode_modules', 'm.mv'), 'not bytecode');
    for (const id of LOADED) symlinkSync(fixturePath('corpus', id), path.join(tinyCorpus, id));
    // The results volume all Jobs share.
    shardResults = mkdtempSync(path.join(tmp, 'results-'));
  });
  afterAll(() => {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * Run one container of a Job as its pod would: its command and args through /bin/sh, its env,
   * the image's SMI_FIXTURES and working dir; every mount path (in the script and the env)
   * replaced by a local folder: a claim by `claims`, an emptyDir by a fresh temp folder.
   */
  function runContainer(c: Container, pod: PodSpec, o: { claims: Record<string, string>; env?: Record<string, string>; index?: number; edit?: (script: string) => string }): Promise<Run> {
    const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
    const mounts: [string, string][] = (c.volumeMounts ?? []).map((vm) => {
      const v = volumes.get(vm.name)!;
      if (v.emptyDir !== undefined) return [vm.mountPath, mkdtempSync(path.join(tmp, `${vm.name}-`))];
      const local = o.claims[v.persistentVolumeClaim!.claimName];
      if (local === undefined) throw new Error(`no local folder for claim ${v.persistentVolumeClaim!.claimName}`);
      return [vm.mountPath, local];
    });
    // One pass over each string (a local folder may itself start with a mount path, /tmp).
    mounts.sort((a, b) => b[0].length - a[0].length);
    const to = new Map(mounts);
    const pattern = new RegExp(`(?<![\\w./-])(${mounts.map(([from]) => from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=$|[/\\s"'])`, 'g');
    const local = (s: string): string => s.replace(pattern, (m) => to.get(m) ?? m);
    const argv = [...(c.command ?? []), ...(c.args ?? [])].map((a) => (o.edit ? o.edit(a) : a)).map(local);
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: mkdtempSync(path.join(tmp, 'home-')),
      ...Object.fromEntries(Object.entries(IMAGE_ENV).map(([k, v]) => [k, local(v)])),
      ...Object.fromEntries((c.env ?? []).map((e) => [e.name, local(e.value ?? '')])),
      ...o.env,
      ...(o.index === undefined ? {} : { JOB_COMPLETION_INDEX: String(o.index) }),
    };
    const cwd = local(c.workingDir ?? IMAGE_WORKDIR);
    expect(existsSync(cwd), `working dir ${cwd} mapped to a local folder`).toBe(true);
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Run a shard Job: every index of N at once (N = 1 without --shard: one unsharded run). */
  async function runShards(jobName: string, claims: Record<string, string>, n: number | 'unsharded'): Promise<Run[]> {
    const m = job(jobName);
    const c = container(jobName);
    const edit = (s: string): string => s.replace(/\s*--shard "\$K\/\$SMI_SHARDS"\s*\\\n/, '\n');
    if (n === 'unsharded') expect(edit(script(c)), 'the --shard line removed').not.toBe(script(c));
    const count = n === 'unsharded' ? 1 : n;
    // One worker thread here (SMI_JOBS, benchmark-local): the shards run at once on a shared machine.
    const env = { SMI_SHARDS: String(count), SMI_JOBS: '1' };
    return Promise.all(Array.from({ length: count }, (_, index) => runContainer(c, podOf(m), { claims, index, env, ...(n === 'unsharded' ? { edit } : {}) })));
  }

  const results = (): string => mkdtempSync(path.join(tmp, 'results-'));
  const rows = (file: string): string[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  /** A row without its timing. */
  const untimed = (line: string): string => {
    const { elapsed_ms: _e, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(rest);
  };

  let phase2Reference: string;

  it('benchmark-local: 2 shards, joined by the merge Job, hold the rows of one unsharded run', async () => {
    const ref = results();
    const [one] = await runShards('smi-benchmark-local', { 'smi-corpus': tinyCorpus, 'smi-fixtures': FIXTURES_ROOT, 'smi-results': ref }, 'unsharded');
    expect(one.code, one.stderr).toBe(0);
    const reference = rows(path.join(ref, 'benchmark-local/shard-1-of-1.jsonl'));
    expect(reference.length).toBe(10); // 6 + 3 functions and the package that does not load

    const claims = { 'smi-corpus': tinyCorpus, 'smi-fixtures': FIXTURES_ROOT, 'smi-results': shardResults };
    const shards = await runShards('smi-benchmark-local', claims, 2);
    for (const s of shards) expect(s.code, s.stderr).toBe(0);
    const dir = path.join(shardResults, 'benchmark-local');
    const parts = [1, 2].map((k) => rows(path.join(dir, `shard-${k}-of-2.jsonl`)));
    for (const k of [1, 2]) {
      expect(existsSync(path.join(dir, `shard-${k}-of-2.summary.json`))).toBe(true);
      expect(existsSync(path.join(dir, `shard-${k}-of-2.jsonl.partial`))).toBe(false);
    }
    // The package that failed to load is one row of the run: part 1 has it.
    expect(parts.map((p) => p.filter((l) => l.includes(BROKEN)).length)).toEqual([1, 0]);

    const pod = podOf(job('smi-merge-report'));
    const merge = await runContainer(container('smi-merge-report', 'merge-benchmark-local'), pod, { claims, env: { BENCHMARK_LOCAL_SHARDS: '2' } });
    expect(merge.code, merge.stderr).toBe(0);
    expect(merge.stderr).toMatch(/benchmark-local: 2 shards, \s*10 rows/);
    // smi merge-rows: the rows one run writes, in its order.
    const merged = rows(path.join(dir, 'merged.jsonl'));
    expect(merged.map(untimed)).toEqual(reference.map(untimed));

    // A shard that did not run stops the merge.
    const missing = await runContainer(container('smi-merge-report', 'merge-benchmark-local'), pod, { claims, env: { BENCHMARK_LOCAL_SHARDS: '3' } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('shard 1/3 has not run');
  });

  it('phase2: 2 shards split the packages of one unsharded run and score them the same', async () => {
    // Phase II over the whole fixture corpus (12 packages, a few seconds).
    const corpus = fixturePath('corpus');
    phase2Reference = results();
    const [one] = await runShards('smi-phase2', { 'smi-corpus': corpus, 'smi-fixtures': FIXTURES_ROOT, 'smi-results': phase2Reference }, 'unsharded');
    expect(one.code, one.stderr).toBe(0);
    const runJson = (dir: string) => parseRunJson(readFileSync(path.join(dir, 'run.json'), 'utf8'), dir, { phase: 2 });
    const reference = runJson(path.join(phase2Reference, 'phase2/shard-1-of-1'));
    const shards = await runShards('smi-phase2', { 'smi-corpus': corpus, 'smi-fixtures': FIXTURES_ROOT, 'smi-results': shardResults }, 2);
    for (const s of shards) expect(s.code, s.stderr).toBe(0);
    const parts = [1, 2].map((k) => runJson(path.join(shardResults, `phase2/shard-${k}-of-2`)));
    const packages = (r: typeof reference): { package_id: string }[] => r.packages as { package_id: string }[];
    const ids = (r: typeof reference): string[] => packages(r).map((p) => p.package_id);
    for (const p of parts) expect(ids(p).length).toBeGreaterThan(0);
    expect([...ids(parts[0]), ...ids(parts[1])].sort()).toEqual([...ids(reference)].sort());
    // Each package scored as in the unsharded run (times aside).
    const untimedRow = (p: unknown): string => JSON.stringify(p, (k, v: unknown) => (/elapsed|seconds|duration|_at$/.test(k) ? undefined : v));
    const byId = new Map(parts.flatMap(packages).map((p) => [p.package_id, untimedRow(p)]));
    for (const p of packages(reference)) expect(byId.get(p.package_id), p.package_id).toBe(untimedRow(p));
  });

  it('phase2: the merge Job joins the shards with smi merge into the run JSON of one run', async () => {
    const claims = { 'smi-corpus': fixturePath('corpus'), 'smi-fixtures': FIXTURES_ROOT, 'smi-results': shardResults };
    const merge = await runContainer(container('smi-merge-report', 'merge-phase2'), podOf(job('smi-merge-report')), { claims, env: { PHASE2_SHARDS: '2' } });
    expect(merge.code, merge.stderr).toBe(0);
    const merged = parseRunJson(readFileSync(path.join(shardResults, 'phase2/merged.json'), 'utf8'), 'merged.json', { phase: 2 });
    expect(existsSync(path.join(shardResults, 'phase2/merged/run.json'))).toBe(true);
    const reference = parseRunJson(readFileSync(path.join(phase2Reference, 'phase2/shard-1-of-1/run.json'), 'utf8'), 'run.json', { phase: 2 });
    expect((merged.packages as { package_id: string }[]).map((p) => p.package_id)).toEqual((reference.packages as { package_id: string }[]).map((p) => p.package_id));
    expect(merged.aggregate).toEqual(reference.aggregate);
  });

  it('report: the merge Job writes report.html and report.md with smi report', async () => {
    const claims = { 'smi-corpus': fixturePath('corpus'), 'smi-fixtures': FIXTURES_ROOT, 'smi-results': shardResults };
    const report = await runContainer(container('smi-merge-report', 'report'), podOf(job('smi-merge-report')), { claims });
    expect(report.code, report.stderr).toBe(0);
    for (const f of ['report.html', 'report.md']) expect(existsSync(path.join(shardResults, f)), f).toBe(true);
  });
});
