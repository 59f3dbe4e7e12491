/**
 * One MCP session's simulation: a `SandboxSession` over the framework and the corpus, the
 * state file it loads and saves, and a queue that runs tool calls one at a time (a client
 * may send several at once; the simulation is one mutable world).
 */
import { existsSync } from 'node:fs';
import { canonicalAddress, type MovePackage, errorMessage } from '@smi/bytecode';
import { FRAMEWORK_IDS } from '@smi/inhabit';
import { mergePackages, type SandboxResponse, SandboxSession, type SandboxSessionOptions } from '@smi/simulation';
import { SmiToolError } from './errors.js';

/** Options of a session (and of `createSmiMcpServer`). */
export interface SmiSessionOptions {
  /** The framework packages (0x1, 0x2, 0x3, ...): see `fromFixtures` / `loadFrameworkDir` of `@smi/simulation`. */
  framework: readonly MovePackage[];
  /** Further packages the session holds from the start (a corpus); one with a framework id replaces the framework's. */
  packages?: readonly MovePackage[];
  protocolConfig: SandboxSessionOptions['protocolConfig'];
  /** State file: loaded at start when it exists, saved after every tool call that changes the state. */
  stateFile?: string;
  /** Save the state file after changes (default `true`; `false`: load only). */
  saveState?: boolean;
  /** Every signature or proof verification passes (as `benchmark-local --no-strict-crypto`). */
  permissiveCrypto?: boolean;
  /** Directory relative paths of `sandbox_request` (`load_module`) resolve against. */
  cwd?: string;
  /** Fetch what a request misses from a Sui node (as `sandbox-exec --enable-fetching`). */
  fetcher?: SandboxSessionOptions['fetcher'];
  /** Hears of each package or object fetched. */
  onFetch?: SandboxSessionOptions['onFetch'];
  /**
   * Log lines (stderr in the CLI: stdout belongs to the protocol): `info` one per tool call,
   * `warn` a state file not saved, `error` a bug of ours (with its stack). Default: none.
   */
  log?: (line: string, level: LogLevel) => void;
}

/** How much a log line matters. */
export type LogLevel = 'info' | 'warn' | 'error';

/** Where a loaded package came from. */
export type PackageOrigin = 'framework' | 'corpus' | 'session';

/** The simulation of one MCP session. */
export class SmiSession {
  readonly sandbox: SandboxSession;
  readonly framework: readonly MovePackage[];
  readonly corpus: readonly MovePackage[];
  readonly permissiveCrypto: boolean;
  private readonly frameworkIds: ReadonlySet<string>;
  private readonly corpusIds: ReadonlySet<string>;
  private readonly stateFile: string | undefined;
  private readonly saveState: boolean;
  private readonly logger: (line: string, level: LogLevel) => void;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @throws the simulation's error when the environment cannot start (a framework newer than
   *   the protocol version) or the state file does not load.
   */
  constructor(options: SmiSessionOptions) {
    const corpus = options.packages ?? [];
    this.corpusIds = new Set(corpus.map((p) => p.id));
    this.framework = options.framework.filter((p) => !this.corpusIds.has(p.id));
    this.corpus = corpus;
    this.frameworkIds = new Set(this.framework.map((p) => p.id));
    this.permissiveCrypto = options.permissiveCrypto ?? false;
    this.stateFile = options.stateFile;
    this.saveState = options.saveState ?? true;
    this.logger = options.log ?? (() => {});
    this.sandbox = SandboxSession.create({
      packages: mergePackages(options.framework, corpus),
      protocolConfig: options.protocolConfig,
      natives: { permissiveCrypto: this.permissiveCrypto },
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.fetcher !== undefined ? { fetcher: options.fetcher } : {}),
      ...(options.onFetch !== undefined ? { onFetch: options.onFetch } : {}),
    });
    if (this.stateFile !== undefined && existsSync(this.stateFile)) this.sandbox.loadState(this.stateFile);
  }

  /** Write a log line (never to stdout). */
  log(line: string, level: LogLevel = 'info'): void {
    this.logger(line, level);
  }

  /** Answer one sandbox request (never throws). */
  request(request: Record<string, unknown>): Promise<SandboxResponse> {
    return this.sandbox.handle(request);
  }

  /** Run `fn` after every call queued before it: tool calls never interleave. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Save the state file after a change, when there is one and saving is on. A failure is
   * logged and returned as a warning (the call itself happened).
   */
  persist(): string | null {
    if (this.stateFile === undefined || !this.saveState) return null;
    try {
      this.sandbox.saveState(this.stateFile);
      return null;
    } catch (e) {
      const warning = `could not save the state to ${this.stateFile}: ${errorMessage(e)}`;
      this.log(warning, 'warn');
      return warning;
    }
  }

  /** Where the package with storage id `id` came from (0x1, 0x2, 0x3, 0xb, 0xdee9 are the framework wherever they were loaded from). */
  originOf(id: string): PackageOrigin {
    if (this.frameworkIds.has(id) || FRAMEWORK_IDS.has(id)) return 'framework';
    if (this.corpusIds.has(id)) return 'corpus';
    return 'session';
  }

  /** Every loaded package (framework, corpus, and those published or fetched in the session). */
  packages(): MovePackage[] {
    const vm = this.sandbox.env.vm;
    return vm.packageIds().flatMap((id) => {
      const p = vm.packageById(id);
      return p === undefined ? [] : [p];
    });
  }

  /**
   * The package at `address`: a storage id, or an original id (its newest loaded version).
   * @throws {SmiToolError} `INVALID_INPUT` for a malformed address, `MISSING_PACKAGE` when none is loaded.
   */
  packageAt(address: string): MovePackage {
    let id: string;
    try {
      id = canonicalAddress(address.trim());
    } catch {
      throw new SmiToolError('INVALID_INPUT', `"${address}" is not an address (0x followed by up to 64 hex digits)`);
    }
    const vm = this.sandbox.env.vm;
    const direct = vm.packageById(id);
    if (direct !== undefined) return direct;
    let newest: MovePackage | undefined;
    for (const p of this.packages()) {
      if (p.originalId === id && (newest === undefined || (p.version ?? 0) > (newest.version ?? 0))) newest = p;
    }
    if (newest === undefined) throw new SmiToolError('MISSING_PACKAGE', `package ${id} is not loaded (list_packages lists those that are)`);
    return newest;
  }

  /** A `0xpackage::module` path with the package resolved as {@link packageAt} does (short ids, original ids). */
  modulePath(path: string): string {
    const at = path.lastIndexOf('::');
    return `${this.packageAt(path.slice(0, at)).id}::${path.slice(at + 2)}`;
  }
}
