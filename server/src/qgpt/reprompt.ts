import type { ChatMessage, Generator } from '../core/interfaces';
import type { QGPTConversationMessage } from '../protocol/wire';
import { asksAboutTests } from './intent';

const PATH_RE = /\/?(?:[\w.@-]+\/)*[\w.@-]+\.[A-Za-z][\w]{0,9}(?::\d+(?:-\d+)?)?/g;
const CODE_SPAN_RE = /`([^`\n]+)`/g;
const CALL_RE = /\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)/g;
const IDENT_RE = /\b[A-Za-z_$][\w$]*(?:[a-z][A-Z]|_)[\w$]*\b/g;

export interface Entities {
  paths: string[];
  symbols: string[];
}

function isPathLike(s: string): boolean {
  // A file's extension, not any dotted name: `LikelihoodModel.fit` and `DisplayHook.quiet` are
  // methods, and so are a class's `Request.json` and `Response.html` (a file so named is rare).
  return /\//.test(s) || (FILE_EXT_RE.test(s) && !MEMBER_LIKE_RE.test(s));
}
const MEMBER_LIKE_RE = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*\.(?:json|html|xml|csv)$/;
const FILE_EXT_RE = /\.(?:ts|tsx|js|jsx|mjs|cjs|mts|cts|py|pyi|rs|go|java|kt|rb|php|c|cc|cpp|h|hpp|cs|swift|scala|md|mdx|rst|txt|json|ya?ml|toml|cfg|ini|html|css|scss|vue|svelte|sh|lock)(?::\d+(?:-\d+)?)?$/;

/** A value in straight quotes, opened after a space or a bracket (not an apostrophe: "the router's"). */
const QUOTED_VALUE_RE = /(^|[\s([{,:=])(['"])(?=\S)[^'"\n]*?\S\2(?=$|[\s)\]}.,;:!?])/g;

const QUALIFIED_NAME_RE = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*[?!]?$/;

/** Paths and symbols a message names, in order of appearance. */
export function entitiesOf(text: string): Entities {
  const found: { at: number; kind: 'path' | 'symbol'; value: string }[] = [];
  for (const m of text.matchAll(CODE_SPAN_RE)) {
    const v = m[1].trim().replace(/\(\)$/, '');
    if (isPathLike(v) && !/\s/.test(v)) found.push({ at: m.index!, kind: 'path', value: v.replace(/:\d+(?:-\d+)?$/, '') });
    // Ruby's `out_of_date?` and `save!` are names too, and so are names with `::` (connection_pool's
    // `ConnectionPool::TimedStack.pop`, Rust's `Router::new`).
    else if (QUALIFIED_NAME_RE.test(v)) found.push({ at: m.index!, kind: 'symbol', value: v });
  }
  // Nor is a name inside a quoted value: Slim's "given as a string like 'SomeClass:someMethod'" asks
  // about no `SomeClass` (its follow-up "who calls it?" had searched for one).
  const outside = text.replace(CODE_SPAN_RE, (s) => ' '.repeat(s.length)).replace(QUOTED_VALUE_RE, (s, before: string) => before + ' '.repeat(s.length - before.length));
  for (const m of outside.matchAll(CALL_RE)) found.push({ at: m.index!, kind: 'symbol', value: m[1] });
  for (const m of outside.matchAll(PATH_RE)) if (isPathLike(m[0])) found.push({ at: m.index!, kind: 'path', value: m[0].replace(/:\d+(?:-\d+)?$/, '') });
  for (const m of outside.matchAll(IDENT_RE)) if (!m[0].includes('/')) found.push({ at: m.index!, kind: 'symbol', value: m[0] });
  found.sort((a, b) => a.at - b.at);
  const paths: string[] = [];
  const symbols: string[] = [];
  for (const f of found) {
    const list = f.kind === 'path' ? paths : symbols;
    if (!list.includes(f.value)) list.push(f.value);
  }
  return { paths, symbols };
}

const ORDINALS: Record<string, number> = { first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4 };
/** A file of the user's, not of the code: an @argfile, a `.env` file, a config, CSV or log file. */
const THEIR_FILE = /@\w*file\b|\b(?:arg|data|log|dot|pid|lock|temp|tar|zip)files?\b|(?:\.\w+|\b(?:config(?:uration)?|settings|env|log|csv|tsv|json|ya?ml|toml|ini|input|output|data|text|properties|upload(?:ed)?|static|image|certificate|key|credentials?|argument|response|download(?:ed)?|local|remote|user['’]s|my|your))\s+files?\b/i;
const FILE_NOUNS = /^(?:file|files|module|place|snippet|path|location)$/;

/** Names that are no subject: keywords, pronouns, one or two letters. */
const NOT_A_SUBJECT = new Set(
  ('if else for while return const let var function class def self this that it constructor new true false null none undefined ' +
    'import export from async await try catch with type interface public private static void string number boolean object').split(' '),
);
export function isSubjectName(s: string): boolean {
  const leaf = s.split(/\.|::/).at(-1) ?? s;
  return leaf.length > 2 && !NOT_A_SUBJECT.has(leaf.toLowerCase()) && QUALIFIED_NAME_RE.test(s);
}

/** The lead of an answer whose first place the question's words found, not a name it asked about. */
const LEAD_BY_WORDS = /^`[^`\n]+` in \[[^\]\n]*\]\([^)\n]*\) is where this happens/;

/** A follow-up that asks for call sites or uses ("who calls it?", "where is that used?"). */
const CALL_SITES_RE = /\b(?:called|calls?|used|uses|invoked|referenced|imported|callers?|usages?)\b/i;

const PRONOUN_RE = /\b(?:it|this|that|these|those|them|they|its|there|here|the same)\b/i;
const CONNECTOR_RE = /^\s*(?:and|but|so|also|then|now|ok(?:ay)?|what about|how about|und|y|et)\b/i;
/** Words that carry no topic in a follow-up ("where is that implemented?" has none). */
const FOLLOW_UP_WORDS = new Set(
  ('a an and the is are was were be do does did it its this that these those them they there here what where which who whom whose why how when ' +
    'about also but so then now ok okay show me tell more file files code place implemented implement defined define called call calls used use ' +
    'happen happens happening handled handle handles done work works working in of to for on at by with from see find same one thing part').split(' '),
);

/** Is this a follow-up that needs its history: a pronoun, a leading "and …", or no topic of its own? */
export function isFollowUp(query: string): boolean {
  const own = entitiesOf(query);
  if (own.symbols.length || own.paths.length) return false;
  const words = query.toLowerCase().match(/[a-z_]+/g) ?? [];
  const topical = words.filter((w) => !FOLLOW_UP_WORDS.has(w));
  return PRONOUN_RE.test(query) || CONNECTOR_RE.test(query) || topical.length === 0;
}

function strip(q: string): string {
  return q.replace(/\s+/g, ' ').replace(/[?.!\s]+$/, '').trim();
}

/**
 * The topic a question carries on to its follow-ups: the question itself, or for a follow-up
 * rewritten as "… — about: T (`file`)", its T: a follow-up of a follow-up is about the same topic,
 * not about "Where is that called — about: T (`file`)" nested again.
 */
function topicOf(text: string): string {
  const m = / — about: (.+?)(?: \(`[^`]+`\))?$/.exec(strip(text));
  return m ? strip(m[1]!) : strip(text);
}

/**
 * Without a model: resolve "it", "that function", "the second file" and bare follow-ups from the
 * recent messages. Symbols come from what the user asked about first, then from the answer (its
 * lead sentence names the first cited place); files from the answer first (that is where the cited
 * places are). A follow-up whose subject is a place of the answer is searched next to that file;
 * one with no symbol to name carries the previous question as its topic.
 */
export function repromptRules(query: string, history: QGPTConversationMessage[], defined?: (name: string) => boolean): string {
  const recent = history.slice(0, 6);
  const lastAnswer = recent.find((m) => m.role === 'ASSISTANT');
  const userMsgs = recent.filter((m) => m.role !== 'ASSISTANT');
  const fromUser = userMsgs.map((m) => entitiesOf(m.text));
  const fromAnswer = lastAnswer ? entitiesOf(lastAnswer.text) : { paths: [], symbols: [] };
  const userSymbols = fromUser.flatMap((e) => e.symbols).filter(isSubjectName);
  const answerSymbols = fromAnswer.symbols.filter(isSubjectName);
  const named = [...new Set([...userSymbols, ...answerSymbols])];
  const callSites = CALL_SITES_RE.test(query);
  // The project's own names before those of the language or a library (`ValueError`, `NamedTuple`):
  // "where is that implemented?" asks where the code does something, and the code defines none of
  // those. Not for call sites: the project's uses of a library's function are its own.
  const symbols = defined && !callSites ? [...named.filter(defined), ...named.filter((s) => !defined(s))] : named;
  const paths = [...new Set([...fromAnswer.paths, ...fromUser.flatMap((e) => e.paths)])];
  const code = (s: string) => `\`${s}\``;
  let q = query.trim();
  const topic = userMsgs[0] ? topicOf(userMsgs[0].text) : '';
  if (!symbols.length && !paths.length && !topic) return q;
  const own = entitiesOf(q);
  let resolved = false;

  q = q.replace(/\bthe\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(\w+)\b/gi, (whole, ord: string, noun: string) => {
    const wantsFile = FILE_NOUNS.test(noun.toLowerCase()) || (noun.toLowerCase() === 'one' && paths.length > 0);
    const list = wantsFile ? (fromAnswer.paths.length ? fromAnswer.paths : paths) : answerSymbols.length ? answerSymbols : symbols;
    const o = ord.toLowerCase();
    const i = o === 'last' ? list.length - 1 : ORDINALS[o];
    if (i === undefined || i < 0 || i >= list.length) return whole;
    resolved = true;
    return wantsFile ? `the file ${code(list[i])}` : `${code(list[i])}`;
  });
  // A user who spoke of a file of theirs (an @argfile, a `.env` file, a config file) means it by
  // "the file" after that, not the answer's source file (clikt's "What happens if the file has an
  // unclosed quote?" had searched the words of a path).
  const theirFile = userMsgs.some((m) => THEIR_FILE.test(m.text));
  q = q.replace(/\b(that|this|the same|the)\s+(function|method|class|type|interface|variable|symbol|hook|component|file|module|snippet)\b/gi, (whole, det: string, noun: string) => {
    const wantsFile = FILE_NOUNS.test(noun.toLowerCase());
    if (wantsFile && theirFile && det.toLowerCase() === 'the' && noun.toLowerCase() === 'file') return whole;
    let target = wantsFile ? paths[0] : symbols[0];
    if (!target) return whole;
    // "That class" after an answer about `Option.value_from_envvar` is `Option`, the method's class.
    const parts = target.split('.');
    if (/^(?:class|type|interface)$/i.test(noun) && parts.length > 1 && /^[A-Z]/.test(parts.at(-2)!) && /^[a-z_]/.test(parts.at(-1)!)) target = parts.slice(0, -1).join('.');
    resolved = true;
    return wantsFile ? `the file ${code(target)}` : `the ${noun.toLowerCase()} ${code(target)}`;
  });
  if (resolved || !isFollowUp(q)) return q;
  // An answer whose first place goes by no name (a module's docstring, a document) names a file
  // before any symbol: the follow-up is about that file, not about the next place's name.
  const text = lastAnswer?.text ?? '';
  const pathFirst = !userSymbols.length && fromAnswer.paths.length > 0 && (!answerSymbols.length || text.indexOf(fromAnswer.paths[0]!) < text.indexOf(answerSymbols[0]!));
  // An answer that found its place by the question's words ("`newCookieFromOptions` in … is where
  // this happens") is about that place: "who calls it?" asks about its name, not a name the question
  // listed on the way (gorilla/sessions' "copy my Options (path, domain, SameSite) onto a cookie").
  const byWords = LEAD_BY_WORDS.test(text.trim()) && answerSymbols.length > 0;
  const first = pathFirst ? undefined : byWords ? answerSymbols[0] : symbols[0];
  // A constructor is called by its class's name (`Console(…)`, `new Console(…)`): asked where it is
  // called or how it is tested, the subject is the class.
  const subject = first && (callSites || asksAboutTests(query)) ? classOfConstructor(first) : first;
  const fromTheAnswer = first !== undefined && !userSymbols.includes(first);
  if (subject) {
    let replaced = false;
    q = q.replace(/\b(it|this|that|them|they|these|those)\b(?!\s*(?:is|was)\s+(?:not\s+)?(?:possible|necessary))/i, () => {
      replaced = true;
      return code(subject);
    });
    if (!replaced) {
      q = q.replace(/\bits\b/i, () => {
        replaced = true;
        return `${code(subject)}'s`;
      });
    }
    q = q.replace(/^(?:and|but|so|also|then|now|ok(?:ay)?)\b[\s,]*/i, '').replace(/^./, (c) => c.toUpperCase());
    if (!replaced) return `${strip(q)} (about ${code(subject)}${paths[0] && !callSites ? ` in ${code(paths[0])}` : ''})`;
    // The place the answer named stays next to the subject, unless the question looks elsewhere (its callers).
    if (fromTheAnswer && paths[0] && !callSites) return `${strip(q)} (in ${code(paths[0])})${/\?\s*$/.test(query) ? '?' : ''}`;
    return q;
  }
  // No symbol to name: the previous question is the topic.
  const bare = strip(q.replace(/^(?:and|but|so|also|then|now|ok(?:ay)?)\b[\s,]*/i, '')).replace(/^./, (c) => c.toUpperCase());
  if (topic) return `${bare} — about: ${topic}${paths[0] ? ` (${code(paths[0])})` : ''}`;
  return `${bare} (about ${code(paths[0]!)})`;
}

const CONSTRUCTOR = /^(?:__init__|__new__|constructor|initialize|__construct|init)$/;

/** `Console.__init__` → `Console` (Python, JS/TS, Ruby, PHP, Swift constructors); any other name as it is. */
function classOfConstructor(symbol: string): string {
  const parts = symbol.split('.');
  return parts.length > 1 && CONSTRUCTOR.test(parts.at(-1)!) ? parts.slice(0, -1).join('.') : symbol;
}

/**
 * A model's rewrite is taken only when it names something from the history that the follow-up did
 * not (a tiny or confused model that echoes the follow-up, or invents a subject, is ignored).
 */
export function acceptRewrite(rewritten: string, query: string, history: QGPTConversationMessage[]): boolean {
  const words = (t: string) => new Set((t.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? []).filter((w) => !FOLLOW_UP_WORDS.has(w)));
  const own = words(query);
  const past = words(history.slice(0, 6).map((m) => m.text).join(' '));
  return [...words(rewritten)].some((w) => !own.has(w) && past.has(w));
}

/** With a model: ask for the standalone question; a reply that is not one falls back to the rules. */
export async function repromptWithModel(generator: Generator, query: string, history: QGPTConversationMessage[], signal: AbortSignal): Promise<string | undefined> {
  const lines = history
    .slice(0, 8)
    .reverse()
    .map((m) => `${m.role === 'ASSISTANT' ? 'Assistant' : 'User'}: ${m.text.slice(0, 600)}`)
    .join('\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Rewrite the follow-up question as one standalone question that names what it refers to. Reply with the question only.' },
    { role: 'user', content: `Conversation:\n${lines}\n\nFollow-up: ${query.trim()}\nStandalone question:` },
  ];
  let out = '';
  for await (const d of generator.generate(messages, { signal, maxTokens: 64, temperature: 0 })) {
    out += d;
    if (out.includes('\n') && out.trim()) break;
  }
  const first = out.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  if (!first) return undefined;
  const clean = first.replace(/^(?:standalone question|question)\s*:\s*/i, '').replace(/^["'“]|["'”]$/g, '').trim();
  return clean.length >= 3 && clean.length <= 500 ? clean : undefined;
}
