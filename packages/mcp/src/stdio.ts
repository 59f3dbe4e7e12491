/**
 * Serving a server over standard input and output (the SDK's `StdioServerTransport`: one
 * JSON-RPC message per line), until the client closes its end: every request read before
 * the end is answered first, then the server closes. An aborted `signal` (Ctrl-C) closes
 * it at once. Nothing but protocol messages is written to `stdout`.
 */
import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable;
  /** Where answers go (default `process.stdout`). */
  stdout?: Writable;
  /** Stop serving when aborted. */
  signal?: AbortSignal;
}

/** How serving ended: the client closed its end of stdin, or `signal` was aborted. */
export type StdioEnd = 'end' | 'aborted';

type MessageId = string | number;

function requestId(m: JSONRPCMessage): MessageId | undefined {
  return 'method' in m && 'id' in m ? m.id : undefined;
}

function responseId(m: JSONRPCMessage): MessageId | undefined {
  return !('method' in m) && 'id' in m ? (m.id ?? undefined) : undefined;
}

/** The stdio transport, knowing which requests it has not answered yet. */
class TrackingTransport extends StdioServerTransport {
  private readonly open = new Set<MessageId>();
  private waiting: (() => void)[] = [];

  /** Note a request read (called before the server sees it). */
  received(m: JSONRPCMessage): void {
    const id = requestId(m);
    if (id !== undefined) this.open.add(id);
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    await super.send(message);
    const id = responseId(message);
    if (id !== undefined && this.open.delete(id) && this.open.size === 0) {
      const waiting = this.waiting;
      this.waiting = [];
      for (const w of waiting) w();
    }
  }

  /** Resolves once every request read so far is answered. */
  idle(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** Serve `server` over stdio until the input ends (or `signal` aborts); then close it. */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<StdioEnd> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const transport = new TrackingTransport(stdin, stdout);
  await server.connect(transport);
  // Requests are noted before the server handles them, so that the end of input waits for them.
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    transport.received(message);
    deliver?.(message);
  };
  const ended = await new Promise<StdioEnd>((resolve) => {
    if (options.signal?.aborted) {
      resolve('aborted');
      return;
    }
    const onEnd = (): void => resolve('end');
    stdin.once('end', onEnd);
    stdin.once('close', onEnd);
    stdin.once('error', onEnd);
    options.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  if (ended === 'end') {
    // Answer what was asked before the end (unless stopped meanwhile).
    await Promise.race([
      transport.idle(),
      new Promise<void>((resolve) => {
        if (options.signal?.aborted) resolve();
        options.signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
    ]);
  }
  await server.close();
  return ended;
}
