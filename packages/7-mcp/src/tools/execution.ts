/**
 * Running code: `call_function` (one call as a one-command transaction, arguments read by
 * the parameter types) and `execute_ptb` (a programmable transaction block built from
 * inputs and commands). Both commit their effects to the session; both answer with the
 * transaction's status — a Move abort is a result (`"status": "aborted"`), not an error.
 */
import { z } from 'zod';
import { isJsonObject, transactionResult } from '../results.js';
import { address, moduleName, moveValue, ptbCommand, ptbInput, txOptions, typeArgs } from '../schemas.js';
import { defineTool, type SmiTool } from '../tool.js';

/** What a transaction answers, for the descriptions. */
const OUTCOME =
  'Answers {"status": "success" | "aborted" | "failed", ...}: a Move abort is status "aborted" with abort_code and abort_location (module::function), ' +
  'any other failure of the transaction "failed" with error; effects (created, mutated, deleted, wrapped objects with types, owners, versions), ' +
  'events (decoded) and gas_used either way. Bad input (unknown function, a value that does not fit its type) is a tool error instead.';

export const callFunction: SmiTool = defineTool({
  name: 'call_function',
  title: 'Call a Move function',
  description:
    'Call one public or entry function in a transaction of its own, with JSON arguments read by the parameter types: objects by id ("0x…"), ' +
    'pure values as JSON (a &mut TxContext parameter is supplied, not passed). Returned objects go to the sender. ' +
    `Return values come decoded in return_values [{type, bcs, value}]. ${OUTCOME}`,
  input: {
    package: address('Package id'),
    module: moduleName,
    function: z.string().min(1).describe('Function name'),
    type_args: typeArgs,
    args: z.array(moveValue).default([]).describe('Arguments in order, one per parameter except TxContext'),
    ...txOptions,
  },
  mutates: true,
  run: async (session, args) => {
    const pkg = session.packageAt(args.package).id;
    const r = await session.request({
      action: 'call_function',
      package: pkg,
      module: args.module,
      function: args.function,
      type_args: args.type_args,
      args: args.args,
      ...(args.sender === undefined ? {} : { sender: args.sender }),
      ...(args.gas_budget === undefined ? {} : { gas_budget: args.gas_budget }),
    });
    const data = r.data;
    const returns = isJsonObject(data) && Array.isArray(data.returns) ? data.returns : [];
    return transactionResult(r, { function: `${pkg}::${args.module}::${args.function}`, return_values: returns });
  },
});

export const executePtb: SmiTool = defineTool({
  name: 'execute_ptb',
  title: 'Execute a programmable transaction block',
  description:
    'Build and run a PTB: inputs (pure values with their Move type, objects of the session by id, new gas coins) and commands ' +
    '(move_call, transfer_objects, split_coins, merge_coins, make_move_vec) whose arguments name inputs or earlier results. ' +
    'Values a command returns and nobody uses must be droppable; transfer objects to keep them. ' +
    `Return values of each command are in effects.return_values. ${OUTCOME}`,
  input: {
    inputs: z.array(ptbInput).default([]).describe('Inputs, referred to by index'),
    commands: z.array(ptbCommand).min(1).describe('Commands, run in order; results referred to by command index'),
    ...txOptions,
  },
  mutates: true,
  run: async (session, args) =>
    transactionResult(
      await session.request({
        action: 'execute_ptb',
        inputs: args.inputs,
        commands: args.commands,
        ...(args.sender === undefined ? {} : { sender: args.sender }),
        ...(args.gas_budget === undefined ? {} : { gas_budget: args.gas_budget }),
      }),
    ),
});
