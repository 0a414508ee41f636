/**
 * The REST surface of SPEC.md §2 mapped onto protocol methods. A route only says how to build the
 * params from the path, query and body and how the result goes on the wire; the core does the rest.
 */
import { invalid } from '../core/errors';
import {
  ModelsSnapshot, ModelsCreate, ModelsDelete, ModelsDeleteCache, ModelsUnload, ModelGet, ModelLoad,
  ModelUnload, ModelDownload, ModelDownloadCancel, ModelUpdate, ModelScoresIncrement,
} from '../protocol/models';
import { ConnectorConnect } from '../protocol/connector';
import { QgptRelevance, QgptQuestion, QgptHints, QgptReprompt, QgptPersonsRelated } from '../protocol/qgpt';

/** `json`: 200 with the result; `void`: 204 (the SDK ignores the body of these). */
export type Encoding = 'json' | 'void';

/** `required`: an empty body is a 400; `optional`: an empty body means `{}`; `none`: any body is ignored. */
export type BodyRule = 'required' | 'optional' | 'none';

export interface RouteMatch {
  method: string;
  encoding: Encoding;
  body: BodyRule;
  /** The wire type a body must be, for error messages. */
  bodyType?: string;
  params(body: unknown, query: URLSearchParams): unknown;
}

interface Route {
  verb: 'GET' | 'POST';
  /** Segments; `:model` captures one (already percent-decoded) segment. */
  pattern: string[];
  build(captures: Record<string, string>): RouteMatch;
}

const route = (verb: Route['verb'], p: string, build: Route['build']): Route => ({ verb, pattern: split(p), build });

const modelRef = (c: Record<string, string>) => ({ model: c.model });

function boolQuery(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid(`query parameter ${name} must be true or false, not '${v.slice(0, 40)}'`, name);
}

const ROUTES: Route[] = [
  route('GET', '/models', () => ({ method: ModelsSnapshot.method, encoding: 'json', body: 'none', params: () => undefined })),
  route('POST', '/models/create', () => ({
    method: ModelsCreate.method, encoding: 'json', body: 'required', bodyType: 'SeededModel', params: (b) => b,
  })),
  route('POST', '/models/unload', () => ({ method: ModelsUnload.method, encoding: 'void', body: 'none', params: () => undefined })),
  route('POST', '/models/:model/delete', (c) => ({
    method: ModelsDelete.method, encoding: 'void', body: 'none', params: () => modelRef(c),
  })),
  route('POST', '/models/:model/delete/cache', (c) => ({
    method: ModelsDeleteCache.method, encoding: 'json', body: 'optional', bodyType: 'ModelDeleteCacheInput',
    params: (b) => ({ model: c.model, input: b }),
  })),
  route('GET', '/model/:model', (c) => ({ method: ModelGet.method, encoding: 'json', body: 'none', params: () => modelRef(c) })),
  route('POST', '/model/:model/load', (c) => ({ method: ModelLoad.method, encoding: 'json', body: 'none', params: () => modelRef(c) })),
  route('POST', '/model/:model/unload', (c) => ({ method: ModelUnload.method, encoding: 'json', body: 'none', params: () => modelRef(c) })),
  route('POST', '/model/:model/download', (c) => ({
    method: ModelDownload.method, encoding: 'json', body: 'none', params: () => modelRef(c),
  })),
  route('POST', '/model/:model/download/cancel', (c) => ({
    method: ModelDownloadCancel.method, encoding: 'json', body: 'none', params: () => modelRef(c),
  })),
  route('POST', '/model/update', () => ({
    method: ModelUpdate.method, encoding: 'json', body: 'required', bodyType: 'Model', params: (b) => b,
  })),
  route('POST', '/model/:model/scores/increment', (c) => ({
    method: ModelScoresIncrement.method, encoding: 'void', body: 'optional', bodyType: 'SeededScoreIncrement',
    params: (b) => ({ model: c.model, input: b }),
  })),
  // ConnectorApi.connect: the first call of Pieces' TypeScript copilot example.
  route('POST', '/connect', () => ({
    method: ConnectorConnect.method, encoding: 'json', body: 'required', bodyType: 'SeededConnectorConnection', params: (b) => b,
  })),
  route('POST', '/qgpt/relevance', () => ({
    method: QgptRelevance.method, encoding: 'json', body: 'required', bodyType: 'QGPTRelevanceInput', params: (b) => b,
  })),
  route('POST', '/qgpt/question', () => ({
    method: QgptQuestion.method, encoding: 'json', body: 'required', bodyType: 'QGPTQuestionInput', params: (b) => b,
  })),
  route('POST', '/qgpt/hints', () => ({
    method: QgptHints.method, encoding: 'json', body: 'required', bodyType: 'QGPTHintsInput', params: (b) => b,
  })),
  route('POST', '/qgpt/reprompt', () => ({
    method: QgptReprompt.method, encoding: 'json', body: 'required', bodyType: 'QGPTRepromptInput', params: (b) => b,
  })),
  // The SDK's own example sends `{}` here, and an empty body is how a caller asks about nothing in particular.
  route('POST', '/qgpt/persons/related', () => ({
    method: QgptPersonsRelated.method, encoding: 'json', body: 'optional', bodyType: 'QGPTPersonsRelatedInput',
    params: (b, q) => ({ input: b, transferables: boolQuery(q, 'transferables') }),
  })),
];

/** The WebSocket routes; a plain GET on one of them is answered 426. */
export type SocketRoute =
  | { kind: 'qgpt-stream' }
  | { kind: 'identifiers' }
  | { kind: 'download-progress'; model: string }
  | { kind: 'rpc' };

export function matchSocket(pathname: string): SocketRoute | null {
  const s = split(pathname);
  const j = s.join('/');
  if (j === 'qgpt/stream') return { kind: 'qgpt-stream' };
  if (j === 'models/stream/identifiers') return { kind: 'identifiers' };
  if (j === 'askcode/rpc') return { kind: 'rpc' };
  if (s.length === 4 && s[0] === 'model' && s[2] === 'download' && s[3] === 'progress') {
    return { kind: 'download-progress', model: decode(s[1], 'model') };
  }
  return null;
}

export type RestMatch = { found: RouteMatch } | { wrongVerb: string[] } | null;

export function matchRest(verb: string, pathname: string): RestMatch {
  const segs = split(pathname);
  const verbs: string[] = [];
  for (const r of ROUTES) {
    const captures = capture(r.pattern, segs);
    if (!captures) continue;
    if (r.verb === verb || (verb === 'HEAD' && r.verb === 'GET')) return { found: r.build(captures) };
    verbs.push(r.verb);
  }
  return verbs.length > 0 ? { wrongVerb: verbs } : null;
}

function capture(pattern: string[], segs: string[]): Record<string, string> | null {
  if (pattern.length !== segs.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) {
      const name = pattern[i].slice(1);
      out[name] = decode(segs[i], name);
    } else if (pattern[i] !== segs[i]) return null;
  }
  return out;
}

function decode(seg: string, field: string): string {
  let v: string;
  try {
    v = decodeURIComponent(seg);
  } catch {
    throw invalid(`path parameter ${field} is not valid percent-encoding`, field);
  }
  if (v.length === 0) throw invalid(`path parameter ${field} is empty`, field);
  return v;
}

/** Path segments, ignoring the leading slash and one trailing slash. */
function split(pathname: string): string[] {
  return pathname.split('/').filter((s, i, a) => !(s === '' && (i === 0 || i === a.length - 1)));
}
