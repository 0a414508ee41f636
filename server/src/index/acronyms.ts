/**
 * Words that code spells otherwise. Technical phrases that code names by their initials: a
 * question that spells out "method resolution order" or "hot module replacement" also searches
 * `mro` / `hmr`, the names the code uses. Only well-known expansions (initials of arbitrary words
 * would match too much: "both a direct" → `bad`). Also Python's special methods described in
 * words, and phrasal verbs written as one word (below).
 */

import { stem } from './tokens';

const PHRASES: [RegExp, string][] = [
  [/\bhot[\s-]+module[\s-]+replacement\b/i, 'hmr'],
  [/\bserver[\s-]+side[\s-]+render(?:ing|ed)?\b/i, 'ssr'],
  [/\bstatic[\s-]+site[\s-]+generat(?:ion|or)\b/i, 'ssg'],
  [/\bsingle[\s-]+page[\s-]+app(?:lication)?s?\b/i, 'spa'],
  [/\bmethod[\s-]+resolution[\s-]+order\b/i, 'mro'],
  [/\babstract[\s-]+base[\s-]+class(?:es)?\b/i, 'abc'],
  [/\babstract[\s-]+syntax[\s-]+trees?\b/i, 'ast'],
  [/\bjson[\s-]+web[\s-]+tokens?\b/i, 'jwt'],
  [/\btime[\s-]+to[\s-]+live\b/i, 'ttl'],
  [/\bcross[\s-]+site[\s-]+request[\s-]+forger(?:y|ies)\b/i, 'csrf'],
  [/\bcross[\s-]+site[\s-]+scripting\b/i, 'xss'],
  [/\bcross[\s-]+origin[\s-]+resource[\s-]+sharing\b/i, 'cors'],
  [/\bcontent[\s-]+security[\s-]+polic(?:y|ies)\b/i, 'csp'],
  [/\bweb[\s-]+server[\s-]+gateway[\s-]+interface\b/i, 'wsgi'],
  [/\basynchronous[\s-]+server[\s-]+gateway[\s-]+interface\b/i, 'asgi'],
  [/\bobject[\s-]+relational[\s-]+mapp(?:er|ing)s?\b/i, 'orm'],
  [/\btransport[\s-]+layer[\s-]+security\b/i, 'tls'],
  [/\bsecure[\s-]+sockets?[\s-]+layer\b/i, 'ssl'],
  [/\bremote[\s-]+procedure[\s-]+calls?\b/i, 'rpc'],
  [/\bjust[\s-]+in[\s-]+time\b/i, 'jit'],
  [/\bdocument[\s-]+object[\s-]+model\b/i, 'dom'],
  [/\bcommand[\s-]+line[\s-]+interfaces?\b/i, 'cli'],
  // "The command-line tool", "the command-line entry point": pygments' `cmdline.py`, jsonschema's `cli.py`.
  [/\bcommand[\s-]+line\b(?![\s-]+interface)/i, 'cli'],
  [/\bcommand[\s-]+line\b/i, 'cmdline'],
  [/\buniform[\s-]+resource[\s-]+(?:locator|identifier)s?\b/i, 'url'],
  [/\bleast[\s-]+recently[\s-]+used\b/i, 'lru'],
  [/\bfirst[\s-]+in,?[\s-]+first[\s-]+out\b/i, 'fifo'],
  [/\buniversally[\s-]+unique[\s-]+identifiers?\b/i, 'uuid'],
  [/\blanguage[\s-]+server[\s-]+protocol\b/i, 'lsp'],
  [/\bserver[\s-]+sent[\s-]+events?\b/i, 'sse'],
  [/\bcontent[\s-]+delivery[\s-]+networks?\b/i, 'cdn'],
  [/\bcontinuous[\s-]+integration\b/i, 'ci'],
  [/\bregular[\s-]+expressions?\b/i, 'regex'],
  // Go's and JavaScript's spelling (gorilla/mux's regexp.go, `RegExp`).
  [/\bregular[\s-]+expressions?\b/i, 'regexp'],
  [/\bgarbage[\s-]+collect(?:ion|ions|ed|s|or|ing)?\b/i, 'gc'],
  [/\breference[\s-]+count(?:s|ed|ing)?\b/i, 'refcount'],
  [/\binternationali[sz]ation\b/i, 'i18n'],
  [/\blocali[sz]ation\b/i, 'l10n'],
  [/\bdomain[\s-]+name[\s-]+(?:system|service)\b/i, 'dns'],
];

/** Each phrase the text spells out: the name, and how many words the text used for it. */
export function acronymPhrases(text: string): { name: string; words: number }[] {
  const out: { name: string; words: number }[] = [];
  for (const [re, name] of PHRASES) {
    const m = re.exec(text);
    if (m) out.push({ name, words: m[0].split(/[\s,-]+/).filter(Boolean).length });
  }
  return out;
}

/**
 * Python's special methods described in words, as questions about Python code do ("the deep
 * copying hook", "the pickle reconstruction method"): the dunder names the code uses for them.
 * Only those whose name searches for something (`__get__` is the stop word "get").
 */
const SPECIAL: [RegExp, string[]][] = [
  [/\bdeep[\s-]*cop(?:y|ying|ies)\b/i, ['__deepcopy__']],
  [/\bshallow[\s-]*cop(?:y|ying|ies)\b/i, ['__copy__']],
  [/\bpickl\w*\b[^.?]{0,40}\b(?:reconstruct\w*|reduc\w*|new[\s-]*args)\b|\b(?:reconstruct\w*|reduc\w*)\b[^.?]{0,40}\bpickl\w*/i, ['__reduce__', '__reduce_ex__', '__getnewargs__', '__getnewargs_ex__']],
  [/\bpickl\w*\b[^.?]{0,40}\bstate\b/i, ['__getstate__', '__setstate__']],
  [/\bstring representation\b|\brepr(?:esentation)? method\b/i, ['__repr__', '__str__']],
  [/\bhash(?:ing)? (?:method|function|hook)\b|\bhashab(?:le|ility)\b/i, ['__hash__']],
  [/\bequality (?:comparison |check )?(?:method|operator|hook)\b/i, ['__eq__']],
  [/\blength (?:method|hook|protocol)\b/i, ['__len__']],
  [/\bcontext[\s-]+manager\b[^.?]{0,30}\b(?:entry|enter\w*)\b/i, ['__enter__', '__aenter__']],
  [/\bcontext[\s-]+manager\b[^.?]{0,30}\bexit\w*\b/i, ['__exit__', '__aexit__']],
  [/\battribute (?:access|lookup|retrieval) (?:hook|method|fallback)\b|\bmissing attributes?\b/i, ['__getattr__', '__getattribute__']],
  [/\battribute (?:assignment|setting) (?:hook|method)\b/i, ['__setattr__']],
  [/\battribute deletion (?:hook|method)\b/i, ['__delattr__']],
  [/\bitem (?:access|retrieval|lookup) (?:method|hook)\b|\bsubscript(?:ion)? (?:method|hook)\b/i, ['__getitem__']],
  [/\bitem assignment (?:method|hook)\b/i, ['__setitem__']],
  [/\bitem deletion (?:method|hook)\b/i, ['__delitem__']],
  [/\bsubclass (?:initiali[sz]ation )?hook\b|\bsubclass initiali[sz]ation\b/i, ['__init_subclass__']],
  [/\bclass[\s-]+level subscript\w*\b|\bclass subscriptab\w*\b|\bclass getitem\b/i, ['__class_getitem__']],
  [/\btruth(?:iness| value)\b|\bbool(?:ean)? conversion (?:method|hook)\b/i, ['__bool__']],
  [/\bmembership (?:test|check)\b|\bcontains (?:method|hook)\b/i, ['__contains__']],
  [/\biterat(?:or|ion) protocol\b|\biterator method\b/i, ['__iter__', '__next__']],
  [/\binstance creation (?:method|hook)\b|\ballocation method\b/i, ['__new__']],
  [/\bfinali[sz]er\b|\bdestructor\b/i, ['__del__']],
  [/\bcall (?:method|operator|hook)\b|\bcallable instances?\b/i, ['__call__']],
  [/\bformat(?:ting)? (?:method|hook|protocol)\b/i, ['__format__']],
  [/\bexport list\b|\bpublic names list\b/i, ['__all__']],
];

/** The names of a table's rows whose pattern the text matches. */
function namesIn(table: [RegExp, string[]][], text: string): string[] {
  return table.flatMap(([re, names]) => (re.test(text) ? names : []));
}

/** The special methods a question describes in words. */
export function specialMethods(text: string): string[] {
  return namesIn(SPECIAL, text);
}

/**
 * Phrasal verbs the code writes as one word ("set up" → `setup`, "tear down" → `teardown`, "look
 * up" → `lookup`), and "looked up" also as `find` (`_find_error_handler`).
 */
const PHRASAL: [RegExp, string[]][] = [
  [/\blook(?:s|ed|ing)?[\s-]+up\b/i, ['lookup', 'find']],
  [/\bset(?:s|ting)?[\s-]+up\b/i, ['setup']],
  [/\bclean(?:s|ed|ing)?[\s-]+up\b/i, ['cleanup']],
  [/\b(?:tear(?:s|ing)?|torn)[\s-]+down\b/i, ['teardown']],
  [/\bshut(?:s|ting)?[\s-]+down\b/i, ['shutdown']],
  [/\bstart(?:s|ed|ing)?[\s-]+up\b/i, ['startup']],
  [/\blog(?:s|ged|ging)?[\s-]+in\b/i, ['login']],
  [/\blog(?:s|ged|ging)?[\s-]+out\b/i, ['logout']],
  [/\bplug(?:s|ged|ging)?[\s-]+in\b/i, ['plugin']],
  // "What happens when a request times out?" is RestSharp's `Timeout`, faraday's `timeout`.
  [/\btim(?:e|es|ed|ing)[\s-]+out\b/i, ['timeout']],
  [/\bfall(?:s|ing)?[\s-]+back\b|\bfell[\s-]+back\b/i, ['fallback']],
  [/\broll(?:s|ed|ing)?[\s-]+back\b/i, ['rollback']],
  [/\bsign(?:s|ed|ing)?[\s-]+in\b/i, ['signin', 'login']],
  [/\bsign(?:s|ed|ing)?[\s-]+up\b/i, ['signup', 'register']],
];

/** The one-word names of the phrasal verbs a text uses. */
export function phrasalVerbs(text: string): string[] {
  return namesIn(PHRASAL, text);
}

/**
 * Irregular verb forms the stemmer keeps apart from the verb code names things by ("how is the
 * site built?" is `build`, "where is the request sent?" `send`, "what is thrown?" `throw`).
 */
const IRREGULAR = new Map<string, string>(
  Object.entries({
    build: 'built rebuilt', make: 'made', send: 'sent', write: 'written wrote rewritten', rewrite: 'rewritten', throw: 'thrown threw',
    find: 'found', hold: 'held', keep: 'kept', bind: 'bound', choose: 'chosen chose', draw: 'drawn drew', give: 'given gave',
    take: 'taken took', show: 'shown', spend: 'spent', begin: 'begun began', break: 'broken broke', freeze: 'frozen froze',
    hide: 'hidden hid', feed: 'fed', get: 'got gotten', sell: 'sold', tell: 'told', run: 'ran', come: 'came', go: 'went gone',
    know: 'known knew', grow: 'grown grew', think: 'thought', bring: 'brought', catch: 'caught', seek: 'sought', buy: 'bought',
    mean: 'meant', deal: 'dealt', lose: 'lost', pay: 'paid', say: 'said', lay: 'laid', stand: 'stood', strike: 'struck',
    stick: 'stuck', hang: 'hung', sweep: 'swept', sleep: 'slept', lend: 'lent', override: 'overridden overrode', forbid: 'forbidden',
    drive: 'driven drove', rise: 'risen rose', shake: 'shaken shook', spin: 'spun', steal: 'stolen', tear: 'torn tore',
    speak: 'spoken spoke', fall: 'fallen fell', bite: 'bitten', fly: 'flown flew', forget: 'forgotten forgot', dig: 'dug',
    slide: 'slid', shoot: 'shot', light: 'lit', bend: 'bent', feel: 'felt', lead: 'led', win: 'won',
    free: 'freed', understand: 'understood', undo: 'undone', withdraw: 'withdrawn', wake: 'woken woke', swear: 'sworn', wear: 'worn', beat: 'beaten',
  }).flatMap(([base, forms]) => forms.split(' ').filter(Boolean).map((f) => [f, base])),
);

/**
 * A doubled l before -ed or -ing ("unmarshalled", British spelling): the stemmer makes `unmarshal` of
 * it but `unmarsh` of the verb code writes (`Unmarshal`).
 */
const DOUBLED_L = /^([a-z]{4,}al)l(?:ed|ing)$/;

/**
 * British spellings of words code spells the American way ("the regex optimiser" is pygments'
 * `optimize`, "behaviour" `behavior`), which the stemmer keeps apart: `optimis` is no `optim`.
 * Stems of -ise verbs only where the -ize form is the word (not "raise", "promise", "otherwise").
 */
const BRITISH_ISE =
  /\b((?:de)?seriali|optimi|initiali|normali|recogni|organi|saniti|tokeni|synchroni|customi|authori|minimi|maximi|finali|materiali|speciali|categori|prioriti|summari|utili|visuali|paralleli|locali|internationali|standardi|memoi|capitali|canonicali|generali|characteri|randomi|stabili|vectori|regulari|personali|quanti|symboli|emphasi|marshali|unmarshali|parameteri|templati|containeri|modulari|virtuali|lexicali|itemi|anonymi)s(e|es|ed|er|ers|ing|ation|ations)\b/gi;
const BRITISH_WORDS = new Map<string, string>(
  Object.entries({
    behaviour: 'behavior', behaviours: 'behaviors', colour: 'color', colours: 'colors', coloured: 'colored', favour: 'favor',
    favourite: 'favorite', honour: 'honor', honours: 'honors', neighbour: 'neighbor', neighbours: 'neighbors', flavour: 'flavor',
    licence: 'license', catalogue: 'catalog', catalogues: 'catalogs', dialogue: 'dialog', dialogues: 'dialogs', centre: 'center',
    centred: 'centered', grey: 'gray', analyse: 'analyze', analysed: 'analyzed', analyser: 'analyzer', analysing: 'analyzing',
    paralyse: 'paralyze', catalyse: 'catalyze', artefact: 'artifact', artefacts: 'artifacts', judgement: 'judgment',
  }),
);

/** The American spellings of a text's British words ("optimiser" → optimizer, "behaviour" → behavior), once each. */
export function americanSpellings(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(BRITISH_ISE)) out.add(`${m[1]!.toLowerCase()}z${m[2]!.toLowerCase()}`);
  for (const m of text.matchAll(/\b[a-z]+\b/gi)) {
    const us = BRITISH_WORDS.get(m[0].toLowerCase());
    if (us) out.add(us);
  }
  return [...out];
}

/** The verbs behind a text's irregular verb forms ("built" → build, "sent" → send, "unmarshalled" → unmarshal), once each. */
export function irregularVerbs(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b[a-z]+\b/gi)) {
    const w = m[0].toLowerCase();
    const base = IRREGULAR.get(w) ?? DOUBLED_L.exec(w)?.[1];
    if (base) out.add(base);
  }
  return [...out];
}

/**
 * Verbs that code spells one way or another by framework: Rails destroys what Django deletes and a
 * list removes; what one store calls its subscribers another calls listeners (zustand) or observers.
 */
const SYNONYMS: readonly (readonly string[])[] = [['delete', 'destroy', 'remove'], ['subscribe', 'listen', 'observe']];

/** The other verbs of the same meaning as a text's, by stem ("deleted" → destroy, remove), once each. */
export function synonymsOf(text: string): string[] {
  const stems = new Set((text.toLowerCase().match(/[a-z]+/g) ?? []).map(stem));
  const out = new Set<string>();
  for (const group of SYNONYMS) {
    const said = group.filter((g) => stems.has(stem(g)));
    if (said.length) for (const g of group) if (!said.includes(g)) out.add(g);
  }
  return [...out];
}

/**
 * Words that code writes short: a question says "directory", fs-extra's code `emptyDir`; "context",
 * hono's `ctx`; "arguments", `args`. Keyed by the word's stem (the plural and the verb's forms too),
 * only abbreviations that code uses for that word alone (not "specific" → `spec`, nor "author" →
 * `auth`, whose stems are those of "specification" and "authorization").
 */
const ABBREVIATIONS = new Map<string, string[]>(
  Object.entries({
    directori: ['dir'],
    configur: ['config', 'cfg'],
    argument: ['args'],
    paramet: ['params'],
    attribut: ['attr', 'attrs'],
    environ: ['env'],
    messag: ['msg'],
    request: ['req'],
    respons: ['resp'],
    error: ['err'],
    context: ['ctx'],
    initi: ['init'],
    initialis: ['init'],
    initializ: ['init'],
    temporari: ['tmp', 'temp'],
    length: ['len'],
    callback: ['cb'],
    refer: ['ref'],
    databas: ['db'],
    inform: ['info'],
    authent: ['auth'],
    repositori: ['repo'],
    packag: ['pkg'],
    librari: ['lib'],
    applic: ['app'],
    charact: ['char'],
    buffer: ['buf'],
    address: ['addr'],
    connect: ['conn'],
    implement: ['impl'],
    maximum: ['max'],
    minimum: ['min'],
    sequenc: ['seq'],
    command: ['cmd'],
    separ: ['sep'],
    delimit: ['delim'],
    destin: ['dest', 'dst'],
    sourc: ['src'],
    previou: ['prev'],
    synchron: ['sync'],
    asynchron: ['async'],
    statement: ['stmt'],
    certif: ['cert'],
    dictionari: ['dict'],
    millisecond: ['ms'],
    // tRPC's `adapters/ws.ts`, a `ws` server for "the WebSocket server adapter".
    websocket: ['ws'],
    // sentry-python's `integrations/dedupe.py`, "the duplicate-error filter".
    duplic: ['dedup'],
    dedupl: ['dedup'],
    // Serialisation both ways: sqlglot's `serde.py`, Rust's `serde`.
    serial: ['serde'],
    deseri: ['serde'],
  }),
);

/** The short forms code writes for a text's words ("directory" → `dir`), once each. */
export function abbreviationsOf(text: string): string[] {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[a-z]{4,}/g) ?? []) for (const a of ABBREVIATIONS.get(stem(w)) ?? []) if (a !== w) out.add(a);
  return [...out];
}
