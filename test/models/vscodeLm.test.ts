/**
 * "VS Code language model" on the worker's side: the real worker over its real transport, and the
 * test playing the extension (a JSON-RPC client that answers `askcode/lm/chat` as the extension
 * does with vscode.lm, here with REAL stories260K generation, streamed as `askcode/lm/delta`).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { startWorker, rpcError, SHARED_MODELS, type WorkerHandle } from '../helpers/worker';
import { ModelsSnapshot, ModelGet } from '../../server/src/protocol/models';
import { QgptQuestion } from '../../server/src/protocol/qgpt';
import { QgptStream, QgptStreamOutputNotification } from '../../server/src/protocol/stream';
import type { QGPTStreamOutput } from '../../server/src/protocol/wire';
import { LmChat, LmDelta, LmModelsChanged, VSCODE_LM_MODEL_ID, type LmChatParams, type LmChatResult } from '../../server/src/protocol/lm';
import { waitFor } from '../helpers/wait';

const until = (ok: () => boolean | Promise<boolean>, what: string, ms?: number) => waitFor(async () => ((await ok()) ? true : undefined), what, ms, 20);
import { tempDir } from './fixtures';

type Pipeline = ((prompt: string, opts: Record<string, unknown>) => Promise<unknown>) & { tokenizer: never };

const STORIES = { id: 'test-stories', name: 'Stories 260K', vendor: 'askcode-test', family: 'stories260K', version: '1', maxInputTokens: 4096 };

interface Seen {
  params: LmChatParams;
  cancelled: boolean;
  deltas: string[];
}

/** The extension's part: runs the generation and streams it back, as client/src/chat/lmHandler.ts does with vscode.lm. */
class ClientStandIn {
  readonly seen: Seen[] = [];
  mode: 'stream' | 'whole' | 'fail' = 'stream';
  maxNewTokens = 40;
  delayMs = 5;
  private generator!: Pipeline;
  private tf!: typeof import('@huggingface/transformers');

  async load(): Promise<void> {
    this.tf = await import('@huggingface/transformers');
    this.tf.env.allowRemoteModels = false;
    this.tf.env.localModelPath = SHARED_MODELS + '/';
    this.generator = (await this.tf.pipeline('text-generation', 'stories260K')) as unknown as Pipeline;
  }

  attach(w: WorkerHandle): void {
    w.conn.onRequest(LmChat.method, (p: LmChatParams, token: CancellationToken) => this.answer(w, p, token));
  }

  private async answer(w: WorkerHandle, params: LmChatParams, token: CancellationToken): Promise<LmChatResult> {
    const entry: Seen = { params, cancelled: false, deltas: [] };
    this.seen.push(entry);
    token.onCancellationRequested(() => (entry.cancelled = true));
    if (this.mode === 'fail') throw new Error('the user has not allowed askcode to use this model');
    const last = [...params.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const chunks: string[] = [];
    const streamer = new this.tf.TextStreamer(this.generator.tokenizer, { skip_prompt: true, callback_function: (t: string) => void chunks.push(t) });
    // The tiny model has a 512-token window: a story seed from the end of the prompt is enough.
    await this.generator('Once upon a time ' + last.slice(-40), { max_new_tokens: this.maxNewTokens, do_sample: false, streamer });
    let text = '';
    for (const c of chunks) {
      if (token.isCancellationRequested) break;
      text += c;
      if (this.mode === 'stream') {
        entry.deltas.push(c);
        await w.notify(LmDelta, { requestId: params.requestId, text: c });
        await new Promise((r) => setTimeout(r, this.delayMs));
      }
    }
    return { text, model: STORIES };
  }
}

const relevant = {
  iterable: [{ seed: { type: 'SEEDED_ASSET' as const, asset: { application: { id: 'a', name: 'OPEN_SOURCE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' }, format: { fragment: { string: { raw: 'def add(a, b):\n    return a + b\n' }, metadata: { ext: 'py' } } } } } }],
};

describe('VS Code language model through the client (askcode/lm/chat)', function () {
  this.timeout(120_000);
  const client = new ClientStandIn();
  let dataDir: string;
  let w: WorkerHandle | undefined;

  before(() => client.load());
  beforeEach(() => {
    dataDir = tempDir('vscode-lm');
  });
  afterEach(async () => {
    await w?.stop();
    w = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not offered when the client does not offer it (CLI, bridge): not listed, and naming it is not_found', async () => {
    w = await startWorker({ dataDir });
    const snap = await w.request(ModelsSnapshot, undefined);
    assert.ok(!snap.iterable.some((m) => m.id.startsWith(VSCODE_LM_MODEL_ID)), 'no vscode-lm entry');
    const err = await rpcError(w.request(QgptQuestion, { query: 'What does add return?', relevant, model: VSCODE_LM_MODEL_ID }));
    assert.equal(err.data?.kind, 'not_found');
  });

  it('lists "VS Code language model" and each reported model, and answers with the streamed text', async () => {
    w = await startWorker({ dataDir, client: { lm: true } });
    client.attach(w);
    client.mode = 'stream';
    await w.notify(LmModelsChanged, { models: [STORIES] });
    await until(async () => (await w!.request(ModelsSnapshot, undefined)).iterable.some((m) => m.id === 'vscode-lm:askcode-test:stories260K'), 'the reported model listed');
    const snap = await w.request(ModelsSnapshot, undefined);
    const any = snap.iterable.find((m) => m.id === VSCODE_LM_MODEL_ID);
    assert.equal(any?.name, 'VS Code language model');
    assert.equal(any?.usage, 'CODE_CONVERSATION');
    assert.match(any?.description ?? '', /now Stories 260K/);
    assert.equal((await w.request(ModelGet, { model: 'vscode-lm:askcode-test:stories260K' })).maxTokens?.total, 4096);

    const out = await w.request(QgptQuestion, { query: 'What does add return?', relevant, model: VSCODE_LM_MODEL_ID });
    const seen = client.seen.at(-1)!;
    assert.deepEqual(seen.params.selector, {}, '"VS Code language model" asks for any model');
    assert.ok(seen.params.messages.some((m) => m.role === 'user' && m.content.includes('What does add return?')), 'the question is in the prompt');
    assert.ok(seen.params.messages.some((m) => m.content.includes('return a + b')), 'the snippet is in the prompt');
    assert.ok(seen.deltas.length > 3, `the client streamed several deltas (${seen.deltas.length})`);
    const text = out.answers.iterable[0].text;
    assert.ok(text.startsWith(seen.deltas.join('')), `the answer is the generated text: ${JSON.stringify(text.slice(0, 120))}`);
    assert.ok(seen.deltas.join('').trim().length > 0);
  });

  it('streams deltas as qgpt/stream frames, and a stop cancels the client request', async () => {
    w = await startWorker({ dataDir, client: { lm: true } });
    client.attach(w);
    client.mode = 'stream';
    const frames: QGPTStreamOutput[] = [];
    w.onNotification(QgptStreamOutputNotification, (f) => frames.push(f));
    await w.request(QgptStream, { request: 'lm-1', question: { query: 'What does add return?', relevant, model: VSCODE_LM_MODEL_ID } });
    await until(() => frames.some((f) => f.request === 'lm-1' && f.status !== 'IN-PROGRESS'), 'lm-1 finished', 60_000);
    const mine = frames.filter((f) => f.request === 'lm-1');
    assert.equal(mine.at(-1)?.status, 'COMPLETED');
    const deltas = mine.filter((f) => f.question).map((f) => f.question!.answers.iterable[0].text);
    assert.ok(deltas.length > 3, `several delta frames, got ${deltas.length}`);
    assert.ok(deltas.join('').startsWith(client.seen.at(-1)!.deltas.join('')), 'the frames carry the client deltas in order');

    // A long answer, stopped mid-stream: the worker sends $/cancelRequest, the client sees it.
    client.maxNewTokens = 200;
    client.delayMs = 40;
    const before = client.seen.length;
    await w.request(QgptStream, { request: 'lm-2', question: { query: 'Tell me a long story', relevant, model: VSCODE_LM_MODEL_ID } });
    await until(() => frames.some((f) => f.request === 'lm-2' && f.question), 'first lm-2 delta', 60_000);
    await w.request(QgptStream, { request: 'lm-2', stop: true });
    await until(() => frames.some((f) => f.request === 'lm-2' && f.status === 'STOPPED'), 'lm-2 stopped');
    await until(() => client.seen.length > before && client.seen.at(-1)!.cancelled, 'the client request cancelled');
    const entry = client.seen.at(-1)!;
    assert.ok(entry.deltas.length < 150, `the client stopped generating early (${entry.deltas.length} deltas sent)`);
    client.maxNewTokens = 40;
    client.delayMs = 5;
  });

  it('takes the whole text from a client that does not stream, and uses a vscode-lm:<vendor>:<family> default model', async () => {
    w = await startWorker({ dataDir, client: { lm: true }, settings: { defaultModel: 'vscode-lm:askcode-test:stories260K' } });
    client.attach(w);
    client.mode = 'whole';
    await w.notify(LmModelsChanged, { models: [STORIES] });
    await until(async () => (await w!.request(ModelsSnapshot, undefined)).iterable.some((m) => m.id === 'vscode-lm:askcode-test:stories260K'), 'the reported model listed');
    const out = await w.request(QgptQuestion, { query: 'What does add return?', relevant });
    const seen = client.seen.at(-1)!;
    assert.deepEqual(seen.params.selector, { vendor: 'askcode-test', family: 'stories260K' });
    assert.equal(seen.deltas.length, 0);
    assert.ok(out.answers.iterable[0].text.trim().length > 0, 'the whole text arrived');
  });

  it("a client failure answers extractively with a notice naming VS Code's reason", async () => {
    w = await startWorker({ dataDir, client: { lm: true } });
    client.attach(w);
    client.mode = 'fail';
    const out = await w.request(QgptQuestion, { query: 'What does add return?', relevant, model: VSCODE_LM_MODEL_ID });
    const notice = out.askcode?.notices?.find((n) => n.kind === 'model-unavailable');
    assert.ok(notice, 'a model-unavailable notice');
    assert.match(notice.message, /VS Code language model.*not allowed askcode/);
    assert.equal(notice.action?.command, 'pick-model');
    assert.ok(out.answers.iterable[0].text.trim().length > 0, 'the extractive answer is there');
    // The worker is still fine.
    assert.ok((await w.request(ModelsSnapshot, undefined)).iterable.length > 0);
    client.mode = 'stream';
  });
});
