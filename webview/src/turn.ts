/**
 * One turn of the conversation: the question (long ones collapsed with "show more") and its answer.
 * The answer comes first; its references sit collapsed under it; the relevance frame is shown at
 * once ("Found 12 references — answering…") before the first words arrive. The worker's extras
 * (the rewritten follow-up, notices, people) are rendered where a reader looks for them.
 */
import type {
  QGPTStreamOutput, RelevantQGPTSeed, AnswerExtras, AnswerNotice,
} from '../../server/src/protocol';
import type { SelectionSeed } from '../../server/src/protocol/ui';
import type { Paths } from './paths';
import { h, icon, withCodeSpans } from './dom';
import { renderMarkdown } from './markdown';
import { renderReferences } from './references';
import { renderNotices, type NoticeAction } from './notices';
import { renderPeople } from './people';
import { markCitations } from './citations';
import type { CodeActions } from './codeActions';

export type MessageStatus = 'streaming' | 'done' | 'stopped' | 'failed';

const RENDER_INTERVAL_MS = 50;
/** A question longer than this (characters or lines) shows collapsed. */
export const LONG_QUESTION_CHARS = 600;
export const LONG_QUESTION_LINES = 8;

/** What a turn needs from the app around it. */
export interface TurnDeps {
  paths: Paths;
  codeActions: CodeActions;
  onNoticeAction(a: NoticeAction): void;
  /** Whether the list is scrolled to its end (then new text keeps it there). */
  isNearBottom(): boolean;
  scrollToEnd(): void;
}

export function userMessage(text: string, paths: Paths, selection?: SelectionSeed): HTMLElement {
  const p = h('p', {}, ...withCodeSpans(text));
  const body = h('div', { class: 'message-body' }, p);
  const el = h('div', { class: 'message user', role: 'article', 'aria-label': 'You' },
    h('div', { class: 'message-role' }, icon('account'), ' You'),
    body,
  );
  if (text.length > LONG_QUESTION_CHARS || text.split('\n').length > LONG_QUESTION_LINES) {
    body.classList.add('collapsed');
    const more = h('button', { type: 'button', class: 'show-more', 'aria-expanded': 'false', text: 'Show more' });
    more.addEventListener('click', () => {
      const open = body.classList.toggle('collapsed') === false;
      more.textContent = open ? 'Show less' : 'Show more';
      more.setAttribute('aria-expanded', String(open));
    });
    el.append(more);
  }
  if (selection) {
    const where = selection.path ? `${paths.display(selection.path)}:${selection.startLine ?? 1}-${selection.endLine ?? selection.startLine ?? 1}` : 'selection';
    el.append(h('div', { class: 'message-context' }, icon('selection'), ` about ${where}`));
  }
  return el;
}

function extrasOf(out: unknown): AnswerExtras | undefined {
  return (out as { askcode?: AnswerExtras } | undefined)?.askcode;
}

export class AnswerView {
  conversation?: string;
  text = '';
  score?: number;
  relevant: RelevantQGPTSeed[] = [];
  extras: AnswerExtras = {};
  status: MessageStatus;
  readonly el: HTMLElement;
  readonly body: HTMLElement;
  /** Aborts the turn's side requests (hints, people) when it is dropped. */
  readonly aborter = new AbortController();
  stopTimer?: ReturnType<typeof setTimeout>;
  private readonly searched = h('div', { class: 'rewritten-query', hidden: true });
  private readonly notices = h('div', { class: 'notices-box', hidden: true });
  private readonly people = h('div', { class: 'people-box', hidden: true });
  private readonly refs = h('div', { class: 'snippets', hidden: true });
  private readonly meta = h('div', { class: 'message-meta' });
  private renderQueued = false;
  private lastRender = 0;

  constructor(readonly request: string, readonly query: string, private readonly deps: TurnDeps, status: MessageStatus = 'streaming') {
    this.status = status;
    this.body = h('div', { class: 'message-body markdown' });
    this.el = h('div', { class: 'message assistant', role: 'article', 'aria-label': 'askcode', 'data-status': status, 'data-request': request, 'aria-busy': String(status === 'streaming') },
      h('div', { class: 'message-role' }, icon('hubot'), ' askcode'),
      this.searched,
      this.notices,
      this.body,
      this.people,
      this.refs,
      this.meta,
    );
    if (status === 'streaming') this.body.append(h('span', { class: 'typing', 'aria-label': 'Searching your code' }, icon('loading codicon-modifier-spin'), ' Searching your code…'));
  }

  /** Applies one stream frame; returns the terminal status it carries, if any. */
  onFrame(f: QGPTStreamOutput): { status: MessageStatus; error?: string } | undefined {
    // Extras ride on the frame, and (from `qgpt/question`'s shape) on its answers output too.
    for (const x of [f.askcode, extrasOf(f.relevance?.answer), extrasOf(f.question)]) if (x) this.setExtras(x);
    if (f.relevance?.relevant) {
      this.relevant = f.relevance.relevant.iterable ?? [];
      renderReferences(this.refs, this.relevant, this.deps.paths);
      const typing = this.body.querySelector('.typing');
      const n = this.relevant.length;
      if (typing) typing.replaceChildren(icon('loading codicon-modifier-spin'), ` Found ${n} reference${n === 1 ? '' : 's'} — answering…`);
    }
    const answer = f.question?.answers?.iterable?.[0] ?? f.relevance?.answer?.answers?.iterable?.[0];
    if (answer && typeof answer.text === 'string') {
      this.text += answer.text;
      if (typeof answer.score === 'number') this.score = answer.score;
      this.scheduleRender();
    }
    switch (f.status) {
      case 'COMPLETED':
        return { status: 'done' };
      case 'FAILED':
      case 'UNKNOWN':
      case 'CANCELED':
        return { status: 'failed', error: f.errorMessage ?? 'The answer failed.' };
      case 'STOPPED':
      case 'RESET':
        return { status: 'stopped' };
      default:
        return undefined;
    }
  }

  /** Extras may come on the relevance frame and again on the last one: later ones add to earlier. */
  setExtras(x: AnswerExtras): void {
    const notices: AnswerNotice[] = [...(this.extras.notices ?? [])];
    for (const n of x.notices ?? []) if (!notices.some((o) => o.kind === n.kind && o.message === n.message)) notices.push(n);
    this.extras = { ...this.extras, ...x, notices };
    const q = this.extras.rewrittenQuery;
    this.searched.hidden = !q;
    if (q) this.searched.replaceChildren(icon('search'), h('span', { class: 'muted', text: ' Searched for: ' }), h('span', { class: 'rewritten-text' }, ...withCodeSpans(q)));
    this.notices.hidden = !notices.length;
    this.notices.replaceChildren(...(notices.length ? [renderNotices(notices, (a) => this.deps.onNoticeAction(a))] : []));
    const persons = this.extras.persons;
    this.people.hidden = !persons;
    this.people.replaceChildren(...(persons ? [renderPeople(persons, this.deps.paths)] : []));
  }

  /** Ends the turn; false when it had already ended. */
  finish(status: MessageStatus, error: string | undefined, metaParts: string[]): boolean {
    if (this.status !== 'streaming') return false;
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.status = status;
    this.renderBody();
    this.el.dataset.status = status;
    this.el.setAttribute('aria-busy', 'false');
    const parts: string[] = [];
    if (status === 'stopped') parts.push('Stopped');
    if (typeof this.score === 'number' && status === 'done') parts.push(`score ${this.score.toFixed(2)}`);
    this.meta.textContent = [...parts, ...metaParts].join(' · ');
    if (error) this.el.append(h('div', { class: 'message-error', role: 'alert' }, icon('error'), ' ', error));
    if (!this.text) {
      this.body.replaceChildren();
      if (status === 'done' && !this.relevant.length && !this.extras.persons) {
        this.body.append(h('p', { class: 'muted', text: 'No answer and no matching code. Try other words, or wait for the index to finish.' }));
      }
    }
    return true;
  }

  /** A finished answer from a saved conversation. */
  restore(text: string, relevant: RelevantQGPTSeed[], meta: string, rewrittenQuery?: string): void {
    if (rewrittenQuery) this.setExtras({ rewrittenQuery });
    this.text = text;
    this.relevant = relevant;
    renderReferences(this.refs, relevant, this.deps.paths);
    this.renderBody();
    this.meta.textContent = meta;
  }

  showHints(hints: string[]): void {
    const box = h('div', { class: 'hints', role: 'group', 'aria-label': 'Suggested questions' });
    for (const text of hints.slice(0, 5)) {
      box.append(h('button', { type: 'button', class: 'hint-chip', title: 'Ask this', 'data-query': text }, ...withCodeSpans(text)));
    }
    this.el.append(box);
  }

  /**
   * Re-renders the Markdown on the leading edge (the first words show at once) and then at most every
   * {@link RENDER_INTERVAL_MS}: deltas arrive faster than re-parsing the whole answer is worth.
   * Timers, not requestAnimationFrame: a hidden webview gets no frames but must keep up.
   */
  private scheduleRender(): void {
    if (this.renderQueued) return;
    const wait = this.lastRender + RENDER_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.renderBody();
      return;
    }
    this.renderQueued = true;
    setTimeout(() => {
      this.renderQueued = false;
      if (this.status === 'streaming') this.renderBody();
    }, wait);
  }

  private renderBody(): void {
    if (!this.text) return;
    this.lastRender = Date.now();
    const nearBottom = this.deps.isNearBottom();
    this.body.innerHTML = renderMarkdown(this.text);
    this.deps.codeActions.decorate(this.body);
    markCitations(this.body);
    if (nearBottom) this.deps.scrollToEnd();
  }
}
