/** Model management from the palette: list, create custom, delete, delete cache, unload, download. */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import {
  ModelsSnapshot, ModelsCreate, ModelsDelete, ModelsDeleteCache, ModelsUnload, ModelLoad, ModelUnload,
  ModelDownload, ModelDownloadCancel, ModelDownloadProgressNotification,
  type Model, type CreateModelParams, type ModelSource, type ModelDownloadProgress,
} from '../../server/src/protocol';
import type { Worker } from './worker';

/** The built-in answerer without weights: nothing to download, delete or unload. */
function isExtractive(m: Model): boolean {
  return /extractive/i.test(`${m.id} ${m.name} ${m.unique ?? ''}`);
}

/** A downloadable local LLM: the only kind whose cache can be deleted. */
function isDownloadableLlm(m: Model): boolean {
  return m.usage === 'CODE_CONVERSATION' && !m.custom && !m.cloud && !isExtractive(m);
}

function describe(m: Model): string {
  const parts: string[] = [m.usage === 'TEXT_EMBEDDING' ? 'embeddings' : m.usage === 'CODE_CONVERSATION' ? 'answers' : m.usage.toLowerCase()];
  if (isExtractive(m)) parts.push('no weights');
  else if (m.cloud) parts.push('remote');
  else parts.push(m.downloaded ? 'downloaded' : 'not downloaded');
  if (m.loaded) parts.push('loaded');
  if (m.custom) parts.push('custom');
  if (m.bytes?.readable) parts.push(m.bytes.readable);
  return parts.join(' · ');
}

interface ModelItem extends vscode.QuickPickItem {
  model?: Model;
  /** Why this model cannot be chosen for the action, shown if it is picked anyway. */
  refusal?: string;
}

async function snapshot(worker: Worker): Promise<Model[]> {
  return (await worker.request(ModelsSnapshot, undefined)).iterable;
}

/** A pick where models that do not qualify are listed apart with the reason, not hidden. */
async function pickModel(models: Model[], title: string, refuse: (m: Model) => string | undefined): Promise<Model | undefined> {
  const ok: ModelItem[] = [];
  const no: ModelItem[] = [];
  for (const m of models) {
    const refusal = refuse(m);
    const item: ModelItem = { label: m.name, description: describe(m), detail: refusal, model: m, refusal };
    (refusal ? no : ok).push(item);
  }
  const items: ModelItem[] = [...ok];
  if (no.length) items.push({ label: 'Not available for this action', kind: vscode.QuickPickItemKind.Separator }, ...no);
  if (!ok.length) items.unshift({ label: '$(info) No model qualifies', description: 'see below why' });
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'Pick a model', matchOnDescription: true });
  if (!pick?.model) return undefined;
  if (pick.refusal) {
    void vscode.window.showWarningMessage(`${pick.model.name}: ${pick.refusal}`);
    return undefined;
  }
  return pick.model;
}

export async function listModels(worker: Worker): Promise<void> {
  const models = await snapshot(worker);
  const pick = await vscode.window.showQuickPick(
    models.map((m): ModelItem => ({ label: m.name, description: describe(m), detail: m.description, model: m })),
    { title: `askcode models (${models.length})`, placeHolder: 'Pick a model for its actions', matchOnDescription: true, matchOnDetail: true },
  );
  const m = pick?.model;
  if (!m) return;
  const actions: { label: string; run: () => Promise<unknown> }[] = [];
  if (!isExtractive(m) && m.downloaded === false && !m.cloud && !m.custom) actions.push({ label: '$(cloud-download) Download', run: () => downloadModel(worker, m) });
  if (!isExtractive(m) && !m.loaded && (m.downloaded !== false || m.custom || m.cloud)) actions.push({ label: '$(play) Load', run: () => worker.request(ModelLoad, { model: m.id }) });
  if (m.loaded && !isExtractive(m)) actions.push({ label: '$(debug-stop) Unload', run: () => worker.request(ModelUnload, { model: m.id }) });
  if (isDownloadableLlm(m) && m.downloaded) actions.push({ label: '$(trash) Delete cache', run: () => deleteModelCache(worker, m) });
  if (m.custom) actions.push({ label: '$(trash) Delete model', run: () => deleteModel(worker, m) });
  actions.push({ label: '$(copy) Copy id', run: () => Promise.resolve(vscode.env.clipboard.writeText(m.id)) });
  const act = await vscode.window.showQuickPick(actions, { title: m.name, placeHolder: describe(m) });
  if (act) await act.run();
}

export async function deleteModel(worker: Worker, given?: Model): Promise<void> {
  const m = given ?? (await pickModel(await snapshot(worker), 'askcode: Delete Model', (x) => (x.custom ? undefined : 'built-in models cannot be deleted; only custom models can')));
  if (!m) return;
  const ok = await vscode.window.showWarningMessage(`Delete the custom model "${m.name}"?`, { modal: true }, 'Delete');
  if (ok !== 'Delete') return;
  await worker.request(ModelsDelete, { model: m.id });
  void vscode.window.showInformationMessage(`Deleted the model "${m.name}".`);
}

export async function deleteModelCache(worker: Worker, given?: Model): Promise<void> {
  const m = given ?? (await pickModel(await snapshot(worker), 'askcode: Delete Model Cache', (x) => {
    if (!isDownloadableLlm(x)) return x.usage === 'CODE_CONVERSATION' ? 'no downloaded weights to delete (built-in answerer, remote or custom model)' : 'only language models have a cache to delete';
    return x.downloaded ? undefined : 'not downloaded';
  }));
  if (!m) return;
  const size = m.bytes?.readable ? ` (${m.bytes.readable})` : '';
  const ok = await vscode.window.showWarningMessage(`Delete the downloaded files of "${m.name}"${size}? You can download it again later.`, { modal: true }, 'Delete Cache');
  if (ok !== 'Delete Cache') return;
  await worker.request(ModelsDeleteCache, { model: m.id, input: {} });
  void vscode.window.showInformationMessage(`Deleted the cache of "${m.name}".`);
}

export async function unloadModels(worker: Worker): Promise<void> {
  await worker.request(ModelsUnload, undefined);
  void vscode.window.showInformationMessage('askcode: every model was unloaded.');
}

export async function downloadModel(worker: Worker, given?: Model): Promise<void> {
  const m = given ?? (await pickModel(await snapshot(worker), 'askcode: Download Model', (x) => {
    if (isExtractive(x)) return 'needs no download';
    if (x.cloud || x.custom) return 'a remote or custom model: nothing to download';
    return x.downloaded ? 'already downloaded' : undefined;
  }));
  if (!m) return;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Downloading ${m.name}`, cancellable: true },
    async (progress, token) => {
      let last = 0;
      const sub = worker.onNotification(({ method, params }) => {
        if (method !== ModelDownloadProgressNotification.method) return;
        const p = params as { model: string; progress: ModelDownloadProgress };
        if (p.model !== m.id || typeof p.progress.percentage !== 'number') return;
        const pct = Math.max(last, Math.min(100, p.progress.percentage));
        progress.report({ increment: pct - last, message: `${Math.round(pct)}%` });
        last = pct;
      });
      const cancel = token.onCancellationRequested(() => void worker.request(ModelDownloadCancel, { model: m.id }).catch(() => {}));
      try {
        await worker.request(ModelDownload, { model: m.id });
      } finally {
        sub.dispose();
        cancel.dispose();
      }
      if (!token.isCancellationRequested) void vscode.window.showInformationMessage(`${m.name} is downloaded.`);
    },
  );
}

type SourceKind = 'local' | 'ollama' | 'openai';

/** Multi-step quick input: a local model folder, an Ollama model, or an OpenAI-compatible endpoint. */
export async function createCustomModel(worker: Worker, secrets: vscode.SecretStorage): Promise<void> {
  const title = 'askcode: Create Custom Model';
  const kind = await vscode.window.showQuickPick<vscode.QuickPickItem & { source: SourceKind }>([
    { source: 'local', label: '$(folder) Local model folder', detail: 'An ONNX model folder on this machine (transformers.js layout)' },
    { source: 'ollama', label: '$(server) Ollama model', detail: 'A model served by a local Ollama' },
    { source: 'openai', label: '$(globe) OpenAI-compatible endpoint', detail: 'llama.cpp server, LM Studio, vLLM or a hosted API; the key stays in VS Code\'s secret storage' },
  ], { title: `${title} (1/3)`, placeHolder: 'Where does the model run?' });
  if (!kind) return;

  let source: ModelSource;
  let unique: string;
  let suggested: string;
  let cloud = false;
  if (kind.source === 'local') {
    const folder = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, title: 'Model folder', openLabel: 'Use this folder' });
    const p = folder?.[0]?.fsPath;
    if (!p) return;
    source = { kind: 'local', path: p };
    unique = p;
    suggested = path.basename(p);
  } else if (kind.source === 'ollama') {
    const name = await input(`${title} (2/3)`, 'Ollama model name', 'e.g. qwen2.5-coder:1.5b', '', (v) => (v.trim() ? undefined : 'A model name is required'));
    if (name === undefined) return;
    const baseUrl = await input(`${title} (3/3)`, 'Ollama base URL (empty for the default on this machine)', 'http://127.0.0.1:11434', '', validUrlOrEmpty);
    if (baseUrl === undefined) return;
    source = { kind: 'ollama', name: name.trim(), baseUrl: baseUrl.trim() || undefined };
    unique = `ollama:${name.trim()}${baseUrl.trim() ? `@${baseUrl.trim()}` : ''}`;
    suggested = name.trim();
  } else {
    const baseUrl = await input(`${title} (2/4)`, 'Base URL of the OpenAI-compatible API', 'http://127.0.0.1:8080/v1', '', (v) => validUrlOrEmpty(v) ?? (v.trim() ? undefined : 'A URL is required'));
    if (baseUrl === undefined) return;
    const model = await input(`${title} (3/4)`, 'Model name at that endpoint', 'e.g. qwen2.5-coder-7b-instruct', '', (v) => (v.trim() ? undefined : 'A model name is required'));
    if (model === undefined) return;
    const key = await vscode.window.showInputBox({ title: `${title} (4/4)`, prompt: 'API key (empty if the endpoint needs none). Kept in VS Code\'s secret storage, never in a file.', password: true, ignoreFocusOut: true });
    if (key === undefined) return;
    let apiKeySecret: string | undefined;
    if (key) {
      apiKeySecret = `askcode.apiKey.${randomUUID()}`;
      await secrets.store(apiKeySecret, key);
    }
    source = { kind: 'openai', model: model.trim(), baseUrl: baseUrl.trim(), apiKeySecret };
    unique = `openai:${model.trim()}@${baseUrl.trim()}`;
    suggested = model.trim();
    cloud = !/^https?:\/\/(localhost|127\.|\[::1\])/i.test(baseUrl.trim());
  }
  const name = await input(title, 'A name for the model', suggested, suggested, (v) => (v.trim() ? undefined : 'A name is required'));
  if (name === undefined) return;

  const params: CreateModelParams = {
    version: '1.0.0',
    created: { value: new Date().toISOString() },
    name: name.trim(),
    cloud,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    custom: true,
    unique,
    cpu: kind.source === 'local',
    askcode: { source },
  };
  try {
    const created = await worker.request(ModelsCreate, params);
    const pick = await vscode.window.showInformationMessage(`Created the model "${created.name}".`, 'Use as Default');
    if (pick === 'Use as Default') await vscode.workspace.getConfiguration('askcode').update('defaultModel', created.id, vscode.ConfigurationTarget.Global);
  } catch (e) {
    // A refused create must not leave an orphaned key behind.
    if (source.kind === 'openai' && source.apiKeySecret) await secrets.delete(source.apiKeySecret);
    throw e;
  }
}

function input(title: string, prompt: string, placeHolder: string, value: string, validateInput: (v: string) => string | undefined): Thenable<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, placeHolder, value, validateInput, ignoreFocusOut: true });
}

function validUrlOrEmpty(v: string): string | undefined {
  if (!v.trim()) return undefined;
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'Use an http(s) URL';
  } catch {
    return 'Not a URL';
  }
}
