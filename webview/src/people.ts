/**
 * People who know some code: as part of an answer (a question about people) and from "Find related
 * people" on a reference or a file view. Name, share of the relevant lines, files — the ranking is
 * the worker's (share of lines, recency as tie-breaker); this only shows it.
 */
import {
  QgptPersonsRelated, type Person, type QGPTPersonsRelatedOutput, type QGPTConversationMessage,
} from '../../server/src/protocol';
import type { Transport } from './transport';
import type { Paths } from './paths';
import { h, icon, iconButton } from './dom';
import { messageOf, placeLabel } from './util';

function nameOf(p: Person): string {
  const b = p.type?.basic ?? {};
  return b.name ?? b.username ?? b.email ?? p.id;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The people list (`.people`); the reason when it is empty (not a git repository, …). */
export function renderPeople(out: QGPTPersonsRelatedOutput, paths: Paths, title = 'People who know this code'): HTMLElement {
  const people = out.persons?.iterable ?? [];
  const box = h('section', { class: 'people', 'aria-label': title });
  box.append(h('h3', { class: 'people-title' }, icon('organization'), ` ${title}`));
  if (!people.length) {
    const reason = out.askcode?.reason ?? Object.values(out.explanations ?? {})[0];
    box.append(h('p', { class: 'muted people-empty', text: reason ? `No one found: ${reason}.` : 'No one found.' }));
    return box;
  }
  const total = people.reduce((s, p) => s + (p.askcode?.lines ?? 0), 0);
  const list = h('ol', { class: 'people-list' });
  for (const p of people) {
    const info = p.askcode;
    const email = p.type?.basic?.email;
    const share = info && total ? Math.round((100 * info.lines) / total) : undefined;
    const facts: string[] = [];
    if (info) {
      facts.push(share !== undefined ? `${share}% of lines (${info.lines} of ${total})` : plural(info.lines, 'line'));
      if (info.commits) facts.push(plural(info.commits, 'commit'));
      if (info.lastChange) facts.push(`last change ${info.lastChange.slice(0, 10)}`);
      if (info.codeowner) facts.push('CODEOWNER');
    }
    const files = (info?.files ?? []).filter((f) => f.lines > 0 || f.commits > 0).slice(0, 4);
    const why = out.explanations?.[p.id];
    const li = h('li', { class: 'person', 'data-share': share, title: why },
      h('div', { class: 'person-head' },
        icon('account'),
        h('span', { class: 'person-name', text: nameOf(p) }),
        email ? h('span', { class: 'person-email muted', text: email }) : null,
        share !== undefined ? h('span', { class: 'person-share', text: `${share}%` }) : null,
      ),
      facts.length || why ? h('div', { class: 'person-facts muted', text: facts.length ? facts.join(' · ') : why }) : null,
      files.length ? h('div', { class: 'person-files muted', text: files.map((f) => `${paths.display(f.path)} (${plural(f.lines, 'line')})`).join(', ') }) : null,
    );
    list.append(li);
  }
  box.append(list);
  return box;
}

/**
 * "Find related people" for a place: asks the worker with a one-message conversation that cites the
 * place (it resolves `path:lines` to those lines and blames them). Closing the panel cancels the
 * request ($/cancelRequest): `git blame` on a large file is not free.
 */
export function peoplePanel(t: Transport, paths: Paths, place: { path: string; startLine?: number; endLine?: number }): HTMLElement {
  const where = placeLabel(paths.display(place.path), place.startLine, place.endLine);
  const ac = new AbortController();
  const close = iconButton(undefined, 'close', 'Close', 'icon-button people-close');
  const body = h('div', { class: 'people-body' }, h('span', { class: 'muted' }, icon('loading codicon-modifier-spin'), ` Finding people for ${where}…`));
  const panel = h('div', { class: 'people-panel', role: 'region', 'aria-label': `People for ${where}`, 'aria-busy': 'true' }, close, body);
  close.addEventListener('click', () => {
    ac.abort();
    panel.remove();
  });
  const message: QGPTConversationMessage = { role: 'USER', text: where, timestamp: { value: new Date().toISOString() } };
  // transferables: the per-person lines and files (PersonInfo) come only with them.
  t.request(QgptPersonsRelated, { input: { conversation: { iterable: [message] } }, transferables: true }, ac.signal)
    .then((out) => body.replaceChildren(renderPeople(out, paths, `People for ${where}`)))
    .catch((e) => {
      if (!ac.signal.aborted) body.replaceChildren(h('p', { class: 'message-error', role: 'alert', text: `Could not find people: ${messageOf(e)}` }));
    })
    .finally(() => panel.setAttribute('aria-busy', 'false'));
  return panel;
}
