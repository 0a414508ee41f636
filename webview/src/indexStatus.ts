/** The index status line in the header, and the empty state that repeats it before the first question. */
import { IndexStatus, type IndexProgress } from '../../server/src/protocol';
import type { Transport } from './transport';
import { RpcError } from './transport';
import { h, icon } from './dom';
import { messageOf } from './util';

const EXAMPLES = [
  'Where is the configuration loaded?',
  'How does error handling work in this project?',
  'What calls the main entry point?',
];

export function indexStatusNodes(p: IndexProgress): (Node | string)[] {
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

export class IndexStatusView {
  readonly el = h('div', { id: 'index-status', class: 'index-status', role: 'status', 'aria-live': 'polite', 'data-state': 'unknown' });
  /** Called after each change, so the empty state can repeat the line. */
  onChange: () => void = () => {};

  constructor(private readonly t: Transport) {}

  get text(): string {
    return this.el.textContent?.trim() ?? '';
  }

  async refresh(): Promise<void> {
    try {
      this.show(await this.t.request(IndexStatus, undefined));
    } catch (e) {
      if (e instanceof RpcError && e.kind === 'not_found') return;
      this.el.dataset.state = 'unknown';
      this.el.textContent = `Index: ${messageOf(e)}`;
      this.onChange();
    }
  }

  show(p: IndexProgress): void {
    this.el.dataset.state = p.state;
    this.el.dataset.bm25Only = String(p.bm25Only);
    this.el.replaceChildren(...indexStatusNodes(p));
    this.onChange();
  }
}

/** Before the first question: what askcode does, example questions, and the index line. */
export function emptyState(indexLine: string): HTMLElement {
  const examples = h('div', { class: 'examples', role: 'group', 'aria-label': 'Example questions' });
  for (const q of EXAMPLES) examples.append(h('button', { type: 'button', class: 'example-chip', text: q }));
  return h('div', { class: 'empty-state' },
    h('div', { class: 'empty-icon' }, icon('comment-discussion')),
    h('h2', { text: 'Ask about your code' }),
    h('p', { text: 'askcode searches this workspace, cites the files and lines it used, and answers — on this machine.' }),
    examples,
    h('p', { class: 'empty-index muted', text: indexLine }),
    h('p', { class: 'muted', text: 'Tip: select code in the editor and run “askcode: Ask About Selection”.' }),
  );
}
