/**
 * Long commands stopped half-way (in-process, with the io's signal aborted from the
 * progress output, so the point of interruption is deterministic): what was finished is
 * kept, files are whole, and the exit status is 130.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { type CliIo, InterruptedError, runCli } from '../src/index.js';

/** An io whose signal is aborted (as by Ctrl-C) once the progress has printed `after` lines. */
function interruptingIo(after: number): { io: CliIo; out: () => string } {
  const controller = new AbortController();
  let stdout = '';
  let lines = 0;
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => {
      lines += t.split('\n').length - 1;
      if (lines >= after && !controller.signal.aborted) controller.abort(new InterruptedError('SIGINT'));
    },
    isTty: false,
    cwd: process.cwd(),
    signal: controller.signal,
  };
  return { io, out: () => stdout };
}

describeWithFixtures('smi: interrupted long commands keep what they finished', ['corpus'], () => {
  it('extract --corpus: the packages written are whole; index.jsonl and corpus_summary.json name them and say interrupted', async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'smi-interrupt-'));
    const { io, out } = interruptingIo(1);
    const code = await runCli(['extract', '--corpus', fixturePath('corpus'), '--out-dir', outDir, '--json'], io);
    expect(code).toBe(130);
    const summary = JSON.parse(out()) as { packages: number; ok: number; interrupted: boolean };
    expect(summary.interrupted).toBe(true);
    expect(summary.ok).toBeGreaterThan(0);
    expect(summary.ok).toBeLessThan(summary.packages);
    expect(JSON.parse(readFileSync(path.join(outDir, 'corpus_summary.json'), 'utf8'))).toEqual(summary);
    const index = readFileSync(path.join(outDir, 'index.jsonl'), 'utf8').trim().split('\n');
    expect(index).toHaveLength(summary.ok);
    const files = readdirSync(outDir);
    // No temp file left, and every package file parses.
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const packages = files.filter((f) => f.startsWith('0x'));
    expect(packages).toHaveLength(summary.ok);
    for (const f of packages) expect(JSON.parse(readFileSync(path.join(outDir, f), 'utf8'))).toHaveProperty('schema_version', 1);
  });

  it('corpus check: the summary covers the packages checked, exit 130', async () => {
    const { io, out } = interruptingIo(1);
    const code = await runCli(['corpus', 'check', '--corpus', fixturePath('corpus'), '--json'], io);
    expect(code).toBe(130);
    const summary = JSON.parse(out()) as { interrupted: boolean; modules: number; roundtrip_identical: number };
    expect(summary.interrupted).toBe(true);
    expect(summary.modules).toBeGreaterThan(0);
    expect(summary.roundtrip_identical).toBe(summary.modules);
  });

  it('an output file is written to a temp file renamed into place: nothing else is left beside it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-atomic-'));
    const target = path.join(dir, 'iface.json');
    const pkg = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000002');
    const { io } = interruptingIo(Infinity);
    expect(await runCli(['extract', '--package-dir', pkg, '--out', target], io)).toBe(0);
    expect(readdirSync(dir)).toEqual(['iface.json']);
    expect(existsSync(target)).toBe(true);
  });

  it('phase2 with a model-free agent: Ctrl-C is seen between packages (exit 130), and --resume finishes the run', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-interrupt-p2-')), 'run');
    const args = ['phase2', '--corpus-root', fixturePath('corpus'), '--samples', '0', '--agent', 'baseline-search', '--run-dir', dir, '--json'];
    const { io, out } = interruptingIo(1);
    expect(await runCli(args, io)).toBe(130);
    const stopped = JSON.parse(out()) as { status: string; stop_reason: string; done: number };
    expect(stopped.stop_reason).toBe('interrupted');
    expect(stopped.done).toBeLessThan(12);
    const { io: io2, out: out2 } = interruptingIo(Number.POSITIVE_INFINITY);
    expect(await runCli([...args, '--resume'], io2)).toBe(0);
    expect(JSON.parse(out2())).toMatchObject({ status: 'success', done: 12 });
  }, 120_000);
});
