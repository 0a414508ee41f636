/**
 * What the reader should know beside an answer: the worker's notices as inline callouts (with their
 * action button: download the model, pick another), and toasts for errors, which stay until
 * dismissed — a message that vanishes before it is read says nothing.
 */
import type { AnswerNotice } from '../../server/src/protocol';
import { h, icon, iconButton } from './dom';

export type NoticeAction = NonNullable<AnswerNotice['action']>;

const NOTICE_ICONS: Record<AnswerNotice['kind'], string> = {
  'index-building': 'sync',
  'model-unavailable': 'warning',
  'no-results': 'search',
  info: 'info',
};

/** Callouts for an answer's notices; `onAction` runs a notice's button. */
export function renderNotices(notices: AnswerNotice[], onAction: (a: NoticeAction) => void): HTMLElement {
  const box = h('div', { class: 'notices' });
  for (const n of notices) {
    const el = h('div', { class: 'notice', role: 'note', 'data-kind': n.kind },
      icon(NOTICE_ICONS[n.kind] ?? 'info'),
      h('span', { class: 'notice-text', text: n.message }),
    );
    if (n.action) {
      const a = n.action;
      const btn = h('button', { type: 'button', class: 'secondary notice-action', 'data-command': a.command, 'data-model': a.model, text: a.label });
      btn.addEventListener('click', () => onAction(a));
      el.append(btn);
    }
    box.append(el);
  }
  return box;
}

/** Error toasts, stacked at the bottom; each has a close button and stays until it is used. */
export class Toasts {
  private readonly box = h('div', { id: 'toasts', class: 'toasts', 'aria-live': 'assertive' });

  constructor(parent: HTMLElement) {
    parent.append(this.box);
  }

  show(text: string): HTMLElement {
    // The same message twice (a retry that failed again) shows once.
    for (const t of this.box.querySelectorAll<HTMLElement>('.toast')) if (t.dataset.text === text) return t;
    const close = iconButton(undefined, 'close', 'Dismiss', 'icon-button toast-close');
    const el = h('div', { class: 'toast', role: 'alert', 'data-text': text }, icon('error'), h('span', { class: 'toast-text', text }), close);
    close.addEventListener('click', () => el.remove());
    this.box.append(el);
    return el;
  }
}
