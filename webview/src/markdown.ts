/**
 * Answer text → safe HTML. markdown-it with raw HTML off (tags in an answer show as text), then
 * DOMPurify on the result anyway: an answer quotes the user's code and a model's output, both
 * untrusted. Code blocks are highlighted with highlight.js core and a few common languages
 * (the full set would triple the bundle).
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash, c, cpp, csharp, css, diff, go, java, javascript, json, markdown, php, python, ruby, rust, shell, sql,
  typescript, xml, yaml,
};
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['ts', 'tsx', 'mts', 'cts'], { languageName: 'typescript' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['sh', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['cs'], { languageName: 'csharp' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['h', 'hpp', 'cc'], { languageName: 'cpp' });

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const md = new MarkdownIt({
  html: false,
  linkify: false,
  breaks: false,
  highlight(code, lang) {
    const name = lang.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (name && hljs.getLanguage(name)) {
      try {
        return `<pre class="hljs"><code class="hljs language-${escapeHtml(name)}" data-lang="${escapeHtml(name)}">${hljs.highlight(code, { language: name, ignoreIllegals: true }).value}</code></pre>`;
      } catch {
        /* fall through to plain text */
      }
    }
    return `<pre class="hljs"><code class="hljs"${name ? ` data-lang="${escapeHtml(name)}"` : ''}>${escapeHtml(code)}</code></pre>`;
  },
});

const DETAILS_OPEN = /^<details>\s*<summary>(.*)<\/summary>\s*$/;
const DETAILS_CLOSE = /^<\/details>\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Raw HTML stays off, with one exception answers use for "Sources": a collapsed section written as
 * a line `<details><summary>Title</summary>`, Markdown, and a line `</details>` — exactly these tags,
 * no attributes, outside code fences. The title is rendered inline (escaped); the body as Markdown.
 * A section still streaming (no closing line yet) runs to the end of the text.
 */
function renderWithDetails(text: string): string {
  const lines = text.split('\n');
  let out = '';
  let chunk: string[] = [];
  let fence: string | undefined;
  let summary: string | undefined;
  const flush = () => {
    const body = md.render(chunk.join('\n'));
    out += summary === undefined ? body : `<details class="answer-details"><summary>${md.renderInline(summary)}</summary>${body}</details>`;
    chunk = [];
  };
  for (const line of lines) {
    const f = FENCE.exec(line)?.[1];
    if (f && (!fence || (f[0] === fence[0] && f.length >= fence.length))) fence = fence ? undefined : f;
    else if (!fence) {
      const open = summary === undefined ? DETAILS_OPEN.exec(line) : null;
      if (open) {
        flush();
        summary = open[1] ?? '';
        continue;
      }
      if (summary !== undefined && DETAILS_CLOSE.test(line)) {
        flush();
        summary = undefined;
        continue;
      }
    }
    chunk.push(line);
  }
  flush();
  return out;
}

/** Markdown of an answer (possibly half-streamed) as sanitised HTML. */
export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(renderWithDetails(text), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** Highlighted HTML of a code snippet (already escaped by highlight.js), for previews. */
export function highlightCode(code: string, lang?: string): string {
  const name = lang?.toLowerCase();
  if (name && hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  return escapeHtml(code);
}
