/**
 * "VS Code language model": generation run by the extension host with `vscode.lm` (see
 * protocol/lm.ts). The worker side is a {@link ClientLm} (requests out, deltas in, by request id)
 * and a {@link Generator} over it; the model records it adds to the Models API are virtual: they
 * exist while a client that offers them is connected, and never enter the registry file.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, GenerateOptions, Generator } from '../core/interfaces';
import { unavailable, notFound } from '../core/errors';
import type { Model } from '../protocol/wire';
import {
  VSCODE_LM_MODEL_ID, VSCODE_LM_PREFIX, lmSelectorOf,
  type LmChatParams, type LmChatResult, type LmModelInfo, type LmSelector,
} from '../protocol/lm';
import type { ModelRecord } from './registry';
import { AsyncQueue } from './asyncQueue';

/** How the worker reaches its client: one request, cancelled by the signal (JSON-RPC `$/cancelRequest`). */
export type LmSend = (params: LmChatParams, signal: AbortSignal) => Promise<LmChatResult>;

/** Copilot's smallest window is far above this; a model that reports none is treated as this big. */
const DEFAULT_CONTEXT = 8192;
/** The vscode.lm API counts tokens only asynchronously per model; ~4 characters a token is close enough for packing. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** The client's side of the generation, as the worker sees it. */
export class ClientLm {
  private models: LmModelInfo[] = [];
  private readonly running = new Map<string, { queue: AsyncQueue<string>; deltas: number }>();

  /** Set by the Models API: the model list changed. */
  onModels?: () => void;

  constructor(private readonly send: LmSend) {}

  /** `askcode/lm/delta` from the client. */
  delta(p: { requestId?: unknown; text?: unknown } | null | undefined): void {
    if (!p || typeof p.requestId !== 'string' || typeof p.text !== 'string') return;
    const r = this.running.get(p.requestId);
    if (!r) return;
    r.deltas++;
    r.queue.push(p.text);
  }

  /** `askcode/lm/models` from the client. */
  setModels(p: { models?: unknown } | null | undefined): void {
    const list = Array.isArray(p?.models) ? p.models : [];
    this.models = list.filter((m): m is LmModelInfo =>
      !!m && typeof m === 'object' && typeof (m as LmModelInfo).id === 'string' && typeof (m as LmModelInfo).vendor === 'string'
      && typeof (m as LmModelInfo).family === 'string' && typeof (m as LmModelInfo).name === 'string');
    this.onModels?.();
  }

  available(): readonly LmModelInfo[] {
    return this.models;
  }

  /** The reported model a selector picks (the first one for `{}`), if the client told us about it. */
  match(sel: LmSelector): LmModelInfo | undefined {
    return this.models.find((m) => (!sel.id || m.id === sel.id) && (!sel.vendor || m.vendor === sel.vendor) && (!sel.family || m.family === sel.family));
  }

  /** Runs one request; yields the deltas, or the whole text once if the client sent none. */
  chat(selector: LmSelector, messages: ChatMessage[], opts: GenerateOptions): AsyncIterable<string> {
    const requestId = randomUUID();
    const queue = new AsyncQueue<string>();
    const state = { queue, deltas: 0 };
    this.running.set(requestId, state);
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const params: LmChatParams = { requestId, selector, messages: messages.map((m) => ({ role: m.role, content: m.content })), ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}) };
    this.send(params, ac.signal).then(
      (r) => {
        if (!state.deltas && r?.text) queue.push(r.text);
        queue.end();
      },
      (e) => {
        if (ac.signal.aborted) queue.end();
        else queue.fail(unavailable(`VS Code language model: ${(e as Error)?.message ?? String(e)}`));
      },
    );
    const running = this.running;
    return (async function* () {
      try {
        for await (const d of queue) {
          if (ac.signal.aborted) return;
          yield d;
        }
      } finally {
        running.delete(requestId);
        opts.signal?.removeEventListener('abort', onAbort);
        // A consumer that stops reading early (or the caller's abort) cancels the client's request.
        ac.abort();
      }
    })();
  }
}

export class VscodeLmGenerator implements Generator {
  constructor(
    readonly modelId: string,
    private readonly selector: LmSelector,
    private readonly lm: ClientLm,
    readonly contextTokens: number,
  ) {}

  async countTokens(text: string): Promise<number> {
    return estimateTokens(text);
  }

  generate(messages: ChatMessage[], opts: GenerateOptions = {}): AsyncIterable<string> {
    return this.lm.chat(this.selector, messages, opts);
  }
}

export function isVscodeLmId(id: string | undefined): boolean {
  return !!id && lmSelectorOf(id) !== undefined;
}

function record(id: string, name: string, description: string, maxInputTokens: number | undefined, created: string): ModelRecord {
  const model: Model = {
    id,
    version: 'vscode',
    created: { value: created },
    name,
    description,
    // Served by whatever VS Code's provider is: not on this machine as far as askcode knows.
    cloud: true,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    unique: id,
    provider: 'UNKNOWN',
    maxTokens: { total: maxInputTokens ?? null },
    custom: false,
    capabilities: { temporal: false, images: false, videos: false, documents: true, codebases: true, assets: true, websites: false },
  };
  return { model, origin: 'catalog' };
}

/** The virtual records: "VS Code language model" (any) and one per model the client reported. */
export function vscodeLmRecords(lm: ClientLm, created: string): ModelRecord[] {
  const first = lm.available()[0];
  const out = [record(VSCODE_LM_MODEL_ID, 'VS Code language model',
    `Answers with a language model VS Code offers (vscode.lm: your Copilot models or any installed provider)${first ? `; now ${first.name}` : ''}.`,
    first?.maxInputTokens, created)];
  const seen = new Set<string>();
  for (const m of lm.available()) {
    const id = `${VSCODE_LM_PREFIX}${m.vendor}:${m.family}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(record(id, `${m.name} (VS Code)`, `The VS Code language model ${m.name} from ${m.vendor} (family ${m.family}).`, m.maxInputTokens, created));
  }
  return out;
}

/** The record for any `vscode-lm…` id (a named model VS Code has not reported yet still resolves: it may come). */
export function vscodeLmRecord(lm: ClientLm, id: string, created: string): ModelRecord {
  return vscodeLmRecords(lm, created).find((r) => r.model.id === id)
    ?? record(id, `${id.slice(VSCODE_LM_PREFIX.length)} (VS Code)`, `The VS Code language model ${id.slice(VSCODE_LM_PREFIX.length)}, when VS Code offers it.`, undefined, created);
}

/** The generator for a `vscode-lm…` id; not_found for a named model the client does not offer. */
export function vscodeLmGenerator(lm: ClientLm, id: string): Generator {
  const selector = lmSelectorOf(id) ?? {};
  const reported = lm.match(selector);
  if (!reported && lm.available().length && Object.keys(selector).length) {
    throw notFound(`VS Code offers no language model ${id.slice(VSCODE_LM_PREFIX.length)} (it offers ${lm.available().map((m) => `${m.vendor}:${m.family}`).join(', ')})`, 'model');
  }
  return new VscodeLmGenerator(id, selector, lm, reported?.maxInputTokens ?? DEFAULT_CONTEXT);
}
