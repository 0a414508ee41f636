/**
 * `@askcode` in VS Code's chat: `/ask` (the default) streams askcode's cited answer, `/related`
 * lists related snippets, `/people` the people who know the code. Citations are anchors and
 * references that open the file at its lines; the hints come back as follow-ups; a follow-up in
 * the same chat continues the same askcode conversation (its id rides in each result's metadata,
 * which VS Code keeps in the chat history).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  QgptStream, QgptStreamOutputNotification, QgptHints, QgptRelevance, QgptPersonsRelated, VSCODE_LM_PREFIX,
  type QGPTStreamInput, type QGPTStreamOutput, type QGPTRelevanceInput, type RelevantQGPTSeed, type QGPTPersonsRelatedOutput,
} from '../../../server/src/protocol';
import type { SelectionSeed } from '../../../server/src/protocol/ui';
import { readSettings } from '../config';
import { toSeed } from '../related';
import { messageOf, type Worker } from '../worker';
import { hitPlace, hitText, hitWhy, lines, locationOf, noPeopleReason, personName, personWhy, relPath } from './format';
import { resolveWorkspacePath, seedOfActiveEditor, seedOfFile, seedOfReferences } from './targets';
import { caughtUp } from './tools';

export const PARTICIPANT_ID = 'askcode.askcode';
/** Snippets listed as references under an answer, and by /related. */
const MAX_REFERENCES = 10;
/** Answers whose hints may still be asked for (the follow-up provider runs right after each answer). */
const KEEP_FOR_FOLLOWUPS = 20;

export interface AskcodeChatMetadata {
  command: 'ask' | 'related' | 'people';
  /** The askcode conversation the answer belongs to. */
  conversation?: string;
  request?: string;
}

interface Answered {
  query: string;
  text: string;
  score: number;
  relevant: RelevantQGPTSeed[];
}

/**
 * Streams markdown as it comes and turns each cited place (`` `src/a.ts:3-9` ``) that resolves to
 * a workspace file into an anchor that opens it at those lines. Lines inside code fences pass
 * through untouched.
 */
class CitingWriter {
  private buf = '';
  private inFence = false;
  /** The buffer continues a line whose start was already written. */
  private midLine = false;

  constructor(private readonly stream: vscode.ChatResponseStream, private readonly resolve: (place: string) => vscode.Location | undefined) {}

  write(t: string): void {
    this.buf += t;
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      this.line(this.buf.slice(0, nl + 1));
      this.buf = this.buf.slice(nl + 1);
    }
    this.partial();
  }

  flush(): void {
    if (this.buf) this.line(this.buf);
    this.buf = '';
  }

  /**
   * The unfinished line's text up to where no code span is open, so a long paragraph streams as it
   * comes rather than at its end. A line that may open a fence waits for its end.
   */
  private partial(): void {
    if (this.inFence || !this.buf || (!this.midLine && /^\s*[`~]/.test(this.buf))) return;
    let ticks = 0;
    let safe = 0;
    for (let i = 0; i < this.buf.length; i++) {
      if (this.buf[i] === '`') ticks++;
      else if (ticks % 2 === 0 && this.buf[i - 1] !== '`') safe = i + 1;
    }
    if (safe === 0) return;
    this.inline(this.buf.slice(0, safe));
    this.buf = this.buf.slice(safe);
    // What is left of the line no longer starts it: keep it from being taken for a fence.
    this.midLine = true;
  }

  private line(l: string): void {
    const starts = !this.midLine;
    this.midLine = false;
    if (starts && /^\s*(```|~~~)/.test(l)) this.inFence = !this.inFence;
    if (this.inFence || !l.includes('`')) {
      this.stream.markdown(l);
      return;
    }
    this.inline(l);
  }

  private inline(l: string): void {
    let last = 0;
    for (const m of l.matchAll(/`([^`\n]+?:\d+(?:-\d+)?)`/g)) {
      const loc = this.resolve(m[1]!);
      if (!loc) continue;
      if (m.index! > last) this.stream.markdown(l.slice(last, m.index));
      this.stream.anchor(loc, m[1]);
      last = m.index! + m[0].length;
    }
    if (last < l.length) this.stream.markdown(l.slice(last));
  }
}

/** `src/a.ts:3-9` → the file and lines, from the snippets of this answer or any workspace file. */
function placeResolver(hits: () => RelevantQGPTSeed[]): (place: string) => vscode.Location | undefined {
  return (place) => {
    const m = /^(.*?):(\d+)(?:-(\d+))?$/.exec(place);
    if (!m) return undefined;
    const [, p, a, b] = m;
    const start = Number(a);
    const end = b ? Number(b) : start;
    const hit = hits().find((h) => h.path && (relPath(h.path) === p || h.path === p));
    const abs = hit?.path ?? resolveWorkspacePath(p!);
    return abs ? locationOf(abs, start, end) : undefined;
  };
}

/** The askcode conversation of this chat: the last one an @askcode answer in its history named. */
function conversationOf(context: vscode.ChatContext): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const meta = turn.result.metadata as AskcodeChatMetadata | undefined;
      if (meta?.conversation) return meta.conversation;
    }
  }
  return undefined;
}

function overlaps(h: RelevantQGPTSeed, s: SelectionSeed): boolean {
  const a = h.askcode;
  return !!(a && s.path && h.path === s.path && s.startLine && s.endLine && a.startLine <= s.endLine && a.endLine >= s.startLine);
}

export class AskcodeParticipant {
  private readonly answered = new Map<string, Answered>();

  constructor(private readonly worker: Worker) {}

  readonly handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    try {
      if (request.command === 'related') return await this.related(request, stream, token);
      if (request.command === 'people') return await this.people(request, stream, token);
      return await this.ask(request, context, stream, token);
    } catch (e) {
      if (token.isCancellationRequested) return {};
      return { errorDetails: { message: messageOf(e) } };
    }
  };

  readonly followupProvider: vscode.ChatFollowupProvider = {
    provideFollowups: async (result, _context, token) => {
      const meta = result.metadata as AskcodeChatMetadata | undefined;
      const a = meta?.request ? this.answered.get(meta.request) : undefined;
      if (!a || !a.relevant.length) return [];
      try {
        // Askcode's own hints (the default model, else rules): never a second paid call to the chat's model.
        const out = await this.worker.request(QgptHints, { query: a.query, answer: { score: a.score, text: a.text }, relevant: { iterable: a.relevant } }, token);
        return out.answers.iterable
          .map((h) => h.text.trim())
          .filter((t) => t && t !== a.query)
          .slice(0, 4)
          .map((t): vscode.ChatFollowup => ({ prompt: t, label: t, command: 'ask' }));
      } catch {
        return []; // hints are a nicety
      }
    },
  };

  /**
   * The model that answers: `askcode.defaultModel` when set; otherwise the model chosen in VS
   * Code's chat for this request (through `vscode-lm:<vendor>:<family>`), so @askcode answers
   * with it rather than extractively.
   */
  private modelFor(request: vscode.ChatRequest): string | undefined {
    if (readSettings().defaultModel) return undefined;
    const m = request.model;
    return m?.vendor && m.family ? `${VSCODE_LM_PREFIX}${m.vendor}:${m.family}` : undefined;
  }

  private async ask(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const query = request.prompt.trim();
    const seed = await seedOfReferences(request.references);
    if (!query) {
      stream.markdown('Ask a question about the code in this workspace, for example `@askcode where are sessions created?`. `/related` finds related snippets, `/people` who knows the code.');
      return { metadata: { command: 'ask' } satisfies AskcodeChatMetadata };
    }
    const conversation = conversationOf(context);
    const requestId = randomUUID();
    const model = this.modelFor(request);
    const relevance: QGPTRelevanceInput = { query, options: { question: true, ...(seed ? {} : { database: true }) } };
    if (seed) relevance.seeds = { iterable: [toSeed(seed)] };
    if (model) relevance.model = model;
    const input: QGPTStreamInput = { relevance, request: requestId, ...(conversation ? { conversation } : {}) };

    let hits: RelevantQGPTSeed[] = [];
    let text = '';
    let score = 0;
    let conv = conversation;
    const writer = new CitingWriter(stream, placeResolver(() => hits));
    stream.progress(seed ? `Searching around ${relPath(seed.path ?? '')}${lines(seed.startLine, seed.endLine)}…` : 'Searching the workspace…');
    // The answer's notices say so when it had to answer from part of the index.
    await caughtUp(this.worker, token);

    const done = new Promise<QGPTStreamOutput>((resolve) => {
      const sub = this.worker.onNotification(({ method, params }) => {
        if (method !== QgptStreamOutputNotification.method) return;
        const f = params as QGPTStreamOutput;
        if (f.request !== requestId) return;
        if (f.conversation) conv = f.conversation;
        if (f.relevance?.relevant) {
          hits = f.relevance.relevant.iterable ?? [];
          stream.progress(hits.length ? `Answering from ${hits.length} snippet${hits.length === 1 ? '' : 's'}…` : 'No matching code; answering anyway…');
        }
        for (const n of f.askcode?.notices ?? []) stream.markdown(`> ${n.message.replace(/\n/g, ' ')}\n\n`);
        const answer = f.question?.answers?.iterable?.[0] ?? f.relevance?.answer?.answers?.iterable?.[0];
        if (answer && typeof answer.text === 'string') {
          text += answer.text;
          if (typeof answer.score === 'number') score = answer.score;
          writer.write(answer.text);
        }
        if (f.status && f.status !== 'IN-PROGRESS' && f.status !== 'INITIALIZED') {
          sub.dispose();
          resolve(f);
        }
      });
      token.onCancellationRequested(() => {
        void this.worker.request(QgptStream, { stop: true, request: requestId, ...(conv ? { conversation: conv } : {}) }).catch(() => {});
      });
    });
    const accepted = await this.worker.request(QgptStream, input);
    conv = accepted.conversation ?? conv;
    const last = await done;
    writer.flush();
    if (last.askcode?.persons) this.renderPeople(stream, last.askcode.persons);
    for (const h of hits.slice(0, MAX_REFERENCES)) if (h.path) stream.reference(locationOf(h.path, h.askcode?.startLine, h.askcode?.endLine));
    const metadata: AskcodeChatMetadata = { command: 'ask', conversation: conv, request: requestId };
    if (last.status === 'FAILED' || last.status === 'UNKNOWN' || last.status === 'CANCELED') {
      return { metadata, errorDetails: { message: last.errorMessage ?? 'The answer failed.' } };
    }
    this.answered.set(requestId, { query, text, score, relevant: hits });
    while (this.answered.size > KEEP_FOR_FOLLOWUPS) this.answered.delete(this.answered.keys().next().value!);
    return { metadata };
  }

  private async related(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const seed = (await seedOfReferences(request.references)) ?? seedOfActiveEditor(false);
    const query = request.prompt.trim() || seed?.text.slice(0, 2000).trim() || '';
    const metadata: AskcodeChatMetadata = { command: 'related' };
    if (!query) {
      stream.markdown('Type what to look for after `/related`, or select code in an editor first.');
      return { metadata };
    }
    stream.progress('Searching the workspace…');
    const note = await caughtUp(this.worker, token);
    if (note) stream.markdown(`_${note}_\n\n`);
    const out = await this.worker.request(QgptRelevance, { query, options: { database: true } }, token);
    // The selected code finds itself first; it is not "related".
    const hits = out.relevant.iterable.filter((h) => !(seed && !request.prompt.trim() && overlaps(h, seed))).slice(0, MAX_REFERENCES);
    if (!hits.length) {
      stream.markdown('No related snippets. If askcode is still indexing, try again when it is ready.');
      return { metadata };
    }
    const about = request.prompt.trim() ? `“${query}”` : seed?.path ? `${relPath(seed.path)}${lines(seed.startLine, seed.endLine)}` : 'the selection';
    stream.markdown(`**${hits.length} snippet${hits.length === 1 ? '' : 's'} related to ${about}**, most relevant first:\n\n`);
    hits.forEach((h, i) => {
      stream.markdown(`${i + 1}. `);
      if (h.path) stream.anchor(locationOf(h.path, h.askcode?.startLine, h.askcode?.endLine), hitPlace(h));
      else stream.markdown(hitPlace(h));
      const first = hitText(h).split('\n').find((l) => l.trim())?.trim() ?? '';
      stream.markdown(`${h.askcode?.symbol ? ` \`${h.askcode.symbol}\`` : ''} — ${hitWhy(h)}${first ? `\n   \`${first.replace(/`/g, "'").slice(0, 100)}\`` : ''}\n`);
      if (h.path) stream.reference(locationOf(h.path, h.askcode?.startLine, h.askcode?.endLine));
    });
    return { metadata };
  }

  private async people(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const metadata: AskcodeChatMetadata = { command: 'people' };
    const prompt = request.prompt.trim();
    // A workspace file named in the prompt comes first, then an attached one, then the editor's code.
    const named = prompt && !/\s/.test(prompt) ? resolveWorkspacePath(prompt) : undefined;
    const seed = (named && fs.statSync(named).isFile() ? await seedOfFile(named) : undefined)
      ?? (await seedOfReferences(request.references))
      ?? (prompt ? undefined : seedOfActiveEditor(true));
    if (!seed && !prompt) {
      stream.markdown('Name a file or folder after `/people` (for example `/people src/auth`), or open the code in an editor first.');
      return { metadata };
    }
    stream.progress('Reading the git history…');
    // Without code at hand, the prompt is a conversation message: the worker finds the paths it names.
    const input = seed ? { seed: toSeed(seed) } : { conversation: { iterable: [{ role: 'USER' as const, text: pathsInCode(prompt), timestamp: { value: new Date().toISOString() } }] } };
    const out = await this.worker.request(QgptPersonsRelated, { input, transferables: false }, token);
    const about = seed ? `${seed.path ? relPath(seed.path) : 'the selection'}${lines(seed.startLine, seed.endLine)}` : `“${prompt}”`;
    if (!out.persons.iterable.length) {
      stream.markdown(`Nobody found for ${about}: ${noPeopleReason(out)}.`);
      return { metadata };
    }
    stream.markdown(`**People who know ${about}**, most relevant first:\n\n`);
    this.renderPeople(stream, out);
    return { metadata };
  }

  private renderPeople(stream: vscode.ChatResponseStream, out: QGPTPersonsRelatedOutput): void {
    out.persons.iterable.forEach((p, i) => {
      const email = p.type?.basic?.email;
      stream.markdown(`${i + 1}. **${personName(p)}**${email ? ` <${email}>` : ''} — ${personWhy(p, out)}\n`);
      for (const f of p.askcode?.files.slice(0, 3) ?? []) stream.reference(vscode.Uri.file(f.path));
    });
  }
}

/** Bare paths in a prompt go in code spans, so the worker reads each whole even without an extension. */
function pathsInCode(prompt: string): string {
  return prompt.replace(/(^|\s)((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\/?)(?=\s|$|[?,.;:!])/g, (_m, pre: string, p: string) => `${pre}\`${p}\``);
}

export function registerParticipant(context: vscode.ExtensionContext, worker: Worker): vscode.Disposable {
  const p = new AskcodeParticipant(worker);
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, p.handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = p.followupProvider;
  return participant;
}
