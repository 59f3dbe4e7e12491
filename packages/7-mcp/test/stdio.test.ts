/**
 * `serveStdio` over in-memory streams: one JSON-RPC message per line, every request read
 * before the end answered, and input that never ends a line refused once it passes the
 * message cap instead of being buffered without bound.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serveStdio, StdioInputError } from '@smi/mcp';

function pipes(): { stdin: PassThrough; stdout: PassThrough; lines: () => unknown[] } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (b: Buffer) => (text += b.toString('utf8')));
  return {
    stdin,
    stdout,
    lines: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown),
  };
}

const server = (): McpServer => new McpServer({ name: 'test', version: '0.0.0' });
const PING = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;

describe('serveStdio', () => {
  it('answers the requests read before the input ends, then ends', async () => {
    const io = pipes();
    const served = serveStdio(server(), { stdin: io.stdin, stdout: io.stdout, maxMessageBytes: 1000 });
    io.stdin.end(PING);
    await expect(served).resolves.toBe('end');
    expect(io.lines()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('refuses a line longer than the cap (input without newlines is not buffered without bound)', async () => {
    const io = pipes();
    const served = serveStdio(server(), { stdin: io.stdin, stdout: io.stdout, maxMessageBytes: 1000 });
    io.stdin.write(PING);
    // Chunks of 300 bytes, none with a newline: the fourth passes the cap.
    for (let i = 0; i < 10; i++) io.stdin.write('x'.repeat(300));
    const error = await served.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StdioInputError);
    expect((error as StdioInputError).code).toBe('MESSAGE_TOO_LARGE');
    expect((error as Error).message).toMatch(/longer than 1000 bytes/);
    // What came before the long line was answered.
    expect(io.lines()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('counts a line across chunks, and a newline resets the count', async () => {
    const io = pipes();
    const served = serveStdio(server(), { stdin: io.stdin, stdout: io.stdout, maxMessageBytes: 100 });
    // Each message is split over several chunks; every line fits.
    for (let id = 1; id <= 3; id++) {
      const line = `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
      for (let k = 0; k < line.length; k += 7) io.stdin.write(line.slice(k, k + 7));
    }
    io.stdin.end();
    await expect(served).resolves.toBe('end');
    expect(io.lines().map((l) => (l as { id: number }).id)).toEqual([1, 2, 3]);
  });
});
