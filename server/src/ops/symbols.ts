import type { Service } from '../core/service';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import { SymbolsFind, SymbolsReferences, type SymbolDefinition } from '../protocol/symbols';

export interface SymbolsDeps {
  index: WorkspaceIndex;
}

/** `askcode/symbols/find` and `askcode/symbols/references` over the workspace index's symbols. */
export function registerSymbols(service: Service, deps: SymbolsDeps): void {
  service.register(SymbolsFind, async (p) => {
    const found = await deps.index.findSymbols(p.name.trim(), { kind: p.kind ?? undefined, limit: p.limit ?? undefined });
    const definitions: SymbolDefinition[] = found.map(({ match: _m, test: _t, ...d }) => d);
    return { definitions };
  });
  service.register(SymbolsReferences, async (p) => {
    return { references: await deps.index.findReferences(p.name.trim(), { callsOnly: p.callsOnly === true, limit: p.limit ?? undefined }) };
  });
}
