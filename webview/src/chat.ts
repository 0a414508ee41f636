/**
 * The chat panel: composer, streamed answers with cited snippets and hints, conversations,
 * model picker and index status. Talks only through a {@link Transport}, so the same code runs
 * in a VS Code webview and in the bridge's browser page.
 */
import {
  QgptStream, QgptStreamOutputNotification, QgptHints, ModelsSnapshot, ModelsIdentifiersNotification,
  ModelDownload, ModelDownloadCancel, ModelDownloadProgressNotification, IndexStatus, IndexProgressNotification,
  ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete, AssetsSave,
  type Model, type QGPTStreamInput, type QGPTStreamOutput, type RelevantQGPTSeed, type IndexProgress,
  type ConversationSummary, type ConversationRecord, type QGPTRelevanceInput, type Seed,
} from '../../server/src/protocol';
import {
  UiReady, UiOpenLocation, UiInsert, UiOpenExternal, UiAsk, UiConfigChanged, UiWorkerState, UiNewConversation,
  type UiConfig, type AskParams, type SelectionSeed,
} from './hostProtocol';
import { RpcError, type Transport } from './transport';
import { renderMarkdown } from './markdown';
import { h, icon, iconButton, byId, withCodeSpans } from './dom';

export type MessageStatus = 'streaming' | 'done' | 'stopped' | 'failed';

interface Turn {
  request: string;
  conversation?: string;
  query: string;
  text: string;
  score?: number;
  relevant: RelevantQGPTSeed[];
  status: MessageStatus;
  el: HTMLElement;
  body: HTMLElement;
  renderQueued: boolean;
  lastRender: number;
  stopTimer?: ReturnType<typeof setTimeout>;
}

const RENDER_INTERVAL_MS = 50;

const EXAMPLES = [
  'Where is the configuration loaded?',
  'How does error handling work in this project?',
  'What calls the main entry point?',
];

/** Ids the worker echoes on every frame; also unique across views sharing one worker connection. */
function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** True for the built-in answerer that needs no weights. */
export function isExtractive(m: Model): boolean {
  return /extractive/i.test(`${m.id} ${m.name} ${m.unique ?? ''}`);
}

function isConversationModel(m: Model): boolean {
  return m.usage === 'CODE_CONVERSATION' || m.usage === 'CODE_GENERATION';
}

export class ChatApp {
  private config: UiConfig = { folders: [] };
  private models: Model[] = [];
  private conversation?: string;
  private active?: Turn;
  private readonly turns = new Map<string, Turn>();
  private downloading?: string;
  private modelsRefresh?: ReturnType<typeof setTimeout>;

  private readonly prompt: HTMLTextAreaElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly stopBtn: HTMLButtonElement;
  private readonly messages: HTMLElement;
  private readonly picker: HTMLSelectElement;
  private readonly modelNote: HTMLElement;
  private readonly downloadBtn: HTMLButtonElement;
  private readonly downloadProgress: HTMLProgressElement;
  private readonly indexStatus: HTMLElement;
  private readonly historyPanel: HTMLElement;
  private readonly historyList: HTMLElement;
  private readonly connection: HTMLElement;

  constructor(private readonly t: Transport, root: HTMLElement) {
    root.replaceChildren(this.skeleton());
    this.prompt = byId('prompt');
    this.sendBtn = byId('send');
    this.stopBtn = byId('stop');
    this.messages = byId('messages');
    this.picker = byId('model-picker');
    this.modelNote = byId('model-note');
    this.downloadBtn = byId('download-model');
    this.downloadProgress = byId('download-progress');
    this.indexStatus = byId('index-status');
    this.historyPanel = byId('history-panel');
    this.historyList = byId('history');
    this.connection = byId('connection');
    this.conversation = t.store.get<string>('conversation');
    this.wire();
    this.showEmptyState();
  }

  // ---- layout --------------------------------------------------------------------------------

  private skeleton(): HTMLElement {
    const picker = h('select', { id: 'model-picker', 'aria-label': 'Model that answers', title: 'Model that answers' });
    const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat' },
      picker,
      iconButton('download-model', 'cloud-download', 'Download a local model'),
      h('progress', { id: 'download-progress', max: 100, value: 0, hidden: true, 'aria-label': 'Model download progress' }),
      h('span', { class: 'spacer' }),
      iconButton('history-toggle', 'history', 'Conversation history'),
      iconButton('new-conversation', 'add', 'New conversation'),
    );
    const header = h('header', { class: 'header' },
      toolbar,
      h('div', { id: 'model-note', class: 'model-note', role: 'note' }),
      h('div', { id: 'index-status', class: 'index-status', role: 'status', 'aria-live': 'polite', 'data-state': 'unknown' }),
      h('div', { id: 'connection', class: 'connection', role: 'alert', hidden: true }),
    );
    const history = h('section', { id: 'history-panel', class: 'history-panel', hidden: true, 'aria-label': 'Conversation history' },
      h('h2', { text: 'Conversations' }),
      h('ul', { id: 'history', class: 'history', role: 'list' }),
    );
    const messages = h('main', { id: 'messages', class: 'messages', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
    const composer = h('footer', { class: 'composer' },
      h('textarea', {
        id: 'prompt', rows: 3, 'aria-label': 'Ask about your code',
        placeholder: 'Ask about your code — Enter to send, Shift+Enter for a new line, Escape to stop',
      }),
      h('div', { class: 'composer-actions' },
        h('button', { id: 'send', type: 'button', class: 'primary', title: 'Send (Enter)', 'aria-label': 'Send' }, icon('send'), ' Ask'),
        h('button', { id: 'stop', type: 'button', class: 'secondary', title: 'Stop (Escape)', 'aria-label': 'Stop', hidden: true, disabled: true }, icon('debug-stop'), ' Stop'),
      ),
    );
    return h('div', { class: 'chat' }, header, history, messages, composer);
  }

  private wire(): void {
    const t = this.t;
    this.sendBtn.addEventListener('click', () => void this.send());
    this.stopBtn.addEventListener('click', () => void this.stop());
    this.prompt.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void this.send();
      }
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.active?.status === 'streaming') {
        e.preventDefault();
        void this.stop();
      }
    });
    byId('new-conversation').addEventListener('click', () => this.newConversation());
    byId('history-toggle').addEventListener('click', () => void this.toggleHistory());
    this.picker.addEventListener('change', () => {
      t.store.set('model', this.picker.value);
      this.updateModelNote();
    });
    this.downloadBtn.addEventListener('click', () => void this.downloadModel());
    this.messages.addEventListener('click', (e) => this.onMessagesClick(e));

    t.onNotification(QgptStreamOutputNotification, (f) => this.onFrame(f));
    t.onNotification(IndexProgressNotification, (p) => this.showIndex(p));
    t.onNotification(ModelsIdentifiersNotification, () => this.refreshModelsSoon());
    t.onNotification(ModelDownloadProgressNotification, (p) => this.onDownloadProgress(p.model, p.progress.percentage ?? null, p.progress.status));
    t.onNotification(UiAsk, (p) => void this.ask(p));
    t.onNotification(UiNewConversation, () => this.newConversation());
    t.onNotification(UiConfigChanged, (c) => this.applyConfig(c));
    t.onNotification(UiWorkerState, (s) => {
      if (s.state === 'running') {
        this.setConnection(undefined);
        void this.refreshAll();
      } else this.setConnection(s.message ?? (s.state === 'starting' ? 'The askcode worker is starting…' : 'The askcode worker is not running.'));
      if (s.state !== 'running' && this.active?.status === 'streaming') this.finish(this.active, 'failed', 'The worker stopped while answering.');
    });
    t.onState((s) => {
      if (s === 'open') {
        this.setConnection(undefined);
        void this.refreshAll();
      } else if (s === 'closed') {
        this.setConnection('Disconnected from askcode — reconnecting…');
        if (this.active?.status === 'streaming') this.finish(this.active, 'failed', 'The connection was lost while answering.');
      }
    });
  }

  /** Loads config, models, index status and (if any) the current conversation. */
  async start(): Promise<void> {
    if (this.t.host === 'vscode') {
      try {
        this.applyConfig(await this.t.request(UiReady, undefined));
      } catch {
        /* an older host: carry on with defaults */
      }
    }
    if (this.t.state === 'open') await this.refreshAll();
    if (this.conversation) await this.openConversation(this.conversation, false);
  }

  private async refreshAll(): Promise<void> {
    await Promise.all([this.refreshModels(), this.refreshIndex()]);
  }

  private applyConfig(c: UiConfig): void {
    this.config = c;
    this.renderPicker();
  }

  private setConnection(message: string | undefined): void {
    this.connection.hidden = !message;
    this.connection.textContent = message ?? '';
  }

  // ---- asking --------------------------------------------------------------------------------

  private async send(): Promise<void> {
    const query = this.prompt.value.trim();
    if (!query || this.active?.status === 'streaming') return;
    this.prompt.value = '';
    await this.ask({ query });
  }

  /** Starts one streamed answer: relevance over the workspace (or the selection), then the answer. */
  async ask(p: AskParams): Promise<void> {
    if (this.active?.status === 'streaming') await this.stop();
    this.clearEmptyState();
    const request = newId();
    const relevance: QGPTRelevanceInput = { query: p.query, options: { question: true } };
    if (p.selection) relevance.seeds = { iterable: [selectionSeed(p.selection)] };
    else if (p.paths?.length) relevance.paths = p.paths;
    else relevance.options = { question: true, database: true };
    const model = this.picker.value || undefined;
    if (model) relevance.model = model;
    const input: QGPTStreamInput = { relevance, request };
    if (this.conversation) input.conversation = this.conversation;

    this.messages.append(this.userMessage(p.query, p.selection));
    const turn = this.assistantMessage(request, p.query);
    turn.conversation = this.conversation;
    this.active = turn;
    this.turns.set(request, turn);
    this.setStreaming(true);
    this.scrollToEnd();
    try {
      const accepted = await this.t.request(QgptStream, input);
      if (accepted?.conversation) this.setConversation(accepted.conversation);
      turn.conversation = accepted?.conversation ?? turn.conversation;
    } catch (e) {
      this.finish(turn, 'failed', messageOf(e));
    }
  }

  /** Asks the worker to stop the running answer; STOPPED arrives as a frame. */
  async stop(): Promise<void> {
    const turn = this.active;
    if (!turn || turn.status !== 'streaming') return;
    this.stopBtn.disabled = true;
    // If no STOPPED frame comes (an older worker, a lost frame), stop waiting anyway.
    turn.stopTimer = setTimeout(() => this.finish(turn, 'stopped'), 3000);
    try {
      await this.t.request(QgptStream, { stop: true, request: turn.request, conversation: turn.conversation });
    } catch {
      this.finish(turn, 'stopped');
    }
  }

  private onFrame(f: QGPTStreamOutput): void {
    const turn = f.request ? this.turns.get(f.request) : undefined;
    if (!turn) return; // another view's request on the same worker connection
    if (f.conversation && !turn.conversation) {
      turn.conversation = f.conversation;
      if (turn === this.active) this.setConversation(f.conversation);
    }
    if (turn.status !== 'streaming') return;
    if (f.relevance?.relevant) {
      turn.relevant = f.relevance.relevant.iterable ?? [];
      this.renderSnippets(turn);
      const typing = turn.body.querySelector('.typing');
      if (typing) typing.replaceChildren(icon('loading codicon-modifier-spin'), ' Answering…');
    }
    const answer = f.question?.answers?.iterable?.[0] ?? f.relevance?.answer?.answers?.iterable?.[0];
    if (answer && typeof answer.text === 'string') {
      turn.text += answer.text;
      if (typeof answer.score === 'number') turn.score = answer.score;
      this.scheduleRender(turn);
    }
    switch (f.status) {
      case 'COMPLETED':
        this.finish(turn, 'done');
        break;
      case 'FAILED':
      case 'UNKNOWN':
      case 'CANCELED':
        this.finish(turn, 'failed', f.errorMessage ?? 'The answer failed.');
        break;
      case 'STOPPED':
      case 'RESET':
        this.finish(turn, 'stopped');
        break;
      default:
        break;
    }
  }

  private finish(turn: Turn, status: MessageStatus, error?: string): void {
    if (turn.status !== 'streaming') return;
    if (turn.stopTimer) clearTimeout(turn.stopTimer);
    turn.status = status;
    this.renderBody(turn);
    turn.el.dataset.status = status;
    turn.el.setAttribute('aria-busy', 'false');
    const meta = turn.el.querySelector('.message-meta');
    if (meta) {
      const parts: string[] = [];
      if (status === 'stopped') parts.push('Stopped');
      if (typeof turn.score === 'number' && status === 'done') parts.push(`score ${turn.score.toFixed(2)}`);
      const model = this.models.find((m) => m.id === this.picker.value);
      if (model) parts.push(model.name);
      meta.textContent = parts.join(' · ');
    }
    if (error) turn.el.append(h('div', { class: 'message-error', role: 'alert' }, icon('error'), ' ', error));
    if (!turn.text) {
      turn.body.replaceChildren();
      if (status === 'done' && !turn.relevant.length) {
        turn.body.append(h('p', { class: 'muted', text: 'No answer and no matching code. Try other words, or wait for the index to finish.' }));
      }
    }
    if (turn === this.active) this.setStreaming(false);
    if (status === 'done') void this.loadHints(turn);
  }

  private async loadHints(turn: Turn): Promise<void> {
    try {
      const out = await this.t.request(QgptHints, {
        query: turn.query,
        answer: { score: turn.score ?? 0, text: turn.text },
        relevant: { iterable: turn.relevant },
      });
      const hints = (out?.answers?.iterable ?? []).map((a) => a.text).filter((s) => s && s.trim() && s.trim() !== turn.query);
      if (!hints.length) return;
      const box = h('div', { class: 'hints', role: 'group', 'aria-label': 'Suggested questions' });
      for (const text of hints.slice(0, 5)) {
        box.append(h('button', { type: 'button', class: 'hint-chip', title: 'Ask this', 'data-query': text }, ...withCodeSpans(text)));
      }
      turn.el.append(box);
      this.scrollToEnd();
    } catch {
      /* hints are a nicety: without them the answer still stands */
    }
  }

  private setStreaming(on: boolean): void {
    this.sendBtn.disabled = on;
    this.stopBtn.hidden = !on;
    this.stopBtn.disabled = !on;
    this.sendBtn.hidden = on;
    if (!on) this.prompt.focus();
  }

  // ---- rendering -----------------------------------------------------------------------------

  private userMessage(text: string, selection?: SelectionSeed): HTMLElement {
    const el = h('div', { class: 'message user', role: 'article', 'aria-label': 'You' },
      h('div', { class: 'message-role' }, icon('account'), ' You'),
      h('div', { class: 'message-body' }, h('p', {}, ...withCodeSpans(text))),
    );
    if (selection) {
      const where = selection.path ? `${this.displayPath(selection.path)}:${selection.startLine ?? 1}-${selection.endLine ?? selection.startLine ?? 1}` : 'selection';
      el.append(h('div', { class: 'message-context' }, icon('selection'), ` about ${where}`));
    }
    return el;
  }

  private assistantMessage(request: string, query: string, status: MessageStatus = 'streaming'): Turn {
    const body = h('div', { class: 'message-body markdown' });
    const el = h('div', { class: 'message assistant', role: 'article', 'aria-label': 'askcode', 'data-status': status, 'data-request': request, 'aria-busy': String(status === 'streaming') },
      h('div', { class: 'message-role' }, icon('hubot'), ' askcode'),
      h('div', { class: 'snippets', hidden: true }),
      body,
      h('div', { class: 'message-meta' }),
    );
    if (status === 'streaming') body.append(h('span', { class: 'typing', 'aria-label': 'Searching your code' }, icon('loading codicon-modifier-spin'), ' Searching your code…'));
    this.messages.append(el);
    return { request, query, text: '', relevant: [], status, el, body, renderQueued: false, lastRender: 0 };
  }

  /**
   * Re-renders the Markdown on the leading edge (the first words show at once) and then at most every
   * {@link RENDER_INTERVAL_MS}: deltas arrive faster than re-parsing the whole answer is worth.
   * Timers, not requestAnimationFrame: a hidden webview gets no frames but must keep up.
   */
  private scheduleRender(turn: Turn): void {
    if (turn.renderQueued) return;
    const wait = turn.lastRender + RENDER_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.renderBody(turn);
      return;
    }
    turn.renderQueued = true;
    setTimeout(() => {
      turn.renderQueued = false;
      if (turn.status === 'streaming') this.renderBody(turn);
    }, wait);
  }

  private renderBody(turn: Turn): void {
    if (!turn.text) return;
    turn.lastRender = Date.now();
    const nearBottom = this.isNearBottom();
    turn.body.innerHTML = renderMarkdown(turn.text);
    this.decorateCodeBlocks(turn.body);
    if (nearBottom) this.scrollToEnd();
  }

  /** Adds copy / insert / save actions to every code block (built here, not in the sanitised HTML). */
  private decorateCodeBlocks(body: HTMLElement): void {
    for (const pre of body.querySelectorAll('pre')) {
      const wrap = h('div', { class: 'code-block' });
      const actions = h('div', { class: 'code-actions', role: 'toolbar', 'aria-label': 'Code actions' },
        actionButton('copy', 'copy', 'Copy code'),
        this.t.host === 'vscode' ? actionButton('insert', 'insert', 'Insert at cursor') : null,
        actionButton('save', 'save', 'Save as asset'),
      );
      pre.replaceWith(wrap);
      wrap.append(actions, pre);
    }
  }

  private renderSnippets(turn: Turn): void {
    const box = turn.el.querySelector<HTMLElement>('.snippets');
    if (!box) return;
    box.replaceChildren();
    if (!turn.relevant.length) {
      box.hidden = true;
      return;
    }
    const list = h('ol', { class: 'snippet-list', 'aria-label': 'Relevant code' });
    for (const r of turn.relevant) list.append(this.snippetItem(r));
    const details = h('details', { class: 'snippets-details', open: true },
      h('summary', {}, icon('references'), ` ${turn.relevant.length} relevant snippet${turn.relevant.length === 1 ? '' : 's'}`),
      list,
    );
    box.append(details);
    box.hidden = false;
  }

  private snippetItem(r: RelevantQGPTSeed): HTMLElement {
    const info = r.askcode;
    const start = info?.startLine;
    const end = info?.endLine ?? start;
    const li = h('li', { class: 'snippet' });
    if (r.path) {
      const label = `${this.displayPath(r.path)}${start ? `:${start}${end && end !== start ? `-${end}` : ''}` : ''}`;
      li.append(h('button', {
        type: 'button', class: 'snippet-ref', 'data-path': r.path, 'data-start': start, 'data-end': end,
        title: `Open ${r.path}${start ? ` at line ${start}` : ''}`, 'aria-label': `Open ${label}`,
      }, icon('file-code'), ` ${label}`));
    } else {
      const ext = r.seed?.asset?.format?.fragment?.metadata?.ext;
      li.append(h('span', { class: 'snippet-seed' }, icon('selection'), ` ${r.seed ? `snippet${ext ? ` (${ext})` : ''}` : (r.id ?? 'snippet')}`));
    }
    if (info?.symbol) li.append(h('span', { class: 'snippet-symbol', text: info.symbol }));
    if (info && typeof info.score === 'number') li.append(h('span', { class: 'snippet-score', title: 'Fused relevance score', text: info.score.toFixed(2) }));
    const why = whyLine(r);
    if (why) li.append(h('div', { class: 'snippet-why', text: why }));
    return li;
  }

  /** Path relative to the workspace folder it is in, for reading; the full path stays in data-path. */
  private displayPath(p: string): string {
    for (const f of this.config.folders) {
      const root = f.endsWith('/') || f.endsWith('\\') ? f : `${f}/`;
      if (p.startsWith(root)) return p.slice(root.length);
    }
    return p;
  }

  private onMessagesClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    const ref = target.closest<HTMLElement>('.snippet-ref');
    if (ref) {
      void this.openLocation(ref.dataset.path ?? '', Number(ref.dataset.start) || undefined, Number(ref.dataset.end) || undefined);
      return;
    }
    const chip = target.closest<HTMLElement>('.hint-chip, .example-chip');
    if (chip) {
      // Hints keep their backticks in the query: they tell the worker which words are names.
      const text = chip.dataset.query ?? chip.textContent ?? '';
      if (text) void this.ask({ query: text });
      return;
    }
    const action = target.closest<HTMLElement>('.code-action');
    if (action) {
      const code = action.closest('.code-block')?.querySelector('code');
      if (code) void this.codeAction(action.dataset.action ?? '', code.textContent ?? '', code.dataset.lang, action);
      return;
    }
    const link = target.closest<HTMLAnchorElement>('a[href]');
    if (link) {
      e.preventDefault();
      const href = link.getAttribute('href') ?? '';
      if (/^https?:/i.test(href)) {
        if (this.t.host === 'vscode') void this.t.request(UiOpenExternal, { url: href }).catch(() => {});
        else window.open(href, '_blank', 'noopener');
      }
    }
  }

  private async openLocation(path: string, startLine?: number, endLine?: number): Promise<void> {
    if (!path) return;
    if (this.t.host === 'vscode') {
      try {
        await this.t.request(UiOpenLocation, { path, startLine, endLine });
      } catch (e) {
        this.toast(messageOf(e));
      }
    } else {
      // A browser page cannot open files; VS Code's URL handler can, if it is installed.
      window.location.href = `vscode://file${path.startsWith('/') ? '' : '/'}${encodeURI(path)}:${startLine ?? 1}`;
    }
  }

  private async codeAction(action: string, code: string, lang: string | undefined, button: HTMLElement): Promise<void> {
    try {
      if (action === 'copy') {
        await navigator.clipboard.writeText(code);
        this.flash(button, 'check', 'Copied');
      } else if (action === 'insert') {
        await this.t.request(UiInsert, { text: code });
        this.flash(button, 'check', 'Inserted');
      } else if (action === 'save') {
        const saved = await this.t.request(AssetsSave, { seed: selectionSeed({ text: code, ext: lang }) });
        this.flash(button, 'check', `Saved as ${saved?.name ?? 'asset'}`);
      }
    } catch (e) {
      this.toast(messageOf(e));
    }
  }

  private flash(button: HTMLElement, iconName: string, label: string): void {
    const old = button.innerHTML;
    button.replaceChildren(icon(iconName));
    button.title = label;
    setTimeout(() => {
      button.innerHTML = old;
    }, 1200);
  }

  private toast(text: string): void {
    const el = h('div', { class: 'toast', role: 'alert', text });
    document.body.append(el);
    setTimeout(() => el.remove(), 4000);
  }

  private isNearBottom(): boolean {
    const m = this.messages;
    return m.scrollHeight - m.scrollTop - m.clientHeight < 80;
  }

  private scrollToEnd(): void {
    this.messages.scrollTop = this.messages.scrollHeight;
  }

  // ---- empty state and index -----------------------------------------------------------------

  private showEmptyState(): void {
    const examples = h('div', { class: 'examples', role: 'group', 'aria-label': 'Example questions' });
    for (const q of EXAMPLES) examples.append(h('button', { type: 'button', class: 'example-chip', text: q }));
    this.messages.replaceChildren(h('div', { class: 'empty-state' },
      h('div', { class: 'empty-icon' }, icon('comment-discussion')),
      h('h2', { text: 'Ask about your code' }),
      h('p', { text: 'askcode searches this workspace, cites the files and lines it used, and answers — on this machine.' }),
      examples,
      h('p', { class: 'empty-index muted' }),
      h('p', { class: 'muted', text: 'Tip: select code in the editor and run “askcode: Ask About Selection”.' }),
    ));
    this.updateEmptyIndex();
  }

  private clearEmptyState(): void {
    this.messages.querySelector('.empty-state')?.remove();
  }

  private async refreshIndex(): Promise<void> {
    try {
      this.showIndex(await this.t.request(IndexStatus, undefined));
    } catch (e) {
      if (e instanceof RpcError && e.kind === 'not_found') return;
      this.indexStatus.dataset.state = 'unknown';
      this.indexStatus.textContent = `Index: ${messageOf(e)}`;
    }
  }

  private showIndex(p: IndexProgress): void {
    this.indexStatus.dataset.state = p.state;
    this.indexStatus.dataset.bm25Only = String(p.bm25Only);
    this.indexStatus.replaceChildren(...indexStatusNodes(p));
    this.updateEmptyIndex();
  }

  private updateEmptyIndex(): void {
    const el = this.messages.querySelector('.empty-index');
    if (el) el.textContent = this.indexStatus.textContent?.trim() ?? '';
  }

  // ---- models --------------------------------------------------------------------------------

  private refreshModelsSoon(): void {
    if (this.modelsRefresh) clearTimeout(this.modelsRefresh);
    this.modelsRefresh = setTimeout(() => void this.refreshModels(), 150);
  }

  private async refreshModels(): Promise<void> {
    try {
      const snap = await this.t.request(ModelsSnapshot, undefined);
      this.models = (snap?.iterable ?? []).filter(isConversationModel);
    } catch (e) {
      this.models = [];
      this.modelNote.textContent = `Models unavailable: ${messageOf(e)}`;
    }
    this.renderPicker();
  }

  private renderPicker(): void {
    const saved = this.t.store.get<string>('model');
    const current = this.picker.value || saved;
    this.picker.replaceChildren();
    for (const m of this.models) {
      const notes: string[] = [];
      if (isExtractive(m)) notes.push('no language model');
      else if (m.downloaded === false && !m.cloud) notes.push('not downloaded');
      if (m.loaded) notes.push('loaded');
      if (m.custom) notes.push('custom');
      this.picker.append(h('option', { value: m.id, text: notes.length ? `${m.name} (${notes.join(', ')})` : m.name }));
    }
    if (!this.models.length) this.picker.append(h('option', { value: '', text: 'Default model' }));
    const pick = [current, this.config.defaultModel, this.models.find(isExtractive)?.id].find((id) => id && this.models.some((m) => m.id === id));
    if (pick) this.picker.value = pick;
    this.updateModelNote();
  }

  private updateModelNote(): void {
    const m = this.models.find((x) => x.id === this.picker.value);
    this.picker.dataset.extractive = String(!!m && isExtractive(m));
    let note = '';
    if (m && isExtractive(m)) note = 'No language model — extractive answers: quotes the relevant code and says where it is.';
    else if (m && m.downloaded === false && !m.cloud && !m.custom) note = `${m.name} is not downloaded yet.`;
    else if (m) note = `Answers by ${m.name}.`;
    this.modelNote.textContent = note;
    const offer = this.downloadOffer();
    this.downloadBtn.hidden = !offer || !!this.downloading;
    if (offer) {
      const label = `Download ${offer.name}${offer.bytes?.readable ? ` (${offer.bytes.readable})` : ''}`;
      this.downloadBtn.title = label;
      this.downloadBtn.setAttribute('aria-label', label);
    }
  }

  /** The local model to offer for download: the picked one if absent, else the smallest absent one when only the extractive answerer is there. */
  private downloadOffer(): Model | undefined {
    const downloadable = (m: Model) => m.downloaded === false && !m.cloud && !m.custom && !isExtractive(m);
    const picked = this.models.find((x) => x.id === this.picker.value);
    if (picked && downloadable(picked)) return picked;
    const haveLlm = this.models.some((m) => !isExtractive(m) && (m.downloaded !== false || m.cloud || m.custom));
    if (haveLlm) return undefined;
    return this.models.filter(downloadable).sort((a, b) => (a.bytes?.value ?? Infinity) - (b.bytes?.value ?? Infinity))[0];
  }

  private async downloadModel(): Promise<void> {
    const m = this.downloadOffer();
    if (!m) return;
    if (this.downloading) {
      await this.t.request(ModelDownloadCancel, { model: this.downloading }).catch(() => {});
      return;
    }
    this.downloading = m.id;
    this.onDownloadProgress(m.id, 0, 'INITIALIZED');
    try {
      await this.t.request(ModelDownload, { model: m.id });
      this.picker.value = m.id;
      this.t.store.set('model', m.id);
    } catch (e) {
      this.toast(`Download of ${m.name} failed: ${messageOf(e)}`);
    } finally {
      this.downloading = undefined;
      this.downloadProgress.hidden = true;
      await this.refreshModels();
    }
  }

  private onDownloadProgress(model: string, percentage: number | null, status?: string): void {
    if (model !== this.downloading) return;
    const bar = this.downloadProgress;
    bar.hidden = status === 'COMPLETED' || status === 'FAILED' || status === 'CANCELED';
    if (percentage === null) bar.removeAttribute('value');
    else bar.value = percentage;
    const name = this.models.find((m) => m.id === model)?.name ?? model;
    this.modelNote.textContent = `Downloading ${name}${percentage !== null ? ` — ${Math.round(percentage)}%` : '…'}`;
  }

  // ---- conversations -------------------------------------------------------------------------

  private setConversation(id: string | undefined): void {
    this.conversation = id;
    this.t.store.set('conversation', id);
  }

  newConversation(): void {
    if (this.active?.status === 'streaming') void this.stop();
    this.active = undefined;
    this.turns.clear();
    this.setConversation(undefined);
    this.setStreaming(false);
    this.showEmptyState();
  }

  private async toggleHistory(): Promise<void> {
    const open = this.historyPanel.hidden;
    this.historyPanel.hidden = !open;
    byId('history-toggle').setAttribute('aria-expanded', String(open));
    if (open) await this.loadHistory();
  }

  private async loadHistory(): Promise<void> {
    let list: ConversationSummary[];
    try {
      list = (await this.t.request(ConversationsList, undefined)) ?? [];
    } catch (e) {
      this.historyList.replaceChildren(h('li', { class: 'muted', text: `History unavailable: ${messageOf(e)}` }));
      return;
    }
    this.historyList.replaceChildren();
    if (!list.length) this.historyList.append(h('li', { class: 'muted', text: 'No conversations yet.' }));
    for (const c of [...list].sort((a, b) => b.updated.localeCompare(a.updated))) {
      const item = h('li', { class: 'history-item', 'data-id': c.id, 'aria-current': c.id === this.conversation ? 'true' : undefined },
        h('button', { type: 'button', class: 'history-open', title: `Open “${c.name}”`, text: c.name || 'Untitled' }),
        h('span', { class: 'muted history-date', text: new Date(c.updated).toLocaleString() }),
        iconButton(undefined, 'edit', `Rename “${c.name}”`, 'icon-button history-rename'),
        iconButton(undefined, 'trash', `Delete “${c.name}”`, 'icon-button history-delete'),
      );
      item.querySelector('.history-open')?.addEventListener('click', () => {
        this.historyPanel.hidden = true;
        void this.openConversation(c.id, true);
      });
      item.querySelector('.history-rename')?.addEventListener('click', () => this.renameInline(item, c));
      item.querySelector('.history-delete')?.addEventListener('click', () => void this.deleteConversation(c));
      this.historyList.append(item);
    }
  }

  /** Inline rename: `prompt()` is not available in VS Code webviews. */
  private renameInline(item: HTMLElement, c: ConversationSummary): void {
    const input = h('input', { class: 'history-rename-input', type: 'text', value: c.name, 'aria-label': 'New name' });
    const open = item.querySelector('.history-open');
    open?.replaceWith(input);
    input.focus();
    input.select();
    let done = false;
    const commit = async (save: boolean) => {
      if (done) return;
      done = true;
      const name = input.value.trim();
      if (save && name && name !== c.name) {
        try {
          await this.t.request(ConversationsRename, { id: c.id, name });
        } catch (e) {
          this.toast(messageOf(e));
        }
      }
      await this.loadHistory();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void commit(true);
      else if (e.key === 'Escape') {
        e.stopPropagation();
        void commit(false);
      }
    });
    input.addEventListener('blur', () => void commit(true));
  }

  private async deleteConversation(c: ConversationSummary): Promise<void> {
    try {
      await this.t.request(ConversationsDelete, { id: c.id });
      if (c.id === this.conversation) this.newConversation();
    } catch (e) {
      this.toast(messageOf(e));
    }
    await this.loadHistory();
  }

  private async openConversation(id: string, reportErrors: boolean): Promise<void> {
    let rec: ConversationRecord;
    try {
      rec = await this.t.request(ConversationsGet, { id });
    } catch (e) {
      if (reportErrors) this.toast(messageOf(e));
      else this.setConversation(undefined);
      return;
    }
    if (this.active?.status === 'streaming') await this.stop();
    this.active = undefined;
    this.turns.clear();
    this.setConversation(rec.id);
    this.messages.replaceChildren();
    let lastQuery = '';
    for (const m of rec.messages_ ?? []) {
      if (m.role === 'USER') {
        lastQuery = m.text;
        this.messages.append(this.userMessage(m.text));
      } else if (m.role === 'ASSISTANT') {
        const turn = this.assistantMessage(m.id, lastQuery, 'done');
        turn.text = m.text;
        turn.score = m.score;
        turn.relevant = (m.relevant ?? []).map((r) => ({
          id: r.id, path: r.path,
          askcode: r.startLine ? { startLine: r.startLine, endLine: r.endLine ?? r.startLine, score: r.score ?? 0, scores: { fused: r.score ?? 0 } } : undefined,
        }));
        this.renderSnippets(turn);
        this.renderBody(turn);
        const meta = turn.el.querySelector('.message-meta');
        if (meta) meta.textContent = [typeof m.score === 'number' ? `score ${m.score.toFixed(2)}` : '', m.model ?? ''].filter(Boolean).join(' · ');
      }
    }
    if (!this.messages.children.length) this.showEmptyState();
    this.scrollToEnd();
  }
}

function actionButton(action: string, iconName: string, label: string): HTMLButtonElement {
  const b = iconButton(undefined, iconName, label, 'icon-button code-action');
  b.dataset.action = action;
  return b;
}

/** A selection as a wire Seed (a fragment the worker can search or answer from). */
function selectionSeed(s: SelectionSeed): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: { id: 'askcode', name: 'OPEN_SOURCE', version: '0.1.0', platform: 'LINUX', onboarded: true, privacy: 'OPEN' },
      format: { fragment: { string: { raw: s.text }, metadata: s.ext ? { ext: s.ext } : undefined } },
      metadata: s.path ? { name: s.path } : undefined,
    },
  };
}

/** The "why" of a hit: per-signal scores and the matched terms. */
export function whyLine(r: RelevantQGPTSeed): string {
  const info = r.askcode;
  if (!info) return '';
  const parts: string[] = [];
  const s = info.scores ?? { fused: info.score };
  if (typeof s.bm25 === 'number') parts.push(`keywords ${s.bm25.toFixed(2)}${s.bm25Rank ? ` (#${s.bm25Rank})` : ''}`);
  if (typeof s.dense === 'number') parts.push(`meaning ${s.dense.toFixed(2)}${s.denseRank ? ` (#${s.denseRank})` : ''}`);
  if (info.matched?.length) parts.push(`matched ${info.matched.slice(0, 6).join(', ')}`);
  return parts.join(' · ');
}

function indexStatusNodes(p: IndexProgress): (Node | string)[] {
  const bm25 = p.bm25Only ? ' · keyword search only (no embedding model)' : '';
  switch (p.state) {
    case 'indexing': {
      const pct = p.filesTotal ? Math.floor((100 * p.files) / p.filesTotal) : 0;
      const bar = h('progress', { max: 100, value: pct, 'aria-label': 'Index progress' });
      const eta = p.eta ? ` · ~${Math.ceil(p.eta)} s left` : '';
      return [icon('sync codicon-modifier-spin'), ` Indexing ${p.files}/${p.filesTotal} files${eta}${bm25} `, bar];
    }
    case 'ready': {
      const emb = !p.bm25Only && p.chunks && p.embedded < p.chunks ? ` · embedding ${p.embedded}/${p.chunks}` : '';
      return [icon('check'), ` Index ready · ${p.files} files · ${p.chunks} chunks${emb}${bm25}`];
    }
    case 'paused':
      return [icon('debug-pause'), ` Indexing paused at ${p.files}/${p.filesTotal} files${bm25}`];
    case 'error':
      return [icon('error'), ` Index error: ${p.message ?? 'unknown'}`];
    default:
      return [icon('circle-outline'), ` Index idle${bm25}`];
  }
}
