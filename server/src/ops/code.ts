import type { Service } from '../core/service';
import { CodeRead, type CodeReadParams } from '../protocol/symbols';
import { readCode } from '../index/readCode';

export interface CodeDeps {
  /** The workspace (or served) folders: the only places a read may reach. */
  folders(): string[];
}

/** `askcode/code/read`: lines of a file inside the workspace folders (citations, MCP `read_code`). */
export function registerCode(service: Service, deps: CodeDeps): void {
  service.register(CodeRead, (params: CodeReadParams) => readCode(deps.folders(), params));
}
