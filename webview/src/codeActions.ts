/**
 * Code blocks in an answer: copy, insert at the cursor (VS Code only), save as an asset. An answer
 * may quote lines with a line-number gutter (`284 | class …`); the numbers move to a column of their
 * own that is never part of the code, so what is copied or saved is the code alone.
 */
import { AssetsSave } from '../../server/src/protocol';
import { UiInsert } from '../../server/src/protocol/ui';
import type { Transport } from './transport';
import { h, icon, iconButton } from './dom';
import { highlightCode } from './markdown';
import { copyText, messageOf, selectionSeed } from './util';

const GUTTER = /^\s*(\d+) \| ?(.*)$/;

/** `{ start, code }` when every non-empty line carries a `N | ` gutter with consecutive numbers. */
export function splitGutter(text: string): { start: number; code: string } | undefined {
  const lines = text.replace(/\n$/, '').split('\n');
  let start: number | undefined;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = GUTTER.exec(lines[i]!);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (start === undefined) start = n - i;
    else if (n !== start + i) return undefined;
    out.push(m[2]!);
  }
  return start === undefined ? undefined : { start, code: `${out.join('\n')}\n` };
}

/** A column of line numbers beside a block, hidden from selection and from screen readers. */
export function gutterEl(start: number, count: number): HTMLElement {
  const nums: string[] = [];
  for (let i = 0; i < count; i++) nums.push(String(start + i));
  return h('div', { class: 'code-gutter', 'aria-hidden': 'true', text: nums.join('\n') });
}

function actionButton(action: string, iconName: string, label: string): HTMLButtonElement {
  const b = iconButton(undefined, iconName, label, 'icon-button code-action');
  b.dataset.action = action;
  return b;
}

export class CodeActions {
  constructor(private readonly t: Transport, private readonly toast: (text: string) => void) {}

  /** Wraps every `pre` of a rendered answer with its actions (built here, not in the sanitised HTML). */
  decorate(body: HTMLElement): void {
    for (const pre of body.querySelectorAll('pre')) {
      const code = pre.querySelector('code');
      const wrap = h('div', { class: 'code-block' });
      const actions = h('div', { class: 'code-actions', role: 'toolbar', 'aria-label': 'Code actions' },
        actionButton('copy', 'copy', 'Copy code'),
        this.t.host === 'vscode' ? actionButton('insert', 'insert', 'Insert at cursor') : null,
        actionButton('save', 'save', 'Save as asset'),
      );
      pre.replaceWith(wrap);
      const split = code ? splitGutter(code.textContent ?? '') : undefined;
      if (code && split) {
        code.innerHTML = highlightCode(split.code, code.dataset.lang);
        code.dataset.startLine = String(split.start);
        wrap.classList.add('with-gutter');
        wrap.append(actions, h('div', { class: 'code-scroll' }, gutterEl(split.start, split.code.split('\n').length - 1), pre));
      } else wrap.append(actions, pre);
    }
  }

  /** Runs a `.code-action` click inside `root`; true when it was one. */
  handleClick(target: HTMLElement): boolean {
    const action = target.closest<HTMLElement>('.code-action');
    if (!action) return false;
    const code = action.closest('.code-block')?.querySelector('code');
    if (code) void this.run(action.dataset.action ?? '', code.textContent ?? '', code.dataset.lang, action);
    return true;
  }

  private async run(action: string, code: string, lang: string | undefined, button: HTMLElement): Promise<void> {
    try {
      if (action === 'copy') {
        await copyText(code);
        flash(button, 'check', 'Copied');
      } else if (action === 'insert') {
        await this.t.request(UiInsert, { text: code });
        flash(button, 'check', 'Inserted');
      } else if (action === 'save') {
        const saved = await this.t.request(AssetsSave, { seed: selectionSeed({ text: code, ext: lang }) });
        flash(button, 'check', `Saved as ${saved?.name ?? 'asset'}`);
      }
    } catch (e) {
      this.toast(messageOf(e));
    }
  }
}

/** A short confirmation on the button itself. */
export function flash(button: HTMLElement, iconName: string, label: string): void {
  const old = [...button.childNodes];
  const title = button.title;
  button.replaceChildren(icon(iconName));
  button.title = label;
  button.dataset.flash = label;
  setTimeout(() => {
    button.replaceChildren(...old);
    button.title = title;
    delete button.dataset.flash;
  }, 1200);
}
