/**
 * `smi completion [bash|zsh]`: yargs' own completion script. The script asks
 * `smi --get-yargs-completions <words>` for candidates, which the main parser answers.
 */
import yargs from 'yargs';
import { defineCommand } from '../command.js';
import { header } from './registry.js';

type Shell = 'bash' | 'zsh';

/** yargs' completion script for `shell` (it picks the template from $SHELL). */
async function completionScript(shell: Shell): Promise<string> {
  const saved = process.env.SHELL;
  process.env.SHELL = `/bin/${shell}`;
  try {
    let script = '';
    await yargs(['completion'])
      .scriptName('smi')
      .completion('completion')
      .exitProcess(false)
      .parseAsync(['completion'], {}, (_err: unknown, _argv: unknown, output: string) => {
        script = output;
      });
    return script.endsWith('\n') ? script : script + '\n';
  } finally {
    if (saved === undefined) delete process.env.SHELL;
    else process.env.SHELL = saved;
  }
}

/** `smi completion`. */
export const completionCommand = defineCommand<{ shell?: Shell }>({
  ...header('completion'),
  positionals: { shell: { type: 'string', choices: ['bash', 'zsh'] as const, describe: 'Shell to complete in' } },
  examples: [
    { command: '$0 completion bash > smi-completion.bash', describe: 'then: source smi-completion.bash (or append it to ~/.bashrc)' },
    { command: '$0 completion zsh > _smi', describe: 'for zsh: put _smi on your $fpath, or append it to ~/.zshrc' },
  ],
  run: async (args, io) => {
    const shell: Shell = args.shell ?? ((process.env.SHELL ?? '').includes('zsh') ? 'zsh' : 'bash');
    io.stdout(await completionScript(shell));
    return 0;
  },
});
