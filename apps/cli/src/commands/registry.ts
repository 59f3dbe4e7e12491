/**
 * Every command of `smi`, in the order `smi --help` lists them: its usage line and what it
 * does, and how to load it. `smi` loads only the command it runs (and none for `--help` or
 * `--version`), so it starts without the code of the other commands.
 */
import type { CommandSpec } from '../command.js';

/** One command, before its code is loaded. */
export interface CommandEntry {
  /** The usage line (`name <positional> [optional]`). */
  readonly command: string;
  readonly describe: string;
  load(): Promise<CommandSpec<never>>;
}

export const COMMAND_ENTRIES: readonly CommandEntry[] = [
  {
    command: 'extract',
    describe: 'Write the bytecode interface JSON (schema_version 1) of a package, or of every package of a corpus',
    load: async () => (await import('./extract.js')).extractCommand as CommandSpec<never>,
  },
  { command: 'corpus <action>', describe: 'Work on a whole corpus of packages (sui-packages layout)', load: async () => (await import('./corpus-check.js')).corpusCommand as CommandSpec<never> },
  { command: 'disasm <target>', describe: 'Disassemble a .mv module or every module of a package directory', load: async () => (await import('./disasm.js')).disasmCommand as CommandSpec<never> },
  {
    command: 'stubs <package-dir>',
    describe: 'Generate Move source stubs (Move.toml + sources/*.move) of a bytecode package',
    load: async () => (await import('./stubs.js')).stubsCommand as CommandSpec<never>,
  },
  {
    command: 'build <package-dir>',
    describe: 'Compile a Move package offline (framework macros included; local source dependencies compiled from source)',
    load: async () => (await import('./build.js')).buildCommand as CommandSpec<never>,
  },
  {
    command: 'build-all <repository>',
    describe: 'Build every Move package of a repository in dependency order into a corpus (sui-packages layout)',
    load: async () => (await import('./build-all.js')).buildAllCommand as CommandSpec<never>,
  },
  { command: 'call <target>', describe: 'Run a Move function (address::module::function) with JSON arguments', load: async () => (await import('./call.js')).callCommand as CommandSpec<never> },
  {
    command: 'conformance <suite>',
    describe: 'Run an upstream conformance suite against SMI and summarise the result',
    load: async () => (await import('./conformance.js')).conformanceCommand as CommandSpec<never>,
  },
  {
    command: 'fetch <what> [ids..]',
    describe: 'Fetch the framework (into the user cache) or packages by id with their linkage closure (into a folder, sui-packages layout) from a Sui node, each answer checked against its digest',
    load: async () => (await import('./fetch.js')).fetchCommand as CommandSpec<never>,
  },
  {
    command: 'replay',
    describe: 'Replay a mainnet transaction from a sui-replay snapshot offline and compare with its recorded effects',
    load: async () => (await import('./replay.js')).replayCommand as CommandSpec<never>,
  },
  {
    command: 'tx-replay',
    describe: 'Fetch mainnet transactions over gRPC or GraphQL, cache them, and replay them offline against their recorded effects (the original tx-replay)',
    load: async () => (await import('./tx-replay.js')).txReplayCommand as CommandSpec<never>,
  },
  {
    command: 'ptb-eval',
    describe: 'Run every cached mainnet PTB offline, healing missing packages and objects from a node (the original ptb-eval)',
    load: async () => (await import('./ptb-eval.js')).ptbEvalCommand as CommandSpec<never>,
  },
  {
    command: 'sandbox-exec',
    describe: 'Answer JSON sandbox requests ({"action": ...}) on an offline simulation, once or line by line',
    load: async () => (await import('./sandbox-exec.js')).sandboxExecCommand as CommandSpec<never>,
  },
  {
    command: 'mcp',
    describe: 'Serve the sandbox to agents as a Model Context Protocol server over stdio (one simulation per session)',
    load: async () => (await import('./mcp.js')).mcpCommand as CommandSpec<never>,
  },
  {
    command: 'benchmark-local',
    describe: 'Type inhabitation of every public/entry function of a corpus: Tier A (static) and Tier B (real transactions), JSONL rows and a summary',
    load: async () => (await import('./benchmark-local.js')).benchmarkLocalCommand as CommandSpec<never>,
  },
  {
    command: 'phase1',
    describe: 'Phase I of the LLM benchmark: which structs of a package have `key`? (the original smi-phase1)',
    load: async () => (await import('./phase1.js')).phase1Command as CommandSpec<never>,
  },
  {
    command: 'phase2',
    describe: "Phase II of the LLM benchmark: create objects of each package's key types, scored by what the transaction created (the original smi-inhabit, offline)",
    load: async () => (await import('./phase2.js')).phase2Command as CommandSpec<never>,
  },
  {
    command: 'phase2-manifest',
    describe: 'Which packages baseline-search can plan for: an ids file, a plan file and a viability report (the original smi-phase2-manifest)',
    load: async () => (await import('./phase2-manifest.js')).phase2ManifestCommand as CommandSpec<never>,
  },
  {
    command: 'manifest-filter <run-json>',
    describe: 'The packages of a Phase II run JSON with at least --min-targets targets, as an ids file (the original smi-phase2-filter-manifest)',
    load: async () => (await import('./phase2-manifest.js')).manifestFilterCommand as CommandSpec<never>,
  },
  {
    command: 'run-all',
    describe: 'Phase I (mock-empty), the Phase II manifest, then Phase II with baseline-search, into one directory (the original smi-bench run-all)',
    load: async () => (await import('./run-all.js')).runAllCommand as CommandSpec<never>,
  },
  {
    command: 'merge <runs..>',
    describe: 'Join the run directories of the shards of one run into one run directory (refuses different specs and duplicate packages)',
    load: async () => (await import('./merge.js')).mergeCommand as CommandSpec<never>,
  },
  {
    command: 'merge-rows <parts..>',
    describe: 'Join the rows of benchmark-local --shard K/N parts (part 1 first) into the rows of one run',
    load: async () => (await import('./merge-rows.js')).mergeRowsCommand as CommandSpec<never>,
  },
  {
    command: 'compare <a> <b>',
    describe: 'Compare two Phase I or Phase II runs: packages fixed and broken, metric delta with a bootstrap interval, token and cost deltas',
    load: async () => (await import('./compare.js')).compareCommand as CommandSpec<never>,
  },
  {
    command: 'rescore <run-dir-in>',
    describe: 'Score a run again from what it recorded (its answers, its packages), without calling a model, into a new run directory, and compare the two',
    load: async () => (await import('./rescore.js')).rescoreCommand as CommandSpec<never>,
  },
  {
    command: 'report <inputs..>',
    describe: 'An HTML report (charts, sortable tables, drill-down, transcripts; one file, opens offline) and report.md of benchmark-local rows and Phase I / II runs',
    load: async () => (await import('./report.js')).reportCommand as CommandSpec<never>,
  },
  {
    command: 'cache <action>',
    describe: 'The response cache of model calls: ls (what is in it), prune (old entries), clear (everything)',
    load: async () => (await import('./cache.js')).cacheCommand as CommandSpec<never>,
  },
  {
    command: 'doctor',
    describe: 'What this machine gives SMI: where the framework, protocol configs and cache are, and which protocol (gRPC-web, native gRPC, GraphQL) each endpoint answers',
    load: async () => (await import('./doctor.js')).doctorCommand as CommandSpec<never>,
  },
  {
    command: 'completion [shell]',
    describe: 'Print the shell completion script (bash or zsh; default: your $SHELL)',
    load: async () => (await import('./completion.js')).completionCommand as CommandSpec<never>,
  },
];

/** The usage line and description of command `name` (its spec takes them from here). */
export function header(name: string): { command: string; describe: string } {
  const e = COMMAND_ENTRIES.find((c) => c.command === name || c.command.startsWith(`${name} `));
  if (e === undefined) throw new Error(`no command ${name} in the registry`);
  return { command: e.command, describe: e.describe };
}
