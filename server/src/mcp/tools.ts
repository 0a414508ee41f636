/**
 * The MCP face: askcode's operations as MCP tools. Each tool decodes its (schema-checked)
 * arguments, calls one service operation, and encodes the result as text citing `path:lines`
 * plus structured content. Failures come back as `isError` results the agent can read.
 */
import * as path from 'node:path';
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Core } from '../core/core';
import { AskcodeError, invalid, notFound, toAskcodeError } from '../core/errors';
import { QgptRelevance, QgptPersonsRelated } from '../protocol/qgpt';
import { CodeRead, SymbolsFind, SymbolsReferences, type SymbolKind } from '../protocol/symbols';
import { isWithin, locate } from '../core/safePath';
import { askQuestion, askText, type Progress } from './ask';
import { indexNotice } from '../qgpt/answerFlow';
import { cite, fence, relativeTo, result, snippetLine, snippetOf, toolError, type Snippet } from './render';

const SYMBOL_KINDS = ['class', 'interface', 'type', 'enum', 'function', 'method', 'constant', 'variable', 'module'] as const satisfies readonly SymbolKind[];

/**
 * How long a tool that reads the index waits for it to catch up with the folders (the first
 * index of a folder just opened) before answering from what is indexed so far, with a note.
 */
const INDEX_WAIT_MS = 20_000;

/** Set when a result came from an index still being built. */
const noteSchema = z.string().optional();

const pathArg = z.string().min(1).max(4096);
const line = z.number().int().min(1);

const snippetSchema = z.object({
  path: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  symbol: z.string().optional(),
  language: z.string().optional(),
  score: z.number(),
  why: z.string().optional(),
});

export interface McpFaceOptions {
  version: string;
}

/** A fresh server with askcode's tools (the SDK's HTTP entry builds one per request, stdio one per connection). */
export function createMcpServer(core: Core, opts: McpFaceOptions): McpServer {
  const folders = () => core.index.folders();
  const server = new McpServer(
    { name: 'askcode', title: 'askcode', version: opts.version },
    {
      capabilities: { tools: {} },
      instructions:
        `askcode answers questions about the code in ${folders().length ? folders().map((f) => path.basename(f)).join(', ') : 'no folder yet'} ` +
        'from a local index. Use search_code to find where something is, find_symbol / find_references for a named ' +
        'identifier, read_code to read lines, ask for an explained answer with citations, related_people for who knows a ' +
        'file. Every result cites places as path:start-end with the path relative to its served folder.',
    },
  );

  /** Runs an operation; an AskcodeError becomes an `isError` result, never a crash or a protocol fault. */
  const run = async (fn: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await fn();
    } catch (e) {
      const err = toAskcodeError(e);
      if (err.kind === 'internal') core.options.log.error(`mcp: ${err.stack ?? err.message}`);
      if (err.kind === 'not_found' && /^unknown method /.test(err.message)) {
        return toolError(new AskcodeError('unavailable', `this askcode build does not serve ${err.message.slice('unknown method '.length)} yet`));
      }
      return toolError(err);
    }
  };

  /**
   * A path an agent gave (relative to a served folder, or absolute), held to the served folders:
   * its real path, links followed, must lie inside one (core/safePath.ts, as every read does).
   */
  const inside = async (p: string, field: string): Promise<string> => {
    const roots = folders();
    if (!roots.length) throw new AskcodeError('unavailable', 'askcode serves no folder: start it with one (askcode mcp <folder>)');
    const outside = () => new AskcodeError('forbidden', `${field} '${p}' is outside the served folders (${roots.join(', ')})`, field);
    const found = await locate(roots, p);
    if ('abs' in found) return found.abs;
    if ('outside' in found) throw outside();
    const named = path.isAbsolute(p) ? [path.resolve(p)] : roots.map((r) => path.resolve(r, p));
    if (!named.some((a) => roots.some((r) => isWithin(path.resolve(r), a)))) throw outside();
    throw notFound(`${field}: no file or folder '${p}' in the served folders`, field);
  };

  /**
   * The index caught up first (at most INDEX_WAIT_MS, reported as progress): a client calls its
   * tools as soon as it has started `askcode mcp`, while the folders are still being indexed.
   * Returns the answers' own notice (qgpt/answerFlow.ts `indexNotice`) when it had to answer from
   * part of the index.
   */
  const caughtUp = async (ctx: ServerContext, progress: Progress | undefined): Promise<string | undefined> => {
    let last = '';
    await core.index.whenReady(INDEX_WAIT_MS, ctx.mcpReq.signal, (st) => {
      const m = st.filesTotal ? `indexing the served folders: ${st.files} of ${st.filesTotal} files` : 'indexing the served folders';
      if (m !== last) progress?.((last = m));
    });
    return indexNotice(core.index.status())?.message;
  };

  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description:
        'Find the code snippets most relevant to a natural-language or code query in the served folders (keyword and ' +
        'meaning search over syntax-aware chunks). Returns the best snippets first, each cited as path:start-end with its ' +
        'code, score and why it matched. Use it to locate where something is implemented before reading or editing; ' +
        'narrow with `paths` when you know the area.',
      inputSchema: z.object({
        query: z.string().min(1).max(2000).describe('What to look for, e.g. "where are sessions validated" or "parse_config error handling"'),
        paths: z.array(pathArg).min(1).max(100).optional().describe('Files or folders to search within (relative to a served folder, or absolute inside one). Default: everything served'),
        limit: z.number().int().min(1).max(50).optional().describe('How many snippets to return (default 8)'),
      }),
      outputSchema: z.object({ query: z.string(), results: z.array(snippetSchema.extend({ text: z.string() })), note: noteSchema }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, paths, limit }, ctx) =>
      run(async () => {
        const abs = paths ? await Promise.all(paths.map((p, i) => inside(p, `paths[${i}]`))) : undefined;
        const note = await caughtUp(ctx, progressOf(ctx));
        const out = await core.service.request(
          QgptRelevance,
          abs ? { query, paths: abs } : { query, options: { database: true } },
          { signal: ctx.mcpReq.signal, connection: 'mcp', origin: 'mcp' },
        );
        const results = out.relevant.iterable.map((s) => snippetOf(s, folders())).filter((s): s is Snippet => !!s).slice(0, limit ?? 8);
        const text = results.length
          ? results.map((s, i) => `${snippetLine(s, i)}\n${fence(s.text, s.language)}`).join('\n\n')
          : `No snippet matches "${query}" in the served folders${abs ? ' under the given paths' : ''}.`;
        return result(withNote(text, note), { query, results, ...(note ? { note } : {}) });
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask about the code',
      description:
        'Ask a question about the served code and get an answer grounded in the code, with the sources cited as ' +
        'path:start-end. The answer comes from the user\'s configured model, or is extractive (quoting the places) when ' +
        'none is set. Returns a `conversation` id: pass it back as `conversation` to ask a follow-up ("and where is it ' +
        'called?") that keeps the context. Streams the answer as progress notifications when you send a progressToken.',
      inputSchema: z.object({
        question: z.string().min(1).max(4000).describe('The question, in plain language'),
        conversation: z
          .string()
          .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'a conversation id as returned by an earlier ask')
          .optional()
          .describe('The conversation id from an earlier ask result, to ask a follow-up'),
      }),
      outputSchema: z.object({
        answer: z.string(),
        conversation: z.string(),
        status: z.enum(['COMPLETED', 'STOPPED']),
        score: z.number().optional(),
        sources: z.array(snippetSchema),
        notices: z.array(z.string()),
        rewrittenQuery: z.string().optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, ctx) =>
      run(async () => {
        const progress = progressOf(ctx);
        // The answer carries the index's notice itself, when it had to answer from part of it.
        await caughtUp(ctx, progress);
        const out = await askQuestion(core, args, ctx.mcpReq.signal, progress);
        return result(askText(out), { ...out });
      }),
  );

  server.registerTool(
    'find_symbol',
    {
      title: 'Find a symbol definition',
      description:
        'Find where a class, function, method, type or constant is defined, by plain name ("handle_exception"), ' +
        'qualified name ("Flask.handle_exception") or prefix. Returns definitions best first (exact name, then qualified ' +
        'suffix, then prefix), each cited as path:start-end with its signature. Faster and more exact than search_code ' +
        'when you know the identifier.',
      inputSchema: z.object({
        name: z.string().min(1).max(300).describe('The identifier, plain or qualified'),
        kind: z.enum(SYMBOL_KINDS).optional().describe('Only definitions of this kind'),
        limit: z.number().int().min(1).max(100).optional().describe('How many definitions to return (default 20)'),
      }),
      outputSchema: z.object({
        definitions: z.array(
          z.object({ name: z.string(), qualifiedName: z.string(), kind: z.string(), path: z.string(), startLine: z.number(), endLine: z.number(), language: z.string(), signature: z.string().optional() }),
        ),
        note: noteSchema,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name, kind, limit }, ctx) =>
      run(async () => {
        const note = await caughtUp(ctx, progressOf(ctx));
        const out = await core.service.request(SymbolsFind, { name, ...(kind ? { kind } : {}), limit: limit ?? 20 }, { signal: ctx.mcpReq.signal, connection: 'mcp', origin: 'mcp' });
        const definitions = out.definitions.map((d) => ({
          name: d.name,
          qualifiedName: d.qualifiedName,
          kind: d.kind,
          path: d.relativePath || relativeTo(folders(), d.path),
          startLine: d.startLine,
          endLine: d.endLine,
          language: d.language,
          ...(d.signature ? { signature: d.signature } : {}),
        }));
        const text = definitions.length
          ? definitions.map((d) => `${d.kind} ${d.qualifiedName} — ${cite(d.path, d.startLine, d.endLine)}${d.signature ? `\n    ${d.signature}` : ''}`).join('\n')
          : `No definition named "${name}"${kind ? ` of kind ${kind}` : ''} in the served folders. Try search_code, or a shorter name.`;
        return result(withNote(text, note), { definitions, ...(note ? { note } : {}) });
      }),
  );

  server.registerTool(
    'find_references',
    {
      title: 'Find references to a symbol',
      description:
        'Find where an identifier is used (called or referenced) outside its own definitions, call sites first, each ' +
        'cited as path:line with the line\'s text and the enclosing function. Use it to see who calls a function before ' +
        'changing it.',
      inputSchema: z.object({
        name: z.string().min(1).max(300).describe('The identifier whose uses to find'),
        callsOnly: z.boolean().optional().describe('Only call sites (name followed by a call)'),
        limit: z.number().int().min(1).max(200).optional().describe('How many references to return (default 50)'),
      }),
      outputSchema: z.object({
        references: z.array(
          z.object({ name: z.string(), kind: z.string(), path: z.string(), startLine: z.number(), endLine: z.number(), text: z.string(), enclosing: z.string().optional(), inDocstring: z.boolean().optional() }),
        ),
        note: noteSchema,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name, callsOnly, limit }, ctx) =>
      run(async () => {
        const note = await caughtUp(ctx, progressOf(ctx));
        const out = await core.service.request(
          SymbolsReferences,
          { name, ...(callsOnly !== undefined ? { callsOnly } : {}), limit: limit ?? 50 },
          { signal: ctx.mcpReq.signal, connection: 'mcp', origin: 'mcp' },
        );
        const references = out.references.map((r) => ({
          name: r.name,
          kind: r.kind,
          path: r.relativePath || relativeTo(folders(), r.path),
          startLine: r.startLine,
          endLine: r.endLine,
          text: r.text,
          ...(r.enclosing ? { enclosing: r.enclosing } : {}),
          ...(r.inDocstring ? { inDocstring: true } : {}),
        }));
        const text = references.length
          ? references.map((r) => `${cite(r.path, r.startLine, r.endLine)} ${r.kind}${r.inDocstring ? ' (a docstring\'s example)' : ''}${r.enclosing ? ` in ${r.enclosing}` : ''}: ${r.text}`).join('\n')
          : `No reference to "${name}" in the served folders.`;
        return result(withNote(text, note), { references, ...(note ? { note } : {}) });
      }),
  );

  server.registerTool(
    'related_people',
    {
      title: 'Find related people',
      description:
        'Find the people who know a file or a range of its lines best, from git blame and git log (weighted by how ' +
        'recent and how many of the lines) plus CODEOWNERS: who to ask or to request a review from. Give a path relative ' +
        'to a served folder (a folder works too), optionally with lines.',
      inputSchema: z.object({
        path: pathArg.describe('A file or folder, relative to a served folder or absolute inside one'),
        startLine: line.optional().describe('First line of the range (1-based)'),
        endLine: line.optional().describe('Last line of the range (inclusive)'),
      }),
      outputSchema: z.object({
        people: z.array(
          z.object({ name: z.string(), email: z.string().optional(), score: z.number(), lines: z.number(), commits: z.number(), lastChange: z.string().optional(), codeowner: z.boolean().optional(), files: z.array(z.string()) }),
        ),
        reason: z.string().optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, ctx) =>
      run(async () => {
        if (args.endLine !== undefined && args.startLine === undefined) throw invalid('endLine needs a startLine', 'startLine');
        if (args.startLine !== undefined && args.endLine !== undefined && args.endLine < args.startLine) throw invalid('endLine is before startLine', 'endLine');
        const abs = await inside(args.path, 'path');
        // The operation finds people for the places a conversation cites; one message citing this range is exactly that.
        const at = args.startLine !== undefined ? `:${args.startLine}-${args.endLine ?? args.startLine}` : '';
        const out = await core.service.request(
          QgptPersonsRelated,
          { input: { conversation: { iterable: [{ role: 'USER', text: `${abs}${at}`, timestamp: { value: new Date().toISOString() } }] } } },
          { signal: ctx.mcpReq.signal, connection: 'mcp', origin: 'mcp' },
        );
        const people = out.persons.iterable.map((p) => {
          const info = p.askcode;
          const basic = p.type.basic ?? {};
          return {
            name: basic.name ?? basic.username ?? basic.email ?? p.id,
            ...(basic.email ? { email: basic.email } : {}),
            score: info?.score ?? 0,
            lines: info?.lines ?? 0,
            commits: info?.commits ?? 0,
            ...(info?.lastChange ? { lastChange: info.lastChange } : {}),
            ...(info?.codeowner ? { codeowner: true } : {}),
            files: (info?.files ?? []).map((f) => relativeTo(folders(), f.path)),
          };
        });
        const where = cite(relativeTo(folders(), abs), args.startLine, args.endLine ?? args.startLine);
        const text = people.length
          ? [`People who know ${where}:`, ...people.map((p, i) =>
              `${i + 1}. ${p.name}${p.email ? ` <${p.email}>` : ''} — ${p.lines} lines, ${p.commits} commits${p.lastChange ? `, last change ${p.lastChange.slice(0, 10)}` : ''}${p.codeowner ? ', code owner' : ''} (score ${p.score.toFixed(2)})`)].join('\n')
          : `No one found for ${where}${out.askcode?.reason ? `: ${out.askcode.reason}` : ''}.`;
        return result(text, { people, ...(out.askcode?.reason ? { reason: out.askcode.reason } : {}) });
      }),
  );

  server.registerTool(
    'read_code',
    {
      title: 'Read code',
      description:
        'Read lines of a file in the served folders (only there), e.g. to see the whole function a search result ' +
        'points at. Give the path as cited by the other tools; without lines it returns the start of the file. The ' +
        'result says how many lines the file has, so you can read on.',
      inputSchema: z.object({
        path: pathArg.describe('A file, relative to a served folder (as the other tools cite it) or absolute inside one'),
        startLine: line.optional().describe('First line to read (1-based; default 1)'),
        endLine: line.optional().describe('Last line to read (inclusive)'),
      }),
      outputSchema: z.object({ path: z.string(), startLine: z.number(), endLine: z.number(), totalLines: z.number(), language: z.string().optional(), text: z.string() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, ctx) =>
      run(async () => {
        if (args.startLine !== undefined && args.endLine !== undefined && args.endLine < args.startLine) throw invalid('endLine is before startLine', 'endLine');
        const abs = await inside(args.path, 'path');
        const out = await core.service.request(
          CodeRead,
          { path: abs, ...(args.startLine !== undefined ? { startLine: args.startLine } : {}), ...(args.endLine !== undefined ? { endLine: args.endLine } : {}) },
          { signal: ctx.mcpReq.signal, connection: 'mcp', origin: 'mcp' },
        );
        const rel = out.relativePath || relativeTo(folders(), out.path);
        const more = out.endLine < out.totalLines ? ` (${out.totalLines} lines in all; read on from line ${out.endLine + 1})` : ` (${out.totalLines} lines in all)`;
        const text = `${cite(rel, out.startLine, out.endLine)}${more}\n${fence(out.text, out.language, Number.MAX_SAFE_INTEGER)}`;
        return result(text, { path: rel, startLine: out.startLine, endLine: out.endLine, totalLines: out.totalLines, ...(out.language ? { language: out.language } : {}), text: out.text });
      }),
  );

  return server;
}

function withNote(text: string, note: string | undefined): string {
  return note ? `${text}\n\nNote: ${note}` : text;
}

/** MCP progress for this call, when the client sent a progressToken (`progress` must grow with each one). */
function progressOf(ctx: ServerContext): ((message: string) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let n = 0;
  return (message) => {
    n += 1;
    void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: n, message } }).catch(() => {});
  };
}
