/**
 * An MCP client for the tests (this package's and the CLI's: the SDK is a dependency of
 * this package only, so the CLI's tests reach it through here): the SDK's `Client`, its
 * transports, and calls that give a tool's JSON back.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'vitest';

export { Client, InMemoryTransport, StdioClientTransport };

/** A value of a tool's JSON. */
export type Obj = Record<string, unknown>;

/** A client connected in-process to `server`. */
export async function connectInProcess(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'smi-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A tool call's outcome: its JSON (parsed from the text content) and whether it is an error. */
export async function call(client: Client, name: string, args: Obj = {}): Promise<{ json: Obj; isError: boolean; structured: unknown }> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text?: string }[];
  expect(content).toHaveLength(1);
  expect(content[0].type).toBe('text');
  const json = JSON.parse(content[0].text ?? '') as Obj;
  return { json, isError: r.isError === true, structured: r.structuredContent };
}

/** The JSON of a call that must succeed (its structured content is the same JSON). */
export async function ok(client: Client, name: string, args: Obj = {}): Promise<Obj> {
  const r = await call(client, name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.json)}`).toBe(false);
  expect(r.structured).toEqual(r.json);
  return r.json;
}

/** The error of a call that must fail: `{error_code, message}` and nothing of a stack. */
export async function fails(client: Client, name: string, args: Obj, code: string): Promise<Obj> {
  const r = await call(client, name, args);
  expect(r.isError, `${name} should fail: ${JSON.stringify(r.json)}`).toBe(true);
  expect(r.json.error_code, String(r.json.message)).toBe(code);
  expect(typeof r.json.message).toBe('string');
  expect(String(r.json.message)).not.toMatch(/\n\s+at /);
  return r.json;
}
