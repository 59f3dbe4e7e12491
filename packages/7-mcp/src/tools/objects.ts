/**
 * The session's objects and settings: `read_object`, `list_objects`, `create_object` (an
 * object of any struct with key, its fields as JSON), `set_clock` and `get_state`.
 */
import { z } from 'zod';
import { sandboxData } from '../results.js';
import { address, moveValue, u64 } from '../schemas.js';
import { defineTool, type SmiTool } from '../tool.js';

export const readObject: SmiTool = defineTool({
  name: 'read_object',
  title: 'Read an object',
  description: 'One object of the session: type, owner, version, digest, BCS and its value decoded by its type (fields by name).',
  input: { object_id: address('Object id') },
  mutates: false,
  run: async (session, args) => sandboxData(await session.request({ action: 'inspect_object', object_id: args.object_id })),
});

export const listObjects: SmiTool = defineTool({
  name: 'list_objects',
  title: 'List objects',
  description: 'Every object of the session (system objects such as the Clock 0x6 included): id, type, owner, version.',
  input: { include_packages: z.boolean().default(false).describe('List package objects too') },
  mutates: false,
  run: async (session, args) => sandboxData(await session.request({ action: 'list_objects', include_packages: args.include_packages })),
});

export const createObject: SmiTool = defineTool({
  name: 'create_object',
  title: 'Create an object',
  description:
    'Put an object of any struct with key into the session, its fields given as JSON by name (the id is made for you), encoded with the ' +
    'struct\'s real layout: e.g. {"object_type": "0x2::coin::Coin<0x2::sui::SUI>", "fields": {"balance": "1000"}}. Owned by the sender unless owner says otherwise.',
  input: {
    object_type: z.string().min(1).describe('The object type, with its type arguments'),
    fields: z.record(z.string(), moveValue).default({}).describe('Field values by name (id left out)'),
    owner: z.string().min(1).optional().describe('"shared", "immutable", an address "0x…", or "object:0x…" (a child of that object); default: the sender'),
    object_id: address('Object id to use (default: a fresh one)').optional(),
  },
  mutates: true,
  run: async (session, args) =>
    sandboxData(
      await session.request({
        action: 'create_object',
        object_type: args.object_type,
        fields: args.fields,
        ...(args.owner === undefined ? {} : { owner: args.owner }),
        ...(args.object_id === undefined ? {} : { object_id: args.object_id }),
      }),
    ),
});

export const setClock: SmiTool = defineTool({
  name: 'set_clock',
  title: 'Set the clock',
  description: 'Set the time of the shared Clock 0x6 (milliseconds since 1970), as the chain does (through 0x2::clock::consensus_commit_prologue).',
  input: { timestamp_ms: u64('Time in milliseconds since 1970') },
  mutates: true,
  run: async (session, args) => sandboxData(await session.request({ action: 'set_clock', timestamp_ms: args.timestamp_ms })),
});

export const getState: SmiTool = defineTool({
  name: 'get_state',
  title: 'Get the session state',
  description: 'The session at a glance: loaded packages, object count, sender, clock, epoch, gas price and budget, checks, protocol version.',
  input: {},
  mutates: false,
  run: async (session) => sandboxData(await session.request({ action: 'get_state' })),
});
