/**
 * Serving a server over standard input and output (the SDK's `StdioServerTransport`: one
 * JSON-RPC message per line), until the client closes its end: every request read before
 * the end is answered first, then the server closes. An aborted `signal` (Ctrl-C) closes
 * it at once. Nothing but protocol messages is written to `stdout`.
 */
import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable;
  /** Where answers go (default `process.stdout`). */
  stdout?: Writable;
  /** Stop serving when aborted. */
  signal?: AbortSignal;
  /** Longest message accepted, in bytes (default {@link MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
}

/**
 * Default cap of one JSON-RPC message (one line): 8 MiB, below the SDK's 10 MiB read buffer
 * (which otherwise fails on its own and leaves the session hanging).
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Input that is not a stream of messages the server can read (`MESSAGE_TOO_LARGE`). */
export class StdioInputError extends SmiError<'MESSAGE_TOO_LARGE'> {
  override readonly name = 'StdioInputError';

  constructor(message: string, options?: SmiErrorOptions) {
    super('MESSAGE_TOO_LARGE', message, options);
  }
}

/** Passes its input on, failing once a line grows past `max` bytes (input without newlines is not buffered without bound). */
class LineLimit extends Transform {
  private run = 0;
  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let start = 0; ; ) {
      const nl = chunk.indexOf(0x0a, start);
      this.run += (nl < 0 ? chunk.length : nl) - start;
      if (this.run > this.max) {
        done(new StdioInputError(`a message on standard input is longer than ${this.max} bytes (messages are one JSON-RPC object per line)`));
        return;
      }
      if (nl < 0) break;
      this.run = 0;
      start = nl + 1;
    }
    done(null, chunk);
  }
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

/**
 * The stdio transport, knowing which requests it has not answered yet. The SDK's transport
 * is loaded when a server is served (see `server.ts` for why not at import).
 */
async function trackingTransport(stdin: Readable, stdout: Writable) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
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
  return new TrackingTransport(stdin, stdout);
}

/**
 * Serve `server` over stdio until the input ends (or `signal` aborts); then close it.
 * @throws {StdioInputError} after closing, when a message is longer than `maxMessageBytes`.
 */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<StdioEnd> {
  const source = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stdin = new LineLimit(options.maxMessageBytes ?? MAX_MESSAGE_BYTES);
  const transport = await trackingTransport(stdin, stdout);
  let inputError: StdioInputError | undefined;
  stdin.once('error', (e) => {
    if (e instanceof StdioInputError) inputError = e;
    source.unpipe(stdin);
    source.pause();
  });
  source.once('error', (e) => stdin.destroy(e));
  source.pipe(stdin);
  await server.connect(transport);
  // A line that is not JSON, or not a JSON-RPC message, is answered as JSON-RPC says (a parse
  // error, an invalid request; `id` null, since none could be read), not left unanswered.
  const reportError = transport.onerror;
  transport.onerror = (e: Error) => {
    const notJson = e instanceof SyntaxError;
    const notRpc = !notJson && (e.name === 'ZodError' || 'issues' in e);
    if (notJson || notRpc) {
      const error = notJson ? { code: -32700, message: `Parse error: ${e.message}` } : { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
      void transport.send({ jsonrpc: '2.0', id: null, error } as unknown as JSONRPCMessage).catch(() => undefined);
    }
    reportError?.(e);
  };
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
  if (inputError !== undefined) throw inputError;
  return ended;
}
