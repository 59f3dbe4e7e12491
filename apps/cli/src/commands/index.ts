/** Every command of `smi`, in the order `smi --help` lists them. */
import type { CommandSpec } from '../command.js';
import { benchmarkLocalCommand } from './benchmark-local.js';
import { buildCommand } from './build.js';
import { buildAllCommand } from './build-all.js';
import { cacheCommand } from './cache.js';
import { callCommand } from './call.js';
import { compareCommand } from './compare.js';
import { rescoreCommand } from './rescore.js';
import { completionCommand } from './completion.js';
import { conformanceCommand } from './conformance.js';
import { corpusCommand } from './corpus-check.js';
import { disasmCommand } from './disasm.js';
import { extractCommand } from './extract.js';
import { mcpCommand } from './mcp.js';
import { mergeCommand } from './merge.js';
import { mergeRowsCommand } from './merge-rows.js';
import { phase1Command } from './phase1.js';
import { ptbEvalCommand } from './ptb-eval.js';
import { phase2Command } from './phase2.js';
import { manifestFilterCommand, phase2ManifestCommand } from './phase2-manifest.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { runAllCommand } from './run-all.js';
import { sandboxExecCommand } from './sandbox-exec.js';
import { stubsCommand } from './stubs.js';
import { txReplayCommand } from './tx-replay.js';

export const COMMANDS: readonly CommandSpec<never>[] = [
  extractCommand,
  corpusCommand,
  disasmCommand,
  stubsCommand,
  buildCommand,
  buildAllCommand,
  callCommand,
  conformanceCommand,
  replayCommand,
  txReplayCommand,
  ptbEvalCommand,
  sandboxExecCommand,
  mcpCommand,
  benchmarkLocalCommand,
  phase1Command,
  phase2Command,
  phase2ManifestCommand,
  manifestFilterCommand,
  runAllCommand,
  mergeCommand,
  mergeRowsCommand,
  compareCommand,
  rescoreCommand,
  reportCommand,
  cacheCommand,
  completionCommand,
];
