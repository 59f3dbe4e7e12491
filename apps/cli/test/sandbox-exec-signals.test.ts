/**
 * `smi sandbox-exec --interactive` stopped by a signal, stdin a pipe left open: Ctrl-C
 * (SIGINT) exits 130 and SIGTERM 143, as its --help says, whether it is waiting for the
 * next request or answering one (that answer is written first), and right after it
 * starts, while its modules load.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { requireBuiltCli, type Response, Session } from './sandbox-exec-helpers.js';

/** A request that takes seconds: compiling and publishing a module. */
const COMPILE = {
  action: 'compile_move',
  package_name: 'spin',
  module_name: 'spin',
  source: 'module spin::spin { public fun spin(n: u64): u64 { let mut i = 0; while (i < n) { i = i + 1; }; i } }',
};

const STATUS = { SIGINT: 130, SIGTERM: 143 } as const;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

describeWithFixtures('smi sandbox-exec --interactive: exit status on a signal', ['fixtures', 'framework'], () => {
  beforeAll(() => requireBuiltCli());

  it.each(SIGNALS)(
    '%s while it waits for the next request',
    async (sig) => {
      const s = new Session(['--no-save-state']);
      expect((await s.ask({ action: 'get_clock' })).success).toBe(true);
      s.child.kill(sig);
      const exit = await s.exited;
      expect(exit, s.stderr).toEqual({ code: STATUS[sig], signal: null });
      expect(s.stderr).toContain(`smi: ${sig}: stopping after the current step`);
      expect(s.lines).toHaveLength(1);
    },
    60_000,
  );

  it.each(SIGNALS)(
    '%s while it answers a request: the answer is written, then the exit',
    async (sig) => {
      const s = new Session(['--no-save-state']);
      expect((await s.ask({ action: 'get_clock' })).success).toBe(true);
      s.write(`${JSON.stringify(COMPILE)}\n`);
      // The compile is under way (it takes seconds); the next request is never read.
      await new Promise((resolve) => setTimeout(resolve, 300));
      s.write(`${JSON.stringify({ action: 'get_clock' })}\n`);
      s.child.kill(sig);
      const exit = await s.exited;
      expect(exit, s.stderr).toEqual({ code: STATUS[sig], signal: null });
      expect(s.lines).toHaveLength(2);
      const answer = JSON.parse(s.lines[1]) as Response;
      expect(answer.success, answer.error).toBe(true);
      expect((answer.data as { deployed?: boolean }).deployed).toBe(true);
    },
    90_000,
  );

  it.each(SIGNALS)(
    '%s while it starts (modules loading, session not ready): the same status, not death by the signal',
    async (sig) => {
      const s = new Session(['--no-save-state']);
      // Past the first lines of the entry point (the process's signal listeners are set
      // first, ~0.2 s in), while the command's modules still load (before, it died by the signal).
      await new Promise((resolve) => setTimeout(resolve, 800));
      s.child.kill(sig);
      const exit = await s.exited;
      expect(exit, s.stderr).toEqual({ code: STATUS[sig], signal: null });
    },
    60_000,
  );
});
