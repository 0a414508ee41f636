/**
 * Conversation history: this workspace's conversations, with an "All folders" toggle for every
 * folder's. A conversation belongs to the folders it was held in (`folders` on its summary): the
 * worker filters by them (`{ all: true }` lifts that), and the list is filtered here too, for a
 * worker that does not; one without the field (saved before it was recorded) shows in both views.
 */
import {
  ConversationsList, ConversationsRename, ConversationsDelete, type ConversationSummary,
} from '../../server/src/protocol';
import type { RequestDef } from '../../server/src/protocol/base';
import type { Transport } from './transport';
import type { Paths } from './paths';
import { h, iconButton } from './dom';
import { messageOf } from './util';

type Summary = ConversationSummary & { folders?: string[]; folder?: string };

export interface HistoryDeps {
  current(): string | undefined;
  open(id: string): void;
  deleted(id: string): void;
  toast(text: string): void;
}

function foldersOf(c: Summary): string[] | undefined {
  if (Array.isArray(c.folders)) return c.folders;
  if (typeof c.folder === 'string') return [c.folder];
  return undefined;
}

export class History {
  readonly toggle = iconButton('history-toggle', 'history', 'Conversation history');
  private readonly list = h('ul', { id: 'history', class: 'history', role: 'list' });
  private readonly allBtn = h('button', { id: 'history-all', type: 'button', class: 'history-scope', 'aria-pressed': 'false', title: 'Show the conversations of every folder', text: 'All folders' });
  readonly panel = h('section', { id: 'history-panel', class: 'history-panel', hidden: true, 'aria-label': 'Conversation history' },
    h('div', { class: 'history-head' }, h('h2', { text: 'Conversations' }), h('span', { class: 'spacer' }), this.allBtn),
    this.list,
  );
  private all: boolean;

  constructor(private readonly t: Transport, private readonly paths: Paths, private readonly deps: HistoryDeps) {
    this.all = t.store.get<boolean>('historyAll') ?? false;
    this.allBtn.setAttribute('aria-pressed', String(this.all));
    this.toggle.addEventListener('click', () => void this.setOpen(this.panel.hidden));
    this.allBtn.addEventListener('click', () => {
      this.all = !this.all;
      t.store.set('historyAll', this.all);
      this.allBtn.setAttribute('aria-pressed', String(this.all));
      void this.load();
    });
  }

  async setOpen(open: boolean): Promise<void> {
    this.panel.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) await this.load();
  }

  /** This workspace's conversations, or all; `undefined` folders count as this workspace's. */
  private visible(list: Summary[]): Summary[] {
    if (this.all || !this.paths.folders.length) return list;
    const mine = new Set(this.paths.folders.map((f) => f.replace(/[\\/]+$/, '')));
    return list.filter((c) => {
      const fs = foldersOf(c);
      return !fs || fs.some((f) => mine.has(f.replace(/[\\/]+$/, '')));
    });
  }

  async load(): Promise<void> {
    let list: Summary[];
    try {
      // A worker that files conversations by folder lists this workspace's by default; `all` asks for every one.
      const def = ConversationsList as RequestDef<{ all?: boolean } | undefined, Summary[]>;
      list = (await this.t.request(def, this.all ? { all: true } : undefined)) ?? [];
    } catch (e) {
      this.list.replaceChildren(h('li', { class: 'muted', text: `History unavailable: ${messageOf(e)}` }));
      return;
    }
    const shown = this.visible(list);
    const hiddenCount = list.length - shown.length;
    this.allBtn.hidden = !list.some((c) => foldersOf(c));
    this.list.replaceChildren();
    if (!shown.length) {
      this.list.append(h('li', { class: 'muted', text: hiddenCount ? `No conversations in this workspace (${hiddenCount} in other folders).` : 'No conversations yet.' }));
    }
    for (const c of [...shown].sort((a, b) => b.updated.localeCompare(a.updated))) this.list.append(this.item(c));
  }

  private item(c: Summary): HTMLElement {
    const fs = foldersOf(c);
    const where = this.all && fs?.length ? fs.map((f) => f.split(/[\\/]/).filter(Boolean).pop() ?? f).join(', ') : '';
    const item = h('li', { class: 'history-item', 'data-id': c.id, 'aria-current': c.id === this.deps.current() ? 'true' : undefined },
      h('button', { type: 'button', class: 'history-open', title: `Open “${c.name}”`, text: c.name || 'Untitled' }),
      where ? h('span', { class: 'muted history-folder', text: where }) : null,
      h('span', { class: 'muted history-date', text: new Date(c.updated).toLocaleString() }),
      iconButton(undefined, 'edit', `Rename “${c.name}”`, 'icon-button history-rename'),
      iconButton(undefined, 'trash', `Delete “${c.name}”`, 'icon-button history-delete'),
    );
    item.querySelector('.history-open')?.addEventListener('click', () => {
      this.panel.hidden = true;
      this.deps.open(c.id);
    });
    item.querySelector('.history-rename')?.addEventListener('click', () => this.renameInline(item, c));
    item.querySelector('.history-delete')?.addEventListener('click', () => void this.remove(c));
    return item;
  }

  /** Inline rename: `prompt()` is not available in VS Code webviews. */
  private renameInline(item: HTMLElement, c: ConversationSummary): void {
    const input = h('input', { class: 'history-rename-input', type: 'text', value: c.name, 'aria-label': 'New name' });
    item.querySelector('.history-open')?.replaceWith(input);
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
          this.deps.toast(messageOf(e));
        }
      }
      await this.load();
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

  private async remove(c: ConversationSummary): Promise<void> {
    try {
      await this.t.request(ConversationsDelete, { id: c.id });
      this.deps.deleted(c.id);
    } catch (e) {
      this.deps.toast(messageOf(e));
    }
    await this.load();
  }
}
