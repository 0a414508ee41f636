import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { SymbolsFind, SymbolsReferences, type SymbolKind, type SymbolDefinition } from '../protocol/symbols';
import { invalid } from '../core/errors';
import { describe, isObject } from '../qgpt/validate';

const KINDS: readonly SymbolKind[] = ['class', 'interface', 'type', 'enum', 'function', 'method', 'constant', 'variable', 'module'];
const MAX_LIMIT = 1000;

export interface SymbolsDeps {
  index: WorkspaceIndex;
}

function requireName(p: unknown): { name: string; limit?: number } {
  if (!isObject(p)) throw invalid(`params must be an object with a name, got ${describe(p)}`, 'name');
  const { name, limit } = p as { name?: unknown; limit?: unknown };
  if (typeof name !== 'string' || !name.trim()) throw invalid(`name must be a non-empty string, got ${describe(name)}`, 'name');
  if (name.length > 200) throw invalid(`name is ${name.length} characters long; the limit is 200`, 'name');
  if (limit !== undefined && limit !== null && !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_LIMIT)) {
    throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${describe(limit)}`, 'limit');
  }
  return { name: name.trim(), limit: (limit as number | undefined) ?? undefined };
}

/** `askcode/symbols/find` and `askcode/symbols/references` over the workspace index's symbols. */
export function registerSymbols(service: Service, deps: SymbolsDeps): void {
  service.register(SymbolsFind, async (p) => {
    const { name, limit } = requireName(p);
    const kind = (p as { kind?: unknown }).kind;
    if (kind !== undefined && kind !== null && !KINDS.includes(kind as SymbolKind)) {
      throw invalid(`kind must be one of ${KINDS.join(', ')}, got ${describe(kind)}`, 'kind');
    }
    const found = await deps.index.findSymbols(name, { kind: (kind ?? undefined) as SymbolKind | undefined, limit });
    const definitions: SymbolDefinition[] = found.map(({ match: _m, test: _t, ...d }) => d);
    return { definitions };
  });
  service.register(SymbolsReferences, async (p) => {
    const { name, limit } = requireName(p);
    const callsOnly = (p as { callsOnly?: unknown }).callsOnly;
    if (callsOnly !== undefined && callsOnly !== null && typeof callsOnly !== 'boolean') throw invalid('callsOnly must be a boolean', 'callsOnly');
    return { references: await deps.index.findReferences(name, { callsOnly: callsOnly === true, limit }) };
  });
}
