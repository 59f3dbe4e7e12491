/**
 * The tasks of an adapter test file: the file is split into `//#` tasks exactly as
 * upstream's `taskify` does (`@smi/move-ir`), then each task's words are read into a typed
 * command the way upstream's clap definitions read them (`--name value`, options taking
 * one or more values up to the next `--option`, flags, positionals).
 */
import { parseTransactionalTestFile, type TransactionalTask } from '@smi/move-ir';
import { AdapterError } from './errors.js';
import { parseFakeId, parseType, parseUnsigned, parseValue, type FakeId, type ParsedAddress, type ParsedType, type ParsedValue } from './values.js';

/** `init`. */
export interface InitCommand {
  kind: 'init';
  /** `--addresses name=value`. */
  addresses: [string, string][];
  accounts: string[];
  protocolVersion: number | null;
  /** Options the runner reads but does not model (reported when they matter). */
  other: Record<string, string[]>;
}

/** Sender, gas budget and price shared by the transaction commands. */
export interface TxOptions {
  sender: string | null;
  gasBudget: bigint | null;
  gasPrice: bigint | null;
}

export interface PublishCommand extends TxOptions {
  kind: 'publish';
  upgradeable: boolean;
  dependencies: string[];
  dryRun: boolean;
  syntax: string | null;
}

export interface RunCommand extends TxOptions {
  kind: 'run';
  address: ParsedAddress;
  module: string;
  function: string;
  args: ParsedValue[];
  typeArgs: ParsedType[];
  summarize: boolean;
  /** `bench <function>`: run, print nothing (upstream benchmarks it, then runs it). */
  silent?: boolean;
}

export interface ProgrammableCommand extends TxOptions {
  kind: 'programmable';
  sponsor: string | null;
  gasPayment: ParsedValue[];
  devInspect: boolean;
  dryRun: boolean;
  addressBalanceGas: boolean;
  expiration: bigint | null;
  inputs: ParsedValue[];
}

export interface ViewObjectCommand {
  kind: 'view-object';
  id: FakeId;
  hideContents: boolean;
}

export interface TransferObjectCommand extends TxOptions {
  kind: 'transfer-object';
  id: FakeId;
  recipient: string;
  addressBalanceGas: boolean;
}

export interface UpgradeCommand extends TxOptions {
  kind: 'upgrade';
  package: string;
  upgradeCapability: FakeId;
  dependencies: string[];
  dryRun: boolean;
  policy: number;
  addressBalanceGas: boolean;
  syntax: string | null;
}

export interface StagePackageCommand {
  kind: 'stage-package';
  dependencies: string[];
  syntax: string | null;
}

export interface SetAddressCommand {
  kind: 'set-address';
  address: string;
  input: ParsedValue;
}

export interface CountCommand {
  kind: 'create-checkpoint' | 'advance-epoch';
  count: number;
  flags: string[];
}

export interface AdvanceClockCommand {
  kind: 'advance-clock';
  durationNs: bigint;
}

/** `gasless-allow-token <type> [--min-transfer N]`: allow a token in gasless transactions. */
export interface GaslessAllowTokenCommand {
  kind: 'gasless-allow-token';
  type: string;
  minTransfer: bigint;
}

/** `view-funds <Balance type> <account>`: the account's settled address balance. */
export interface ViewFundsCommand {
  kind: 'view-funds';
  type: string;
  account: string;
}

export interface ViewCheckpointCommand {
  kind: 'view-checkpoint';
}

/** A task whose words do not parse (its output is the error). */
export interface InvalidCommand {
  kind: 'invalid';
  name: string;
  message: string;
}

/** A task the runner does not implement (it is skipped with `reason`). */
export interface UnsupportedCommand {
  kind: 'unsupported';
  name: string;
  reason: string;
}

export type AdapterCommand =
  | InitCommand
  | PublishCommand
  | RunCommand
  | ProgrammableCommand
  | ViewObjectCommand
  | TransferObjectCommand
  | UpgradeCommand
  | StagePackageCommand
  | SetAddressCommand
  | CountCommand
  | AdvanceClockCommand
  | ViewCheckpointCommand
  | ViewFundsCommand
  | GaslessAllowTokenCommand
  | InvalidCommand
  | UnsupportedCommand;

/** A task with its typed command. */
export interface AdapterTask {
  task: TransactionalTask;
  command: AdapterCommand;
}

type Arity = 'flag' | 'one' | 'many';

interface Spec {
  options: Record<string, Arity>;
  /** Names of positional parameters, in order. */
  positionals: string[];
}

interface Parsed {
  options: Map<string, string[]>;
  positionals: Map<string, string>;
}

function parseWords(command: string, words: readonly string[], spec: Spec): Parsed {
  const options = new Map<string, string[]>();
  const positionals = new Map<string, string>();
  let pos = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = eq >= 0 ? w.slice(2, eq) : w.slice(2);
      const arity = spec.options[name];
      if (arity === undefined) throw new AdapterError('PARSE_ERROR', `${command}: unknown option --${name}`);
      const values = options.get(name) ?? [];
      options.set(name, values);
      if (arity === 'flag') {
        values.push('true');
        continue;
      }
      if (eq >= 0) {
        values.push(w.slice(eq + 1));
        continue;
      }
      if (arity === 'one') {
        const v = words[i + 1];
        if (v === undefined) throw new AdapterError('PARSE_ERROR', `${command}: --${name} needs a value`);
        values.push(v);
        i++;
        continue;
      }
      let taken = 0;
      while (i + 1 < words.length && !words[i + 1].startsWith('--')) {
        values.push(words[i + 1]);
        i++;
        taken++;
      }
      if (taken === 0) throw new AdapterError('PARSE_ERROR', `${command}: --${name} needs a value`);
      continue;
    }
    const name = spec.positionals[pos];
    if (name === undefined) throw new AdapterError('PARSE_ERROR', `${command}: unexpected argument ${w}`);
    positionals.set(name, w);
    pos++;
  }
  return { options, positionals };
}

function one(p: Parsed, name: string): string | null {
  const v = p.options.get(name);
  return v === undefined || v.length === 0 ? null : v[v.length - 1];
}

function flag(p: Parsed, name: string): boolean {
  return p.options.has(name);
}

function many(p: Parsed, name: string): string[] {
  return p.options.get(name) ?? [];
}

function u64Opt(p: Parsed, name: string): bigint | null {
  const v = one(p, name);
  return v === null ? null : parseUnsigned(v);
}

function txOptions(p: Parsed): TxOptions {
  return { sender: one(p, 'sender'), gasBudget: u64Opt(p, 'gas-budget'), gasPrice: u64Opt(p, 'gas-price') };
}

const INIT_OPTIONS: Record<string, Arity> = {
  addresses: 'many',
  accounts: 'many',
  'protocol-version': 'one',
  chain: 'one',
  'max-gas': 'one',
  simulator: 'flag',
  'num-custom-validator-accounts': 'one',
  'reference-gas-price': 'one',
  'default-gas-price': 'one',
  flavor: 'one',
  'consistent-range': 'one',
  'data-ingestion-path': 'one',
  'rest-api-url': 'one',
  'file-format': 'one',
  'enable-gasless': 'flag',
  'gasless-max-pure-input-bytes': 'one',
  'gasless-max-unused-inputs': 'one',
  'enable-feature-flags': 'one',
  'disable-feature-flags': 'one',
};

const POLICIES: Record<string, number> = { compatible: 0, additive: 128, dep_only: 192 };

/** `addr::module::function`. */
function qualifiedName(text: string): { address: ParsedAddress; module: string; function: string } {
  const parts = text.split('::');
  if (parts.length !== 3 || parts.some((p) => p === '')) throw new AdapterError('PARSE_ERROR', `bad function name ${text}`);
  const address: ParsedAddress = /^[0-9]/.test(parts[0]) ? { kind: 'numeric', value: parseUnsigned(parts[0]) } : { kind: 'named', name: parts[0] };
  return { address, module: parts[1], function: parts[2] };
}

/** Read one task's command. Unknown task kinds become `unsupported` commands. */
export function parseCommand(task: TransactionalTask): AdapterCommand {
  // `bench ptb ...` is a programmable transaction; `bench <function> ...` a silent run.
  if (task.command === 'bench') {
    if (task.args[0] === 'ptb') return parseCommand({ ...task, command: 'programmable', args: task.args.slice(1) });
    const run = parseCommand({ ...task, command: 'run' });
    return run.kind === 'run' ? { ...run, silent: true } : run;
  }
  const name = task.command;
  const words = task.args;
  switch (name) {
    case 'init': {
      const p = parseWords(name, words, { options: INIT_OPTIONS, positionals: [] });
      const addresses = many(p, 'addresses').map((a): [string, string] => {
        const eq = a.indexOf('=');
        if (eq < 0) throw new AdapterError('PARSE_ERROR', `bad named address ${a}`);
        return [a.slice(0, eq), a.slice(eq + 1)];
      });
      const other: Record<string, string[]> = {};
      for (const [k, v] of p.options) if (!['addresses', 'accounts', 'protocol-version'].includes(k)) other[k] = v;
      const pv = one(p, 'protocol-version');
      return { kind: 'init', addresses, accounts: many(p, 'accounts'), protocolVersion: pv === null ? null : Number(pv), other };
    }
    case 'publish': {
      const p = parseWords(name, words, {
        options: { 'gas-budget': 'one', syntax: 'one', sender: 'one', upgradeable: 'flag', dependencies: 'many', 'gas-price': 'one', 'dry-run': 'flag' },
        positionals: [],
      });
      return { kind: 'publish', ...txOptions(p), upgradeable: flag(p, 'upgradeable'), dependencies: many(p, 'dependencies'), dryRun: flag(p, 'dry-run'), syntax: one(p, 'syntax') };
    }
    case 'run': {
      const p = parseWords(name, words, {
        options: { signers: 'many', args: 'many', 'type-args': 'many', 'gas-budget': 'one', syntax: 'one', sender: 'one', 'gas-price': 'one', summarize: 'flag' },
        positionals: ['name'],
      });
      const target = p.positionals.get('name');
      if (target === undefined) throw new AdapterError('PARSE_ERROR', 'run: no function given');
      if (many(p, 'signers').length > 0) throw new AdapterError('UNSUPPORTED', 'run --signers is not used by Sui');
      return {
        kind: 'run',
        ...txOptions(p),
        ...qualifiedName(target),
        args: many(p, 'args').map(parseValue),
        typeArgs: many(p, 'type-args').map(parseType),
        summarize: flag(p, 'summarize'),
      };
    }
    case 'programmable': {
      const p = parseWords(name, words, {
        options: {
          sender: 'one',
          sponsor: 'one',
          'gas-budget': 'one',
          'address-balance-gas': 'flag',
          'gas-price': 'one',
          'gas-payment': 'one',
          'dev-inspect': 'flag',
          'dry-run': 'flag',
          expiration: 'one',
          inputs: 'many',
        },
        positionals: [],
      });
      return {
        kind: 'programmable',
        ...txOptions(p),
        sponsor: one(p, 'sponsor'),
        gasPayment: many(p, 'gas-payment').map(parseValue),
        devInspect: flag(p, 'dev-inspect'),
        dryRun: flag(p, 'dry-run'),
        addressBalanceGas: flag(p, 'address-balance-gas'),
        expiration: u64Opt(p, 'expiration'),
        inputs: many(p, 'inputs').map(parseValue),
      };
    }
    case 'view-object': {
      const p = parseWords(name, words, { options: { 'hide-contents': 'flag' }, positionals: ['id'] });
      const id = p.positionals.get('id');
      if (id === undefined) throw new AdapterError('PARSE_ERROR', 'view-object: no id');
      return { kind: 'view-object', id: parseFakeId(id), hideContents: flag(p, 'hide-contents') };
    }
    case 'transfer-object': {
      const p = parseWords(name, words, {
        options: { recipient: 'one', sender: 'one', 'gas-budget': 'one', 'address-balance-gas': 'flag', 'gas-price': 'one' },
        positionals: ['id'],
      });
      const id = p.positionals.get('id');
      const recipient = one(p, 'recipient');
      if (id === undefined || recipient === null) throw new AdapterError('PARSE_ERROR', 'transfer-object needs an id and --recipient');
      return { kind: 'transfer-object', ...txOptions(p), id: parseFakeId(id), recipient, addressBalanceGas: flag(p, 'address-balance-gas') };
    }
    case 'upgrade': {
      const p = parseWords(name, words, {
        options: {
          package: 'one',
          'upgrade-capability': 'one',
          dependencies: 'many',
          sender: 'one',
          'gas-budget': 'one',
          'address-balance-gas': 'flag',
          'dry-run': 'flag',
          syntax: 'one',
          policy: 'one',
          'gas-price': 'one',
        },
        positionals: [],
      });
      const pkg = one(p, 'package');
      const cap = one(p, 'upgrade-capability');
      const sender = one(p, 'sender');
      if (pkg === null || cap === null || sender === null) throw new AdapterError('PARSE_ERROR', 'upgrade needs --package, --upgrade-capability and --sender');
      const policyName = one(p, 'policy') ?? 'compatible';
      const policy = POLICIES[policyName];
      if (policy === undefined) throw new AdapterError('PARSE_ERROR', `Invalid upgrade policy ${policyName}`);
      return {
        kind: 'upgrade',
        ...txOptions(p),
        package: pkg,
        upgradeCapability: parseFakeId(cap),
        dependencies: many(p, 'dependencies'),
        dryRun: flag(p, 'dry-run'),
        policy,
        addressBalanceGas: flag(p, 'address-balance-gas'),
        syntax: one(p, 'syntax'),
      };
    }
    case 'stage-package': {
      const p = parseWords(name, words, { options: { syntax: 'one', dependencies: 'many' }, positionals: [] });
      return { kind: 'stage-package', dependencies: many(p, 'dependencies'), syntax: one(p, 'syntax') };
    }
    case 'set-address': {
      const p = parseWords(name, words, { options: {}, positionals: ['address', 'input'] });
      const address = p.positionals.get('address');
      const input = p.positionals.get('input');
      if (address === undefined || input === undefined) throw new AdapterError('PARSE_ERROR', 'set-address needs a name and a value');
      return { kind: 'set-address', address, input: parseValue(input) };
    }
    case 'create-checkpoint':
    case 'advance-epoch': {
      const p = parseWords(name, words, {
        options: {
          'create-random-state': 'flag',
          'create-authenticator-state': 'flag',
          'create-authenticator-state-expire': 'flag',
          'create-deny-list-state': 'flag',
          'create-bridge-state': 'flag',
          'create-bridge-committee': 'flag',
          'system-packages-snapshot': 'one',
        },
        positionals: ['count'],
      });
      const count = p.positionals.get('count');
      return { kind: name, count: count === undefined ? 1 : Number(parseUnsigned(count)), flags: [...p.options.keys()] };
    }
    case 'advance-clock': {
      const p = parseWords(name, words, { options: { duration: 'one', 'duration-ns': 'one' }, positionals: [] });
      const ns = one(p, 'duration-ns');
      if (ns !== null) return { kind: 'advance-clock', durationNs: parseUnsigned(ns) };
      return { kind: 'unsupported', name, reason: 'advance-clock --duration (ISO 8601) is not supported' };
    }
    case 'view-checkpoint':
      return { kind: 'view-checkpoint' };
    case 'gasless-allow-token': {
      const p = parseWords(name, words, { options: { 'min-transfer': 'one' }, positionals: ['type'] });
      const type = p.positionals.get('type');
      if (type === undefined) throw new AdapterError('PARSE_ERROR', 'gasless-allow-token: expected a type');
      const min = one(p, 'min-transfer');
      return { kind: 'gasless-allow-token', type, minTransfer: min === null ? 0n : parseUnsigned(min) };
    }
    case 'view-funds': {
      const p = parseWords(name, words, { options: {}, positionals: ['type', 'account'] });
      const type = p.positionals.get('type');
      const account = p.positionals.get('account');
      if (type === undefined || account === undefined) throw new AdapterError('PARSE_ERROR', 'view-funds: expected a type and an account');
      return { kind: 'view-funds', type, account };
    }
    default:
      return { kind: 'unsupported', name, reason: `the runner does not support the '${name}' task` };
  }
}

/**
 * Split a file into tasks and read each task's command: words that do not parse make an
 * `invalid` command, options the runner does not model an `unsupported` one.
 */
export function parseAdapterFile(text: string): AdapterTask[] {
  return parseTransactionalTestFile(text).map((task) => {
    try {
      return { task, command: parseCommand(task) };
    } catch (e) {
      if (!(e instanceof AdapterError)) throw e;
      if (e.code === 'UNSUPPORTED') return { task, command: { kind: 'unsupported', name: task.command, reason: e.message } };
      return { task, command: { kind: 'invalid', name: task.command, message: e.message } };
    }
  });
}
