// STUB — replaced by the Models implementation.
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Embedder, Generator } from '../core/interfaces';

export class ModelManager implements ModelHub {
  readonly extractiveModelId = 'askcode-extractive';
  private constructor(readonly options: CoreOptions, readonly service: Service) {}
  static async create(options: CoreOptions, service: Service): Promise<ModelManager> {
    return new ModelManager(options, service);
  }
  async getEmbedder(): Promise<Embedder | null> { return null; }
  async getGenerator(): Promise<Generator | null> { return null; }
  defaultConversationModelId(): string { return this.extractiveModelId; }
  async dispose(): Promise<void> {}
}
