import { z } from 'zod';
import { request, notification } from './base';

/**
 * Answers by VS Code's own language models (`vscode.lm`: the user's Copilot models or any installed
 * provider). Only the extension host can reach them, and the worker never imports `vscode`, so the
 * worker asks its client to run the generation: `askcode/lm/chat` goes worker → client, the text
 * comes back as `askcode/lm/delta` notifications (client → worker) and the request's result; a
 * JSON-RPC `$/cancelRequest` stops it. The client says it offers this in `initialize`
 * (`initializationOptions.client.lm`); without it (CLI, `askcode serve`) the choice is not listed.
 */

/** The model id of "VS Code language model": the first model `vscode.lm.selectChatModels()` offers. */
export const VSCODE_LM_MODEL_ID = 'vscode-lm';
/**
 * `vscode-lm:<vendor>:<family>` names one VS Code model (a setting or a picker entry); a colon, not a
 * slash, because model ids travel in URL paths (`/model/{id}`) and are never path-like.
 */
export const VSCODE_LM_PREFIX = 'vscode-lm:';

/** What a client tells the worker in `initializationOptions.client`. */
export interface ClientCapabilities {
  /** The client runs `askcode/lm/chat` with VS Code's language models. */
  lm?: boolean;
}

export interface LmSelector {
  vendor?: string;
  family?: string;
  id?: string;
}

/** A VS Code chat model as the client reports it. */
export interface LmModelInfo {
  id: string;
  name: string;
  vendor: string;
  family: string;
  version?: string;
  maxInputTokens?: number;
}

export interface LmChatParams {
  /** Names the deltas of this request. */
  requestId: string;
  /** Which model; absent: the first one VS Code offers. */
  selector?: LmSelector;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  maxTokens?: number;
}

export interface LmChatResult {
  /** The whole text (the deltas joined), for clients that do not stream. */
  text: string;
  model: LmModelInfo;
}

const Selector = z.looseObject({ vendor: z.string().optional(), family: z.string().optional(), id: z.string().optional() });
const ModelInfo = z.looseObject({
  id: z.string(), name: z.string(), vendor: z.string(), family: z.string(),
  version: z.string().optional(), maxInputTokens: z.number().int().positive().optional(),
});
const ChatParams = z.looseObject({
  requestId: z.string().min(1, 'must be a non-empty string'),
  selector: Selector.optional(),
  messages: z.array(z.looseObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })).min(1, 'must hold at least one message'),
  maxTokens: z.number().int().positive().optional(),
});

/** worker → client: run one chat request with a VS Code language model. */
export const LmChat = request<LmChatParams, LmChatResult>('askcode/lm/chat', ChatParams, { field: 'messages', expected: 'an object with a requestId and messages' });
/** client → worker: a piece of the text of a running `askcode/lm/chat`, in order. */
export const LmDelta = notification<{ requestId: string; text: string }>('askcode/lm/delta',
  z.looseObject({ requestId: z.string(), text: z.string() }), { field: 'text', expected: 'an object with a requestId and a text' });
/** client → worker: the chat models VS Code offers now (at start and whenever they change). */
export const LmModelsChanged = notification<{ models: LmModelInfo[] }>('askcode/lm/models',
  z.looseObject({ models: z.array(ModelInfo) }), { field: 'models', expected: 'an object with a list of models' });

/** The selector a model id names: `vscode-lm` any, `vscode-lm:<vendor>:<family>` or `vscode-lm:<id>`. */
export function lmSelectorOf(modelId: string): LmSelector | undefined {
  if (modelId === VSCODE_LM_MODEL_ID) return {};
  if (!modelId.startsWith(VSCODE_LM_PREFIX)) return undefined;
  const rest = modelId.slice(VSCODE_LM_PREFIX.length);
  const colon = rest.indexOf(':');
  return colon > 0 ? { vendor: rest.slice(0, colon), family: rest.slice(colon + 1) } : { id: rest };
}
