import { isStopWord } from './tokens';

/**
 * One concern: the messages code writes as string literals ("No config file found, using default
 * configuration", "Tip: There are .env or .flaskenv files present."), so that an issue which
 * pastes a warning, an error or a line of output finds the code that says it. A message is kept
 * as its words in order, lower-cased, each piece between placeholders (`%s`, `{name}`, `${x}`)
 * on its own; the words are matched, not the punctuation, since an issue quotes the text as
 * printed.
 */

/** A string literal of one line (Python's prefixes allowed), or a template literal. */
const STRING = /(?<![A-Za-z0-9_])[rbfuRBFU]{0,2}(?:"((?:[^"\\\n]|\\.){8,300})"|'((?:[^'\\\n]|\\.){8,300})'|`((?:[^`\\]|\\.){8,300})`)/g;
const PLACEHOLDER = /%[-+ #0-9.]*[sdrfiexXgc]|%\([A-Za-z_]+\)[sdrf]|\$\{[^}]*\}|\{[^{}]*\}|\\[ntr]/g;
const WORD = /[A-Za-z]+(?:'[a-z]+)?/g;

/**
 * What the language's runtime says, which code repeats but an issue pastes from a traceback of
 * its own: Python's and JavaScript's common errors, as words.
 */
const RUNTIME = [
  'object has no attribute', 'maximum recursion depth exceeded', 'index out of range', 'object is not callable',
  'object is not iterable', 'object is not subscriptable', 'unsupported operand type', 'not supported between instances of',
  'got an unexpected keyword argument', 'required positional argument', 'takes no arguments', 'cannot import name',
  'no module named', 'invalid literal for int', 'division by zero', 'is not defined', 'cannot read properties of',
  'is not a function', 'cannot read property',
];

/** Fewer words than this are names and fragments ("test session starts", "from sympy import"). */
const MIN_MESSAGE_WORDS = 4;
/** Words from the start of a message that key it. */
const KEY_WORDS = 3;

function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** Mostly function words or letters ("is not in the", "x x x x", "for j in range"): code or maths, nothing particular. */
function particular(words: string[]): boolean {
  const real = new Set(words.filter((w) => w.length >= 3));
  return real.size >= 3 && [...real].filter((w) => !isStopWord(w)).length >= 2;
}

/** What stands for a placeholder in a message template ("the property … is not defined for …"). */
const GAP = '…';
/** The words a placeholder's value may take in a quote of the message. */
const MAX_GAP_WORDS = 4;
/** Words from the start of a template (before its first placeholder) that key it. */
const TEMPLATE_KEY_WORDS = 2;

/**
 * The messages the string literals of a code text hold, each as its words joined by spaces. A
 * literal none of whose pieces is a message alone is read as a template, its placeholders as
 * gaps, when it starts with words: hashie's `"The property '#{property}' is not defined for
 * #{self.class.name}."`, which a user quotes as "The property 'x' is not defined for MyDash".
 */
export function messagesOf(code: string): string[] {
  const out = new Set<string>();
  const keep = (msg: string) => !RUNTIME.some((r) => msg.includes(r)) && out.add(msg);
  for (const m of code.matchAll(STRING)) {
    const body = m[1] ?? m[2] ?? m[3]!;
    const pieces = body.split(PLACEHOLDER).map(wordsOf);
    let whole = false;
    for (const words of pieces) {
      if (words.length < MIN_MESSAGE_WORDS || !particular(words)) continue;
      whole = true;
      keep(words.join(' '));
    }
    if (whole || pieces.length < 2 || pieces[0]!.length < TEMPLATE_KEY_WORDS) continue;
    const all = pieces.flat();
    if (all.length < MIN_MESSAGE_WORDS || !particular(all)) continue;
    // Said in order around its values, a runtime's words are the template's own ("… is not defined for …").
    const parts = pieces.filter((w, i) => w.length || i === pieces.length - 1).map((w) => w.join(' '));
    out.add(parts.join(` ${GAP} `).trim());
  }
  return [...out];
}

/** Whether `words` from `i` on say the template's pieces in order, each gap one to {@link MAX_GAP_WORDS} words (none at its end). */
function saysTemplate(words: string[], i: number, pieces: string[][]): boolean {
  const at = (k: number, start: number): boolean => {
    const piece = pieces[k]!;
    for (let j = 0; j < piece.length; j++) if (words[start + j] !== piece[j]) return false;
    if (k === pieces.length - 1) return true;
    const next = start + piece.length;
    // The gap at the end, after the last words.
    if (k === pieces.length - 2 && !pieces[k + 1]!.length) return true;
    for (let g = 1; g <= MAX_GAP_WORDS; g++) if (at(k + 1, next + g)) return true;
    return false;
  };
  return at(0, i);
}

/** A message's key: its first words, fewer for a template (whose first piece may be short). */
function keyOf(msg: string): string {
  return msg.split(' ', msg.includes(GAP) ? TEMPLATE_KEY_WORDS : KEY_WORDS).join(' ');
}

/** The messages of a workspace's code files, found again in the texts that quote them. */
export class MessageIndex {
  /** First words → message → the files that say it. */
  private readonly byKey = new Map<string, Map<string, Set<string>>>();
  private readonly ofFile = new Map<string, string[]>();

  add(file: string, messages: string[]): void {
    this.remove(file);
    if (!messages.length) return;
    for (const msg of messages) {
      const key = keyOf(msg);
      let m = this.byKey.get(key);
      if (!m) this.byKey.set(key, (m = new Map()));
      let files = m.get(msg);
      if (!files) m.set(msg, (files = new Set()));
      files.add(file);
    }
    this.ofFile.set(file, messages);
  }

  remove(file: string): void {
    for (const msg of this.ofFile.get(file) ?? []) {
      const key = keyOf(msg);
      const m = this.byKey.get(key);
      const files = m?.get(msg);
      files?.delete(file);
      if (files && !files.size) m!.delete(msg);
      if (m && !m.size) this.byKey.delete(key);
    }
    this.ofFile.delete(file);
  }

  /** The messages the text holds (its words in order), each with the files that say it. */
  find(text: string): { message: string; files: string[] }[] {
    if (!this.byKey.size) return [];
    const words = wordsOf(text);
    const found = new Map<string, string[]>();
    for (let i = 0; i + TEMPLATE_KEY_WORDS <= words.length; i++) {
      for (const n of [KEY_WORDS, TEMPLATE_KEY_WORDS]) {
        const m = i + n <= words.length ? this.byKey.get(words.slice(i, i + n).join(' ')) : undefined;
        if (!m) continue;
        for (const [msg, files] of m) {
          if (found.has(msg)) continue;
          const pieces = msg.split(` ${GAP}`).map((p) => p.split(' ').filter(Boolean));
          if (pieces.length > 1 ? saysTemplate(words, i, pieces) : pieces[0]!.every((w, j) => words[i + j] === w)) found.set(msg, [...files]);
        }
      }
    }
    return [...found].map(([message, files]) => ({ message, files }));
  }
}
