/**
 * The e2e run's language-model peer: an OpenAI-compatible `chat/completions` endpoint on loopback
 * that streams REAL stories260K tokens (server-sent events). The driver extension's VS Code
 * language-model provider is backed by it, so "VS Code language model" answers in the real
 * workbench come from a real generation. Started by the harness, one per session.
 */
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';

type Pipeline = ((prompt: string, opts: Record<string, unknown>) => Promise<unknown>) & { tokenizer: unknown };

export interface LmPeer {
  url: string;
  /** Every request: the last user message (tail) and how many deltas were sent. */
  seen: { lastUser: string; messages: number; deltas: number; text: string; aborted: boolean }[];
  close(): Promise<void>;
}

export async function startLmPeer(modelsDir: string): Promise<LmPeer> {
  const tf = await import('@huggingface/transformers');
  tf.env.allowRemoteModels = false;
  tf.env.localModelPath = modelsDir + path.sep;
  const generator = (await tf.pipeline('text-generation', 'stories260K')) as unknown as Pipeline;
  const seen: LmPeer['seen'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      let body: { messages?: { role: string; content: string }[] } = {};
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
      const entry = { lastUser: last.slice(-400), messages: body.messages?.length ?? 0, deltas: 0, text: '', aborted: false };
      seen.push(entry);
      res.on('close', () => {
        if (!res.writableFinished) entry.aborted = true;
      });
      const chunks: string[] = [];
      const streamer = new tf.TextStreamer(generator.tokenizer as never, { skip_prompt: true, callback_function: (t: string) => void chunks.push(t) });
      // The tiny model has a 512-token window: a story seed from the end of the prompt is enough.
      await generator('Once upon a time ' + last.slice(-40), { max_new_tokens: 60, do_sample: false, streamer });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const c of chunks) {
        if (res.destroyed) return;
        entry.deltas++;
        entry.text += c;
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: c } }] })}\n\n`);
        // Paced like a real model (about 15 words a second), so the UIs can be seen streaming.
        await new Promise((r) => setTimeout(r, 60));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
