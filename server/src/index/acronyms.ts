/**
 * Technical phrases that code names by their initials: a question that spells out "method
 * resolution order" or "hot module replacement" also searches `mro` / `hmr`, the names the code
 * uses. Only well-known expansions (initials of arbitrary words would match too much: "both a
 * direct" → `bad`).
 */
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
  [/\buniform[\s-]+resource[\s-]+(?:locator|identifier)s?\b/i, 'url'],
  [/\bleast[\s-]+recently[\s-]+used\b/i, 'lru'],
  [/\bfirst[\s-]+in,?[\s-]+first[\s-]+out\b/i, 'fifo'],
  [/\buniversally[\s-]+unique[\s-]+identifiers?\b/i, 'uuid'],
  [/\blanguage[\s-]+server[\s-]+protocol\b/i, 'lsp'],
  [/\bserver[\s-]+sent[\s-]+events?\b/i, 'sse'],
  [/\bcontent[\s-]+delivery[\s-]+networks?\b/i, 'cdn'],
  [/\bcontinuous[\s-]+integration\b/i, 'ci'],
  [/\bregular[\s-]+expressions?\b/i, 'regex'],
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
