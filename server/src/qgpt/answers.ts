// STUB — replaced by the answers implementation.
import type { Service } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelHub, Retriever, QuestionAnswerer } from '../core/interfaces';
import type { QGPTQuestionInput, QGPTQuestionOutput } from '../protocol/wire';

export class Answers implements QuestionAnswerer {
  private constructor(readonly options: CoreOptions, readonly service: Service, readonly hub: ModelHub, readonly retriever: Retriever) {}
  static async create(options: CoreOptions, service: Service, hub: ModelHub, retriever: Retriever): Promise<Answers> {
    return new Answers(options, service, hub, retriever);
  }
  async question(_input: QGPTQuestionInput): Promise<QGPTQuestionOutput> { return { answers: { iterable: [] } }; }
  async dispose(): Promise<void> {}
}
