/** Every tool of the server, in the order `tools/list` gives them. */
import type { SmiTool } from '../tool.js';
import { compileAndPublish } from './compile.js';
import { callFunction, executePtb } from './execution.js';
import { runInhabit } from './inhabit.js';
import { createObject, getState, listObjects, readObject, setClock } from './objects.js';
import { getInterface, listFunctions, listModules, listPackages, listStructs } from './packages.js';
import { sandboxRequest } from './sandbox.js';
import { disassembleFunction, findConstructors, searchFunctions, searchTypes } from './search.js';

export const SMI_TOOLS: readonly SmiTool[] = [
  listPackages,
  listModules,
  listFunctions,
  listStructs,
  getInterface,
  findConstructors,
  searchFunctions,
  searchTypes,
  disassembleFunction,
  callFunction,
  executePtb,
  readObject,
  listObjects,
  createObject,
  setClock,
  getState,
  compileAndPublish,
  runInhabit,
  sandboxRequest,
];
