// STUB — replaced by the index implementation.
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Retriever, QuestionAnswerer, Snippet } from '../core/interfaces';
import type { QGPTRelevanceInput, RelevantQGPTSeed } from '../protocol/wire';

export class WorkspaceIndex implements Retriever {
  private answerer?: QuestionAnswerer;
  private constructor(readonly options: CoreOptions, readonly service: Service, readonly hub: ModelHub) {}
  static async create(options: CoreOptions, service: Service, hub: ModelHub): Promise<WorkspaceIndex> {
    return new WorkspaceIndex(options, service, hub);
  }
  setAnswerer(a: QuestionAnswerer): void { this.answerer = a; }
  async relevance(_input: QGPTRelevanceInput): Promise<RelevantQGPTSeed[]> { return []; }
  async getSnippet(_id: string): Promise<Snippet | null> { return null; }
  async locate(): Promise<{ path: string; startLine: number; endLine: number }[]> { return []; }
  folders(): string[] { return this.options.folders; }
  async dispose(): Promise<void> {}
}
