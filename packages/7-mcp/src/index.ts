/**
 * @smi/mcp: a Model Context Protocol server exposing the SMI sandbox to agents. One server
 * is one simulated chain; its tools list packages, modules, functions and structs, give the
 * bytecode interface, call functions, run PTBs, read objects, compile and publish Move, and
 * run Tier A/B type inhabitation on one function. `smi mcp` serves it over stdio.
 */
export { createSmiMcpServer, SMI_INSTRUCTIONS } from './server.js';
export type { SmiMcpServerOptions } from './server.js';
export type { SmiSessionOptions, LogLevel, PackageOrigin } from './session.js';
export { serveStdio, StdioInputError, MAX_MESSAGE_BYTES } from './stdio.js';
export type { StdioOptions, StdioEnd } from './stdio.js';
export { SMI_TOOLS } from './tools/index.js';
export type { SmiTool } from './tool.js';
export { SmiToolError, SMI_TOOL_ERROR_CODES } from './errors.js';
export type { SmiToolErrorCode } from './errors.js';
export type { Json, JsonObject } from './results.js';
