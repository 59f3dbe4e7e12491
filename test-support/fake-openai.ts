/**
 * A fake OpenAI-compatible server on 127.0.0.1 (node:http, port 0) for tests of model
 * code: each `POST /v1/chat/completions` is answered by a script (a function of the
 * request), which can return a normal answer, an HTTP error with headers
 * (`Retry-After`), a raw body (malformed JSON), a delay or a hang. `GET /v1/models`
 * lists one model. Every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the server received it. */
export interface FakeRequest {
  index: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type: string };
    max_tokens?: number;
    temperature?: number;
    [key: string]: unknown;
  };
}

/** How the server answers one request. */
export interface FakeReply {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** The assistant's text (a normal completion). */
  content?: string | null;
  finishReason?: string;
  /** Token counts (default: estimated from the text); `null`: the answer has no `usage`, as some servers send. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens?: number; prompt_tokens_details?: { cached_tokens: number } } | null;
  /** A raw body instead of a completion (malformed JSON, an error object). */
  raw?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the client gives up or the server closes). */
  hang?: boolean;
  /** Function calls in the answer (`message.tool_calls`), arguments as JSON text. */
  toolCalls?: { name: string; arguments: string }[];
}

/** A running fake server. */
export interface FakeServer {
  /** Base URL with `/v1`. */
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** The last user message of a request (the prompt). */
export function promptOf(req: FakeRequest): string {
  const msgs = req.body.messages ?? [];
  return msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

/** Start a server answering with `script`. */
export async function startFakeOpenAi(script: (req: FakeRequest) => FakeReply | Promise<FakeReply>): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (d: Buffer) => (data += d.toString()));
    req.on('end', () => {
      void (async () => {
        const url = req.url ?? '';
        if (req.method === 'GET' && url.endsWith('/models')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }));
          return;
        }
        if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url}` } }));
          return;
        }
        let body: FakeRequest['body'] = {};
        try {
          body = JSON.parse(data) as FakeRequest['body'];
        } catch {
          // Recorded as empty.
        }
        const request: FakeRequest = { index: requests.length, path: url, headers: req.headers, body };
        requests.push(request);
        const reply = await script(request);
        if (reply.hang) {
          open.add(res);
          res.on('close', () => open.delete(res));
          return;
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const status = reply.status ?? 200;
        const headers = { 'content-type': 'application/json', 'x-request-id': `req_${request.index}`, ...(reply.headers ?? {}) };
        res.writeHead(status, headers);
        if (reply.raw !== undefined) {
          res.end(reply.raw);
          return;
        }
        if (status !== 200) {
          res.end(JSON.stringify({ error: { message: reply.content ?? `error ${status}`, type: 'fake_error' } }));
          return;
        }
        const content = reply.content === undefined ? '{"key_types": []}' : reply.content;
        const usage = reply.usage === null ? null : (reply.usage ?? { prompt_tokens: Math.ceil(promptOf(request).length / 4), completion_tokens: Math.ceil((content ?? '').length / 4) });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${request.index}`,
            object: 'chat.completion',
            created: 1700000000,
            model: body.model ?? 'fake-model',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content,
                  ...(reply.toolCalls ? { tool_calls: reply.toolCalls.map((t, i) => ({ id: `call_${request.index}_${i}`, type: 'function', function: t })) } : {}),
                },
                finish_reason: reply.finishReason ?? (reply.toolCalls ? 'tool_calls' : 'stop'),
              },
            ],
            ...(usage === null ? {} : { usage: { total_tokens: usage.prompt_tokens + usage.completion_tokens, ...usage } }),
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A model that reasons as a careful reader would: a struct whose first field is
 * `id: UID` has `key` (true of every Sui object). Its answer to a Phase I prompt, as a
 * JSON text.
 */
export function uidHeuristicAnswer(prompt: string): string {
  const payload = JSON.parse(prompt.slice(prompt.indexOf('{'))) as {
    modules: Record<string, { address: string; structs: Record<string, { fields: { name: string; type: { kind: string; name?: string } }[] }> }>;
  };
  const out: string[] = [];
  for (const [m, mod] of Object.entries(payload.modules)) {
    for (const [s, st] of Object.entries(mod.structs)) {
      const f = st.fields[0];
      if (f !== undefined && f.name === 'id' && f.type.kind === 'datatype' && f.type.name === 'UID') out.push(`${mod.address}::${m}::${s}`);
    }
  }
  return JSON.stringify({ key_types: out });
}

/** The package id a Phase I prompt is about. */
export function promptPackage(prompt: string): string {
  return /"package_id": "([^"]+)"/.exec(prompt)?.[1] ?? '';
}
