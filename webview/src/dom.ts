/** Tiny DOM builders: the UI is built with createElement and textContent, never from strings, except sanitised Markdown. */

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * Plain text whose `code spans` show as code, and nothing else of Markdown: for questions, which
 * people (and the hints) write with backticks around names.
 */
export function withCodeSpans(text: string): Child[] {
  return text
    .split(/(`[^`\n]+`)/)
    .filter(Boolean)
    .map((part) => (part.length > 2 && part.startsWith('`') && part.endsWith('`') ? h('code', { text: part.slice(1, -1) }) : part));
}

/** A codicon (the font VS Code's own UI uses). */
export function icon(name: string): HTMLElement {
  return h('i', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** An icon button with an accessible name and a tooltip. */
export function iconButton(id: string | undefined, iconName: string, label: string, cls = 'icon-button'): HTMLButtonElement {
  return h('button', { id, class: cls, type: 'button', title: label, 'aria-label': label }, icon(iconName));
}

export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
}
