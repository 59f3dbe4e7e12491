/**
 * Finding one's way in the loaded bytecode: `find_constructors` (public functions that
 * return a type), `search_functions`, `search_types` (glob patterns over every loaded
 * module) and `disassemble_function` (what a function does, abort codes included).
 */
import { z } from 'zod';
import { sandboxData } from '../results.js';
import { modulePathArg } from '../schemas.js';
import { defineTool, type SmiTool } from '../tool.js';

export const findConstructors: SmiTool = defineTool({
  name: 'find_constructors',
  title: 'Find constructors',
  description:
    'Public or entry functions of any loaded package that return the given type, those of its own module first, fewest parameters first: ' + 'how to get a value of a type you need as an argument.',
  input: { type_path: z.string().min(1).describe('The type, "0xpackage::module::Name" (type arguments are ignored)') },
  mutates: false,
  run: async (session, args) => sandboxData(await session.request({ action: 'find_constructors', type_path: args.type_path })),
});

export const searchFunctions: SmiTool = defineTool({
  name: 'search_functions',
  title: 'Search functions',
  description: 'Functions of every loaded package whose name matches a glob pattern ("*" any text), tried against "0x…::module::name", "module::name" and "name".',
  input: {
    pattern: z.string().min(1).describe('Glob pattern, case-insensitive, e.g. "*::coin::*split*" or "new*"'),
    entry_only: z.boolean().default(false).describe('Only entry functions'),
  },
  mutates: false,
  run: async (session, args) => sandboxData(await session.request({ action: 'search_functions', pattern: args.pattern, entry_only: args.entry_only })),
});

export const searchTypes: SmiTool = defineTool({
  name: 'search_types',
  title: 'Search types',
  description: 'Structs and enums of every loaded package whose name matches a glob pattern, optionally only those with some abilities (key: object types).',
  input: {
    pattern: z.string().min(1).describe('Glob pattern, case-insensitive, e.g. "*Cap" or "0x2::coin::*"'),
    ability_filter: z
      .array(z.enum(['copy', 'drop', 'store', 'key']))
      .optional()
      .describe('Abilities every match must have'),
  },
  mutates: false,
  run: async (session, args) =>
    sandboxData(await session.request({ action: 'search_types', pattern: args.pattern, ...(args.ability_filter === undefined ? {} : { ability_filter: args.ability_filter }) })),
});

export const disassembleFunction: SmiTool = defineTool({
  name: 'disassemble_function',
  title: 'Disassemble a function',
  description: 'The bytecode of one function, disassembled as `sui move disassemble` prints it: what it checks (and with which abort codes), calls and returns.',
  input: { module_path: modulePathArg, function_name: z.string().min(1).describe('Function name') },
  mutates: false,
  run: async (session, args) => sandboxData(await session.request({ action: 'disassemble_function', module_path: session.modulePath(args.module_path), function_name: args.function_name })),
});
