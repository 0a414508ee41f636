/**
 * Citations: `path:lines` in an answer (a Markdown link or inline code) and the references under it.
 * Inside VS Code a citation opens the editor at those lines; a browser page cannot open files, so it
 * shows the lines inline (`askcode/code/read` over the page's connection) with "copy location" and
 * "find related people".
 */
import { CodeRead, type CodeReadResult } from '../../server/src/protocol';
import { UiOpenLocation } from '../../server/src/protocol/ui';
import type { Transport } from './transport';
import type { Paths } from './paths';
import { h, icon, iconButton } from './dom';
import { highlightCode } from './markdown';
import { gutterEl, flash } from './codeActions';
import { peoplePanel } from './people';
import { copyText, messageOf, placeLabel } from './util';

export interface Place {
  path: string;
  startLine?: number;
  endLine?: number;
}

/** `src/app.py:12-30`, `src/app.py:12`, `src/app.py#L12-L30`; the path must look like a file. */
const PLACE = /^((?:[A-Za-z]:)?[^\s:#?]*[\w-]\.[A-Za-z][\w]{0,9})(?::(\d+)(?:-(\d+))?|#L(\d+)(?:-L?(\d+))?)?$/;

export function parsePlace(text: string): Place | undefined {
  const m = PLACE.exec(text.trim());
  if (!m || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  const start = Number(m[2] ?? m[4]) || undefined;
  const end = Number(m[3] ?? m[5]) || start;
  return { path: m[1]!, startLine: start, endLine: end };
}

function setPlace(el: HTMLElement, p: Place): void {
  el.classList.add('citation');
  el.dataset.path = p.path;
  if (p.startLine) el.dataset.start = String(p.startLine);
  if (p.endLine) el.dataset.end = String(p.endLine);
}

/**
 * Marks the citations of a rendered answer: links whose target is a place, and inline code that is
 * a `path:lines`. Paths stay as written; {@link Citations.open} resolves them.
 */
export function markCitations(body: HTMLElement): void {
  for (const a of body.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    const p = parsePlace(decodeURI(a.getAttribute('href') ?? ''));
    if (p) setPlace(a, p);
  }
  for (const code of body.querySelectorAll<HTMLElement>(':not(pre) > code')) {
    if (code.closest('a')) continue;
    const p = parsePlace(code.textContent ?? '');
    if (!p?.startLine) continue;
    setPlace(code, p);
    code.setAttribute('role', 'link');
    code.tabIndex = 0;
    code.title = `Open ${placeLabel(p.path, p.startLine, p.endLine)}`;
  }
}

export function placeOf(el: HTMLElement): Place | undefined {
  const path = el.dataset.path;
  if (!path) return undefined;
  return { path, startLine: Number(el.dataset.start) || undefined, endLine: Number(el.dataset.end) || undefined };
}

export class Citations {
  constructor(
    private readonly t: Transport,
    private readonly paths: Paths,
    private readonly toast: (text: string) => void,
  ) {}

  /**
   * Opens a place: the editor in VS Code, an inline view after `anchor` in a browser (a second
   * click closes it). `known` are the answer's reference paths, to resolve a relative citation.
   */
  async open(place: Place, anchor: HTMLElement, known: string[] = []): Promise<void> {
    const path = this.paths.resolve(place.path, known);
    if (this.t.host === 'vscode') {
      try {
        await this.t.request(UiOpenLocation, { path, startLine: place.startLine, endLine: place.endLine });
      } catch (e) {
        this.toast(messageOf(e));
      }
      return;
    }
    const host = anchor.closest('li, p, .snippet, td') ?? anchor;
    const key = placeLabel(path, place.startLine, place.endLine);
    const next = host.nextElementSibling;
    if (next instanceof HTMLElement && next.classList.contains('code-view') && next.dataset.key === key) {
      next.remove();
      return;
    }
    const view = this.codeView({ ...place, path }, key);
    host.after(view);
  }

  /** An inline view of some lines of a file, loaded with `askcode/code/read`. */
  private codeView(place: Place, key: string): HTMLElement {
    const ac = new AbortController();
    const label = placeLabel(this.paths.display(place.path), place.startLine, place.endLine);
    const title = h('span', { class: 'code-view-title' }, icon('file-code'), h('span', { class: 'code-view-path', text: label }));
    const copyLoc = h('button', { type: 'button', class: 'icon-button copy-location', title: 'Copy location', 'aria-label': 'Copy location' }, icon('copy'), h('span', { text: ' Copy location' }));
    const people = iconButton(undefined, 'organization', 'Find related people', 'icon-button code-view-people');
    const close = iconButton(undefined, 'close', 'Close', 'icon-button code-view-close');
    const body = h('div', { class: 'code-view-body' }, h('span', { class: 'muted' }, icon('loading codicon-modifier-spin'), ' Loading…'));
    const view = h('div', { class: 'code-view', role: 'region', 'aria-label': label, 'data-key': key, 'aria-busy': 'true' },
      h('div', { class: 'code-view-head' }, title, h('span', { class: 'spacer' }), copyLoc, people, close),
      body,
    );
    let location = label;
    copyLoc.addEventListener('click', () => {
      copyText(location).then(() => flash(copyLoc, 'check', 'Copied'), (e) => this.toast(messageOf(e)));
    });
    people.addEventListener('click', () => {
      const open = view.querySelector('.people-panel');
      if (open) open.remove();
      else body.after(peoplePanel(this.t, this.paths, place));
    });
    close.addEventListener('click', () => {
      ac.abort();
      view.remove();
    });
    this.t.request(CodeRead, { path: place.path, startLine: place.startLine, endLine: place.endLine }, ac.signal)
      .then((r: CodeReadResult) => {
        location = placeLabel(r.relativePath || this.paths.display(r.path), r.startLine, r.endLine);
        title.querySelector('.code-view-path')!.textContent = location;
        const text = r.text.endsWith('\n') ? r.text : `${r.text}\n`;
        const code = h('code', { class: 'hljs', 'data-lang': r.language });
        code.innerHTML = highlightCode(text, r.language);
        body.replaceChildren(h('div', { class: 'code-scroll' }, gutterEl(r.startLine, text.split('\n').length - 1), h('pre', { class: 'hljs' }, code)));
        if (r.endLine < r.totalLines || r.startLine > 1) body.append(h('div', { class: 'muted code-view-more', text: `lines ${r.startLine}–${r.endLine} of ${r.totalLines}` }));
      })
      .catch((e) => {
        if (!ac.signal.aborted) body.replaceChildren(h('p', { class: 'message-error', role: 'alert', text: messageOf(e) }));
      })
      .finally(() => view.setAttribute('aria-busy', 'false'));
    return view;
  }
}
