import type { Service } from '../core/service';
import { CodeRead, type CodeReadParams } from '../protocol/symbols';
import { invalid } from '../core/errors';
import { readCode } from '../index/readCode';

export interface CodeDeps {
  /** The workspace (or served) folders: the only places a read may reach. */
  folders(): string[];
}

/** `askcode/code/read`: lines of a file inside the workspace folders (citations, MCP `read_code`). */
export function registerCode(service: Service, deps: CodeDeps): void {
  service.register(CodeRead, (params: CodeReadParams) => {
    if (!params || typeof params !== 'object' || typeof params.path !== 'string' || !params.path) {
      throw invalid('path must be a non-empty string', 'path');
    }
    for (const k of ['startLine', 'endLine'] as const) {
      const v = params[k];
      if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw invalid(`${k} must be a positive whole number`, k);
    }
    return readCode(deps.folders(), params);
  });
}
