/**
 * The references under an answer, as the editors' own chats show them: "N references", collapsed;
 * each a workspace-relative `path:lines` sorted by the score it shows, with the why (per-signal
 * scores, matched terms) on hover and when expanded, and "find related people".
 */
import type { RelevantQGPTSeed } from '../../server/src/protocol';
import type { Paths } from './paths';
import { h, icon, iconButton } from './dom';
import { placeLabel } from './util';

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

/** Best first by the score shown; unscored ones keep their order after the scored. */
export function sortByScore(relevant: RelevantQGPTSeed[]): RelevantQGPTSeed[] {
  return relevant
    .map((r, i) => ({ r, i, s: typeof r.askcode?.score === 'number' ? r.askcode.score : -Infinity }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.r);
}

/** `.snippets`: a collapsed `<details>` with "N references"; empty and hidden when there are none. */
export function renderReferences(box: HTMLElement, relevant: RelevantQGPTSeed[], paths: Paths): void {
  const wasOpen = box.querySelector('details')?.open ?? false;
  box.replaceChildren();
  box.hidden = !relevant.length;
  if (!relevant.length) return;
  const list = h('ol', { class: 'snippet-list', 'aria-label': 'References' });
  for (const r of sortByScore(relevant)) list.append(referenceItem(r, paths));
  const n = relevant.length;
  box.append(h('details', { class: 'snippets-details', open: wasOpen },
    h('summary', {}, icon('references'), h('span', { class: 'snippets-count', text: ` ${n} reference${n === 1 ? '' : 's'}` })),
    list,
  ));
}

function referenceItem(r: RelevantQGPTSeed, paths: Paths): HTMLElement {
  const info = r.askcode;
  const start = info?.startLine;
  const end = info?.endLine ?? start;
  const why = whyLine(r);
  const li = h('li', { class: 'snippet', title: why || undefined });
  if (r.path) {
    const label = placeLabel(paths.display(r.path), start, end);
    li.append(h('button', {
      type: 'button', class: 'snippet-ref', 'data-path': r.path, 'data-start': start, 'data-end': end,
      title: `Open ${label}${why ? ` — ${why}` : ''}`, 'aria-label': `Open ${label}`,
    }, icon('file-code'), ` ${label}`));
  } else {
    const ext = r.seed?.asset?.format?.fragment?.metadata?.ext;
    li.append(h('span', { class: 'snippet-seed' }, icon('selection'), ` ${r.seed ? `snippet${ext ? ` (${ext})` : ''}` : (r.id ?? 'snippet')}`));
  }
  if (info?.symbol) li.append(h('span', { class: 'snippet-symbol', text: info.symbol }));
  if (info && typeof info.score === 'number') li.append(h('span', { class: 'snippet-score', title: 'Relevance score (fused)', text: info.score.toFixed(2) }));
  if (r.path) {
    const people = iconButton(undefined, 'organization', 'Find related people', 'icon-button snippet-people');
    people.dataset.path = r.path;
    if (start) people.dataset.start = String(start);
    if (end) people.dataset.end = String(end);
    li.append(people);
  }
  if (why) li.append(h('div', { class: 'snippet-why', text: why }));
  return li;
}
