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

/** The messages the string literals of a code text hold, each as its words joined by spaces. */
export function messagesOf(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(STRING)) {
    const body = m[1] ?? m[2] ?? m[3]!;
    for (const piece of body.split(PLACEHOLDER)) {
      const words = wordsOf(piece);
      if (words.length < MIN_MESSAGE_WORDS) continue;
      // Mostly function words or letters ("is not in the", "x x x x", "for j in range"): code or
      // maths, nothing particular.
      const real = new Set(words.filter((w) => w.length >= 3));
      if (real.size < 3 || [...real].filter((w) => !isStopWord(w)).length < 2) continue;
      const msg = words.join(' ');
      if (!RUNTIME.some((r) => msg.includes(r))) out.add(msg);
    }
  }
  return [...out];
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
      const key = msg.split(' ', KEY_WORDS).join(' ');
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
      const key = msg.split(' ', KEY_WORDS).join(' ');
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
    for (let i = 0; i + KEY_WORDS <= words.length; i++) {
      const m = this.byKey.get(words.slice(i, i + KEY_WORDS).join(' '));
      if (!m) continue;
      for (const [msg, files] of m) {
        if (found.has(msg)) continue;
        const mw = msg.split(' ');
        let j = KEY_WORDS;
        while (j < mw.length && words[i + j] === mw[j]) j++;
        if (j === mw.length) found.set(msg, [...files]);
      }
    }
    return [...found].map(([message, files]) => ({ message, files }));
  }
}
