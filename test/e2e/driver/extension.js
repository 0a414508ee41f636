// @ts-nocheck
/**
 * Test-only extension, installed beside askcode by the e2e harness. Plain JavaScript: it uses the
 * language-model chat provider API (VS Code 1.104), newer than the @types/vscode askcode pins.
 *
 *  - a language-model chat provider (vendor `askcode-e2e`, model family `stories260K`) that streams
 *    REAL stories260K tokens from the OpenAI-compatible loopback peer of the test run
 *    (ASKCODE_E2E_LM_URL), so "VS Code language model" answers come from a real generation;
 *  - commands that call askcode's language-model tools with `vscode.lm.invokeTool` as an agent would,
 *    list the chat models, and ask `@askcode` through VS Code's chat, each writing what it saw as
 *    JSON into ASKCODE_E2E_OUT for the test to read.
 */
const vscode = require('vscode');
const fs = require('node:fs');
const path = require('node:path');

const OUT = process.env.ASKCODE_E2E_OUT;
const PEER = process.env.ASKCODE_E2E_LM_URL;

function write(name, value) {
  if (!OUT) return;
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  fs.writeFileSync(file + '.tmp', JSON.stringify(value, null, 2));
  fs.renameSync(file + '.tmp', file);
}

function textOf(content) {
  return typeof content === 'string' ? content : (content || []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** SSE `chat/completions` from the peer, reported part by part. */
async function streamFromPeer(messages, progress, token, log) {
  const ac = new AbortController();
  token.onCancellationRequested(() => ac.abort());
  const body = { model: 'stories260K', stream: true, messages: messages.map((m) => ({ role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', content: textOf(m.content) })) };
  log.requests.push({ messages: body.messages.length, chars: body.messages.reduce((n, m) => n + m.content.length, 0), lastUser: body.messages.filter((m) => m.role === 'user').pop()?.content.slice(-400) });
  const res = await fetch(`${PEER}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: ac.signal });
  if (!res.ok || !res.body) throw new Error(`peer answered ${res.status}`);
  const decoder = new TextDecoder();
  let buf = '';
  let parts = 0;
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return parts;
      const delta = JSON.parse(data).choices?.[0]?.delta?.content;
      if (delta) {
        parts++;
        progress.report(new vscode.LanguageModelTextPart(delta));
      }
    }
  }
  return parts;
}

function activate(context) {
  const log = { requests: [], responses: [] };
  if (PEER && vscode.lm.registerLanguageModelChatProvider) {
    const info = { id: 'stories260K', name: 'Stories 260K', family: 'stories260K', version: '1', maxInputTokens: 8192, maxOutputTokens: 512, tooltip: 'stories260K from the e2e peer', capabilities: {}, isUserSelectable: true };
    context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('askcode-e2e', {
      provideLanguageModelChatInformation: () => [info],
      provideLanguageModelChatResponse: async (_model, messages, _options, progress, token) => {
        const parts = await streamFromPeer(messages, progress, token, log);
        log.responses.push({ parts });
        write('lm-log.json', log);
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text.content)).length / 4),
    }));
  }

  context.subscriptions.push(vscode.commands.registerCommand('askcodeE2E.listModels', async () => {
    const models = await vscode.lm.selectChatModels();
    write('models.json', { models: models.map((m) => ({ id: m.id, vendor: m.vendor, family: m.family, name: m.name })), tools: vscode.lm.tools.map((t) => t.name) });
  }));

  context.subscriptions.push(vscode.commands.registerCommand('askcodeE2E.invokeTools', async () => {
    const out = { tools: [], calls: {} };
    out.tools = vscode.lm.tools.filter((t) => t.name.startsWith('askcode_')).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, tags: t.tags }));
    const call = async (key, name, input) => {
      const t0 = Date.now();
      try {
        const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
        out.calls[key] = { ok: true, text: r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `[${p.constructor?.name}]`)).join(''), ms: Date.now() - t0 };
      } catch (e) {
        out.calls[key] = { ok: false, error: String(e && e.message || e), ms: Date.now() - t0 };
      }
    };
    await call('search', 'askcode_search', { query: 'how are session tokens validated', limit: 3 });
    await call('searchPaths', 'askcode_search', { query: 'invoice total tax', paths: ['src/billing'] });
    await call('symbol', 'askcode_symbol', { name: 'validateToken' });
    await call('people', 'askcode_people', { path: 'src/server.ts' });
    await call('badSearch', 'askcode_search', { limit: 3 });
    await call('outside', 'askcode_people', { path: '../../etc/passwd' });
    write('tools.json', out);
  }));

  // VS Code's chat, as a user types into it: `workbench.action.chat.open` with the query.
  context.subscriptions.push(vscode.commands.registerCommand('askcodeE2E.askParticipant', async () => {
    const query = fs.existsSync(path.join(OUT || '', 'ask.txt')) ? fs.readFileSync(path.join(OUT, 'ask.txt'), 'utf8') : '@askcode where are session tokens validated?';
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, modelSelector: { vendor: 'askcode-e2e', id: 'stories260K' } });
  }));
}

module.exports = { activate, deactivate() {} };
