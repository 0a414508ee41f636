import type { ChatMessage, GenerateOptions, Generator } from '../core/interfaces';
import { unavailable } from '../core/errors';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';
/** Without a tokenizer at hand, ~4 characters a token is the usual estimate for English and code. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Splits a byte stream into lines (NDJSON and SSE are both line-based). */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      yield buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
    }
  }
  buf += decoder.decode();
  if (buf) yield buf;
}

async function post(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal | undefined, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw unavailable(`${what} at ${new URL(url).origin} is not reachable (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw unavailable(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  if (!res.body) throw unavailable(`${what} sent no body`);
  return res;
}

/** Ends the iteration quietly when the caller aborts, as the Generator contract asks. */
async function* quietAbort(signal: AbortSignal | undefined, gen: AsyncGenerator<string>): AsyncGenerator<string> {
  try {
    yield* gen;
  } catch (e) {
    if (signal?.aborted) return;
    throw e;
  }
}

/** A model served by Ollama (`/api/chat`, NDJSON streaming). */
export class OllamaGenerator implements Generator {
  constructor(
    readonly modelId: string,
    private readonly name: string,
    private readonly baseUrl: string,
    readonly contextTokens: number,
  ) {}

  async countTokens(text: string): Promise<number> {
    return estimateTokens(text);
  }

  generate(messages: ChatMessage[], opts: GenerateOptions = {}): AsyncIterable<string> {
    const url = this.baseUrl.replace(/\/+$/, '') + '/api/chat';
    const body = {
      model: this.name,
      messages,
      stream: true,
      options: { num_predict: opts.maxTokens, temperature: opts.temperature ?? 0, num_ctx: this.contextTokens },
    };
    return quietAbort(opts.signal, (async function* () {
      const res = await post(url, body, {}, opts.signal, 'Ollama');
      for await (const line of lines(res.body!)) {
        if (!line.trim()) continue;
        const frame = JSON.parse(line) as { message?: { content?: string }; done?: boolean; error?: string };
        if (frame.error) throw unavailable(`Ollama: ${frame.error}`);
        if (frame.message?.content) yield frame.message.content;
        if (frame.done) return;
      }
    })());
  }
}

/** `<baseUrl>/chat/completions`; a bare origin gets the conventional `/v1` prefix. */
export function chatCompletionsUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  const p = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${p || '/v1'}/chat/completions`;
}

/** Any OpenAI-compatible endpoint (`/v1/chat/completions`, server-sent events). */
export class OpenAIGenerator implements Generator {
  constructor(
    readonly modelId: string,
    private readonly model: string,
    private readonly baseUrl: string,
    readonly contextTokens: number,
    private readonly apiKey: () => Promise<string | null>,
  ) {}

  async countTokens(text: string): Promise<number> {
    return estimateTokens(text);
  }

  generate(messages: ChatMessage[], opts: GenerateOptions = {}): AsyncIterable<string> {
    const url = chatCompletionsUrl(this.baseUrl);
    const body = { model: this.model, messages, stream: true, max_tokens: opts.maxTokens, temperature: opts.temperature ?? 0 };
    const apiKey = this.apiKey;
    return quietAbort(opts.signal, (async function* () {
      const key = await apiKey();
      const res = await post(url, body, key ? { authorization: `Bearer ${key}` } : {}, opts.signal, 'the OpenAI-compatible endpoint');
      for await (const line of lines(res.body!)) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        const frame = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[]; error?: { message?: string } };
        if (frame.error) throw unavailable(`endpoint error: ${frame.error.message ?? 'unknown'}`);
        const delta = frame.choices?.[0]?.delta?.content;
        if (delta) yield delta;
      }
    })());
  }
}
