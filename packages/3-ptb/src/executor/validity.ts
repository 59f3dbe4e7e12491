/**
 * Checks a validator makes before a programmable transaction runs (upstream
 * `ProgrammableTransaction::validity_check` / `Command::validity_check`): a transaction
 * that fails them is rejected with a `UserInputError` and has no effects at all, so the
 * executor's caller should refuse it rather than execute it.
 */
import type { ProtocolConfig } from '@smi/move-vm';
import type { Command, ProgrammableTransaction } from '../bcs/transaction.js';

function limit(cfg: ProtocolConfig, key: string): number {
  return cfg.optionalInt(key) ?? Number.MAX_SAFE_INTEGER;
}

/**
 * Why `c` is an empty command (`EmptyCommandInput`): TransferObjects, SplitCoins,
 * MergeCoins with no arguments, MakeMoveVec with neither a type nor elements, Publish or
 * Upgrade with no modules; `null` when it is not empty.
 */
export function emptyCommandReason(c: Command): string | null {
  switch (c.$kind) {
    case 'TransferObjects':
      return c.TransferObjects.objects.length === 0 ? 'has no arguments' : null;
    case 'SplitCoins':
      return c.SplitCoins.amounts.length === 0 ? 'has no arguments' : null;
    case 'MergeCoins':
      return c.MergeCoins.sources.length === 0 ? 'has no arguments' : null;
    case 'MakeMoveVec':
      return c.MakeMoveVec.type === null && c.MakeMoveVec.elements.length === 0 ? 'has neither a type nor elements' : null;
    case 'Publish':
      return c.Publish.modules.length === 0 ? 'has no modules' : null;
    case 'Upgrade':
      return c.Upgrade.modules.length === 0 ? 'has no modules' : null;
    default:
      return null;
  }
}

/**
 * Why `ptb` is rejected before execution (`EmptyCommandInput`, `SizeLimitExceeded`), or
 * `null` when it may run.
 */
export function transactionInputError(ptb: ProgrammableTransaction, cfg: ProtocolConfig): string | null {
  const maxArgs = limit(cfg, 'max_arguments');
  if (ptb.commands.length >= limit(cfg, 'max_programmable_tx_commands')) return `SizeLimitExceeded: more than ${limit(cfg, 'max_programmable_tx_commands') - 1} commands`;
  const maxPure = limit(cfg, 'max_pure_argument_size');
  for (let i = 0; i < ptb.inputs.length; i++) {
    const input = ptb.inputs[i];
    if (input.$kind === 'Pure' && input.Pure.bytes.length > maxPure) return `SizeLimitExceeded: pure input ${i} is larger than ${maxPure} bytes`;
  }
  for (let i = 0; i < ptb.commands.length; i++) {
    const c = ptb.commands[i];
    const empty = emptyCommandReason(c);
    if (empty !== null) return `EmptyCommandInput: command ${i} (${c.$kind}) ${empty}`;
    const tooMany = (n: number): string | null => (n >= maxArgs ? `SizeLimitExceeded: command ${i} has ${n} arguments (limit ${maxArgs})` : null);
    switch (c.$kind) {
      case 'MoveCall': {
        const e = tooMany(c.MoveCall.arguments.length);
        if (e !== null) return e;
        break;
      }
      case 'TransferObjects':
      case 'SplitCoins':
      case 'MergeCoins': {
        const args = c.$kind === 'TransferObjects' ? c.TransferObjects.objects : c.$kind === 'SplitCoins' ? c.SplitCoins.amounts : c.MergeCoins.sources;
        const e = tooMany(args.length);
        if (e !== null) return e;
        break;
      }
      case 'MakeMoveVec': {
        const e = tooMany(c.MakeMoveVec.elements.length);
        if (e !== null) return e;
        break;
      }
      case 'Publish':
      case 'Upgrade': {
        const { modules, dependencies } = c.$kind === 'Publish' ? c.Publish : c.Upgrade;
        if (modules.length >= limit(cfg, 'max_modules_in_publish')) return `SizeLimitExceeded: command ${i} publishes ${modules.length} modules`;
        if (dependencies.length >= limit(cfg, 'max_package_dependencies')) return `SizeLimitExceeded: command ${i} has ${dependencies.length} dependencies`;
        break;
      }
    }
  }
  return null;
}
