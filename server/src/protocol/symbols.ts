import { request } from './base';
import { z, nonEmpty } from './schema';

/**
 * The symbol index: definitions (classes, functions, methods, constants, types) and identifier
 * occurrences from the same tree-sitter parse that chunks the files. Serves "where is X defined /
 * called" in relevance, the MCP tools `find_symbol` / `find_references`, and the VS Code tools.
 */

export type SymbolKind =
  | 'class' | 'interface' | 'type' | 'enum' | 'function' | 'method' | 'constant' | 'variable' | 'module';

export interface CodeLocation {
  /** Absolute path on disk. */
  path: string;
  /** Path relative to its workspace folder (forward slashes), for display and citations. */
  relativePath: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface SymbolDefinition extends CodeLocation {
  /** Plain name: `handle_exception`. */
  name: string;
  /** Qualified by its enclosing definitions: `Flask.handle_exception`. */
  qualifiedName: string;
  kind: SymbolKind;
  language: string;
  /** The first line of the definition, trimmed (a signature to show). */
  signature?: string;
}

export interface SymbolReference extends CodeLocation {
  name: string;
  /** `call` when the occurrence is called (`name(`), else `reference`. */
  kind: 'call' | 'reference';
  /** The line's text, trimmed. */
  text: string;
  /** Qualified name of the definition that encloses the occurrence, when there is one. */
  enclosing?: string;
  /** In a docstring (an example of its use), not in the code itself. */
  inDocstring?: boolean;
}

export interface SymbolsFindParams {
  /** A plain, qualified (`Flask.handle_exception`, `a::b`) or partial name; matched case-sensitively first. */
  name: string;
  kind?: SymbolKind;
  limit?: number;
}

export interface SymbolsReferencesParams {
  name: string;
  /** Only call sites. */
  callsOnly?: boolean;
  limit?: number;
}

export interface CodeReadParams {
  /** Absolute, or relative to a workspace folder; must lie inside one. */
  path: string;
  startLine?: number;
  endLine?: number;
}

export interface CodeReadResult extends CodeLocation {
  language?: string;
  /** The lines asked for (capped), without line numbers. */
  text: string;
  /** Lines in the whole file. */
  totalLines: number;
}

const MAX_LIMIT = 1000;
const Limit = z.number().refine((v) => Number.isInteger(v) && v >= 1 && v <= MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`).nullish();
const SymbolKindSchema = z.enum(['class', 'interface', 'type', 'enum', 'function', 'method', 'constant', 'variable', 'module']);
const Line = z.number().refine((v) => Number.isInteger(v) && v >= 1, 'must be a positive whole number').optional();
const SymbolName = z.string().refine(nonEmpty, 'must be a non-empty string').refine((v) => v.length <= 200, 'is longer than 200 characters');
const NAMED = { field: 'name', expected: 'an object with a name' };

/** Definitions matching a name, best first (exact name, then qualified suffix, then prefix). */
export const SymbolsFind = request<SymbolsFindParams, { definitions: SymbolDefinition[] }>('askcode/symbols/find',
  z.looseObject({ name: SymbolName, kind: SymbolKindSchema.nullish(), limit: Limit }), NAMED);
/** Occurrences of a name outside its own definitions, call sites first. */
export const SymbolsReferences = request<SymbolsReferencesParams, { references: SymbolReference[] }>('askcode/symbols/references',
  z.looseObject({ name: SymbolName, callsOnly: z.boolean().nullish(), limit: Limit }), NAMED);
/** Lines of a file inside the workspace folders (never outside them, never a special file). */
export const CodeRead = request<CodeReadParams, CodeReadResult>('askcode/code/read',
  z.looseObject({ path: z.string().min(1), startLine: Line, endLine: Line }), { field: 'path', expected: 'an object with a path' });
