/**
 * The extension's half of "VS Code language model" (server/src/protocol/lm.ts): the worker asks,
 * this runs the request with `vscode.lm` and streams the text back as `askcode/lm/delta`. It also
 * tells the worker which chat models VS Code offers, so the model picker can list them.
 */
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import {
  LmChat, LmDelta, LmModelsChanged, RPC_ERROR_CODES,
  type LmChatParams, type LmChatResult, type LmModelInfo, type LmSelector,
} from '../../../server/src/protocol';
import { messageOf, type Worker } from '../worker';

export function modelInfo(m: vscode.LanguageModelChat): LmModelInfo {
  return { id: m.id, name: m.name, vendor: m.vendor, family: m.family, version: m.version, maxInputTokens: m.maxInputTokens };
}

function selectorOf(s: LmSelector | undefined): vscode.LanguageModelChatSelector {
  const out: vscode.LanguageModelChatSelector = {};
  if (s?.vendor) out.vendor = s.vendor;
  if (s?.family) out.family = s.family;
  if (s?.id) out.id = s.id;
  return out;
}

/**
 * vscode.lm has only User and Assistant messages (1.101): the system prompt goes first as a user
 * message, which is what VS Code's own samples do.
 */
function toLmMessages(messages: LmChatParams['messages']): vscode.LanguageModelChatMessage[] {
  return messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content)));
}

async function runChat(worker: Worker, p: LmChatParams, token: vscode.CancellationToken): Promise<LmChatResult> {
  if (!p || typeof p.requestId !== 'string' || !Array.isArray(p.messages)) {
    throw new ResponseError(RPC_ERROR_CODES.invalid, 'askcode/lm/chat needs {requestId, messages}', { kind: 'invalid' });
  }
  const models = await vscode.lm.selectChatModels(selectorOf(p.selector));
  const model = models[0];
  if (!model) {
    const what = p.selector && Object.keys(p.selector).length ? ` matching ${JSON.stringify(p.selector)}` : '';
    throw new ResponseError(RPC_ERROR_CODES.unavailable, `VS Code offers no language model${what}: install or sign in to a model provider (for example GitHub Copilot), or pick another model in askcode.`, { kind: 'unavailable' });
  }
  let text = '';
  try {
    const res = await model.sendRequest(toLmMessages(p.messages), {
      justification: 'askcode answers your questions about this workspace with the code it finds.',
      ...(p.maxTokens ? { modelOptions: { max_tokens: p.maxTokens } } : {}),
    }, token);
    for await (const chunk of res.text) {
      if (token.isCancellationRequested) break;
      if (!chunk) continue;
      text += chunk;
      // Awaited, so every delta is on the wire before the response that ends the request.
      await worker.notifyNow(LmDelta, { requestId: p.requestId, text: chunk });
    }
  } catch (e) {
    if (token.isCancellationRequested) return { text, model: modelInfo(model) };
    const code = e instanceof vscode.LanguageModelError ? ` (${e.code})` : '';
    throw new ResponseError(RPC_ERROR_CODES.unavailable, `${model.name}${code}: ${messageOf(e)}`, { kind: 'unavailable' });
  }
  return { text, model: modelInfo(model) };
}

export function registerLmHandler(worker: Worker): vscode.Disposable {
  worker.onRequest(LmChat, (p, token) => runChat(worker, p, token));
  const report = async () => {
    try {
      const models = await vscode.lm.selectChatModels();
      worker.notify(LmModelsChanged, { models: models.map(modelInfo) });
    } catch (e) {
      worker.output.warn(`listing VS Code language models: ${messageOf(e)}`);
    }
  };
  return vscode.Disposable.from(
    worker.onStarted(() => void report()),
    vscode.lm.onDidChangeChatModels(() => void report()),
  );
}
