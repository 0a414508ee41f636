/**
 * The chat panel's composition root: builds the components (composer, turns, references, model
 * picker, history, index status, code actions, notices, citations) and routes the transport's
 * notifications to them. Owns the conversation and the turn that is streaming. Talks only through a
 * {@link Transport}, so the same code runs in a VS Code webview and in the bridge's browser page.
 */
import {
  QgptStream, QgptStreamOutputNotification, QgptHints, ModelsIdentifiersNotification, ModelDownloadProgressNotification,
  IndexProgressNotification, ConversationsGet, WorkspaceFolders,
  type QGPTStreamInput, type QGPTStreamOutput, type ConversationRecord, type QGPTRelevanceInput,
} from '../../server/src/protocol';
import {
  UiReady, UiAsk, UiConfigChanged, UiWorkerState, UiNewConversation, UiOpenExternal, type UiConfig, type AskParams,
} from '../../server/src/protocol/ui';
import type { Transport } from './transport';
import { h, iconButton } from './dom';
import { Paths } from './paths';
import { Composer } from './composer';
import { AnswerView, userMessage, type MessageStatus, type TurnDeps } from './turn';
import { ModelPicker } from './modelPicker';
import { History } from './history';
import { IndexStatusView, emptyState } from './indexStatus';
import { CodeActions } from './codeActions';
import { Toasts, type NoticeAction } from './notices';
import { Citations, placeOf } from './citations';
import { peoplePanel } from './people';
import { newId, messageOf, selectionSeed } from './util';

export class ChatApp {
  private readonly paths = new Paths();
  private conversation?: string;
  private active?: AnswerView;
  private readonly turns = new Map<string, AnswerView>();

  private readonly messages = h('main', { id: 'messages', class: 'messages', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  private readonly connection = h('div', { id: 'connection', class: 'connection', role: 'alert', hidden: true });
  private readonly toasts: Toasts;
  private readonly composer: Composer;
  private readonly models: ModelPicker;
  private readonly index: IndexStatusView;
  private readonly history: History;
  private readonly codeActions: CodeActions;
  private readonly citations: Citations;
  private readonly turnDeps: TurnDeps;

  constructor(private readonly t: Transport, root: HTMLElement) {
    const toast = (text: string) => this.toast(text);
    this.composer = new Composer({ send: (query) => void this.ask({ query }), stop: () => void this.stop(), streaming: () => this.active?.status === 'streaming' });
    this.models = new ModelPicker(t, toast);
    this.index = new IndexStatusView(t);
    this.index.onChange = () => this.updateEmptyIndex();
    this.history = new History(t, this.paths, {
      current: () => this.conversation,
      open: (id) => void this.openConversation(id, true),
      deleted: (id) => id === this.conversation && this.newConversation(),
      toast,
    });
    this.codeActions = new CodeActions(t, toast);
    this.citations = new Citations(t, this.paths, toast);
    this.turnDeps = {
      paths: this.paths,
      codeActions: this.codeActions,
      onNoticeAction: (a) => this.onNoticeAction(a),
      isNearBottom: () => this.messages.scrollHeight - this.messages.scrollTop - this.messages.clientHeight < 80,
      scrollToEnd: () => this.scrollToEnd(),
    };
    const newConv = iconButton('new-conversation', 'add', 'New conversation');
    newConv.addEventListener('click', () => this.newConversation());
    const header = h('header', { class: 'header' },
      h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat' },
        this.models.picker, this.models.downloadBtn, this.models.progress, h('span', { class: 'spacer' }), this.history.toggle, newConv),
      this.models.note, this.index.el, this.connection,
    );
    const chat = h('div', { class: 'chat' }, header, this.history.panel, this.messages, this.composer.el);
    root.replaceChildren(chat);
    this.toasts = new Toasts(chat);
    this.conversation = t.store.get<string>('conversation');
    this.messages.addEventListener('click', (e) => this.onMessagesClick(e));
    this.messages.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.target as HTMLElement).classList.contains('citation')) this.onMessagesClick(e);
    });
    this.wire();
    this.showEmptyState();
  }

  private wire(): void {
    const t = this.t;
    t.onNotification(QgptStreamOutputNotification, (f) => this.onFrame(f));
    t.onNotification(IndexProgressNotification, (p) => this.index.show(p));
    t.onNotification(ModelsIdentifiersNotification, () => this.models.refreshSoon());
    t.onNotification(ModelDownloadProgressNotification, (p) => this.models.onProgress(p.model, p.progress.percentage ?? null, p.progress.status));
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
    await Promise.all([this.models.refresh(), this.index.refresh(), this.t.host === 'browser' ? this.loadFolders() : undefined]);
  }

  /** A browser page has no host to tell it the folders: the worker does. */
  private async loadFolders(): Promise<void> {
    try {
      this.paths.folders = (await this.t.request(WorkspaceFolders, undefined))?.folders ?? [];
    } catch {
      /* an older worker: paths show in full */
    }
  }

  private applyConfig(c: UiConfig): void {
    this.paths.folders = c.folders;
    this.models.defaultModel = c.defaultModel;
    this.models.render();
  }

  private setConnection(message: string | undefined): void {
    this.connection.hidden = !message;
    this.connection.textContent = message ?? '';
  }

  toast(text: string): void {
    this.toasts.show(text);
  }

  // ---- asking --------------------------------------------------------------------------------

  /** Starts one streamed answer: relevance over the workspace (or the selection), then the answer. */
  async ask(p: AskParams): Promise<void> {
    if (this.active?.status === 'streaming') await this.stop();
    this.clearEmptyState();
    const request = newId();
    const relevance: QGPTRelevanceInput = { query: p.query, options: { question: true } };
    if (p.selection) relevance.seeds = { iterable: [selectionSeed(p.selection)] };
    else if (p.paths?.length) relevance.paths = p.paths;
    else relevance.options = { question: true, database: true };
    const model = this.models.value;
    if (model) relevance.model = model;
    const input: QGPTStreamInput = { relevance, request };
    if (this.conversation) input.conversation = this.conversation;

    this.messages.append(userMessage(p.query, this.paths, p.selection));
    const turn = new AnswerView(request, p.query, this.turnDeps);
    this.messages.append(turn.el);
    turn.conversation = this.conversation;
    this.active = turn;
    this.turns.set(request, turn);
    this.composer.setStreaming(true);
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
    this.composer.stopping();
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
    const end = turn.onFrame(f);
    if (end) this.finish(turn, end.status, end.error);
  }

  private finish(turn: AnswerView, status: MessageStatus, error?: string): void {
    const model = this.models.currentName();
    if (!turn.finish(status, error, model ? [model] : [])) return;
    if (turn === this.active) this.composer.setStreaming(false);
    if (status === 'done') void this.loadHints(turn);
  }

  private async loadHints(turn: AnswerView): Promise<void> {
    try {
      const out = await this.t.request(QgptHints, {
        query: turn.query,
        answer: { score: turn.score ?? 0, text: turn.text },
        relevant: { iterable: turn.relevant },
      }, turn.aborter.signal);
      const hints = (out?.answers?.iterable ?? []).map((a) => a.text).filter((s) => s && s.trim() && s.trim() !== turn.query);
      if (!hints.length || turn.aborter.signal.aborted) return;
      turn.showHints(hints);
      this.scrollToEnd();
    } catch {
      /* hints are a nicety: without them the answer still stands */
    }
  }

  private onNoticeAction(a: NoticeAction): void {
    if (a.command === 'download-model') void this.models.download(a.model);
    else this.models.focus();
  }

  // ---- clicks in the conversation -----------------------------------------------------------

  private onMessagesClick(e: Event): void {
    const target = e.target as HTMLElement;
    const turn = this.turns.get(target.closest<HTMLElement>('.message.assistant')?.dataset.request ?? '');
    const known = (turn?.relevant ?? []).map((r) => r.path ?? '').filter(Boolean);
    const ref = target.closest<HTMLElement>('.snippet-ref, .citation');
    if (ref) {
      e.preventDefault();
      const place = placeOf(ref);
      if (place) void this.citations.open(place, ref, known);
      return;
    }
    const people = target.closest<HTMLElement>('.snippet-people');
    if (people) {
      const place = placeOf(people);
      const li = people.closest('li');
      const open = li?.nextElementSibling;
      if (open?.classList.contains('people-panel')) (open.querySelector('.people-close') as HTMLElement | null)?.click();
      else if (place && li) li.after(peoplePanel(this.t, this.paths, place));
      return;
    }
    const chip = target.closest<HTMLElement>('.hint-chip, .example-chip');
    if (chip) {
      // Hints keep their backticks in the query: they tell the worker which words are names.
      const text = chip.dataset.query ?? chip.textContent ?? '';
      if (text) void this.ask({ query: text });
      return;
    }
    if (this.codeActions.handleClick(target)) return;
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

  private scrollToEnd(): void {
    this.messages.scrollTop = this.messages.scrollHeight;
  }

  // ---- empty state and conversations ---------------------------------------------------------

  private showEmptyState(): void {
    this.messages.replaceChildren(emptyState(this.index.text));
  }

  private clearEmptyState(): void {
    this.messages.querySelector('.empty-state')?.remove();
  }

  private updateEmptyIndex(): void {
    const el = this.messages.querySelector('.empty-index');
    if (el) el.textContent = this.index.text;
  }

  private setConversation(id: string | undefined): void {
    this.conversation = id;
    this.t.store.set('conversation', id);
  }

  /** Drops every turn; their side requests (hints, people) are cancelled. */
  private clearTurns(): void {
    for (const turn of this.turns.values()) turn.aborter.abort();
    this.active = undefined;
    this.turns.clear();
  }

  newConversation(): void {
    if (this.active?.status === 'streaming') void this.stop();
    this.clearTurns();
    this.setConversation(undefined);
    this.composer.setStreaming(false);
    this.showEmptyState();
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
    this.clearTurns();
    this.setConversation(rec.id);
    this.messages.replaceChildren();
    let lastQuery = '';
    let searched: string | undefined;
    for (const m of rec.messages_ ?? []) {
      if (m.role === 'USER') {
        lastQuery = m.text;
        searched = (m as { rewrittenQuery?: string }).rewrittenQuery;
        this.messages.append(userMessage(m.text, this.paths));
      } else if (m.role === 'ASSISTANT') {
        const turn = new AnswerView(m.id, lastQuery, this.turnDeps, 'done');
        this.turns.set(m.id, turn);
        this.messages.append(turn.el);
        turn.score = m.score;
        const relevant = (m.relevant ?? []).map((r) => ({
          id: r.id, path: r.path,
          askcode: r.startLine ? { startLine: r.startLine, endLine: r.endLine ?? r.startLine, score: r.score ?? 0, scores: { fused: r.score ?? 0 } } : undefined,
        }));
        turn.restore(m.text, relevant, [typeof m.score === 'number' ? `score ${m.score.toFixed(2)}` : '', m.model ?? ''].filter(Boolean).join(' · '), searched);
      }
    }
    if (!this.messages.children.length) this.showEmptyState();
    this.scrollToEnd();
  }
}
