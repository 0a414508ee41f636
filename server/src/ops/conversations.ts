import type { Service } from '../core/service';
import type { Conversations } from '../qgpt/conversations';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete } from '../protocol/workspace';
import { requireObject } from '../qgpt/validate';

export interface ConversationsDeps {
  conversations: Conversations;
}

/** The kept conversations: list, read, rename, delete (the stream appends to them). */
export function registerConversations(service: Service, { conversations }: ConversationsDeps): void {
  service.register(ConversationsList, () => conversations.list());
  service.register(ConversationsGet, (p) => conversations.get(requireObject(p, 'params').id));
  service.register(ConversationsRename, (p) => {
    const o = requireObject(p, 'params');
    return conversations.rename(o.id, o.name);
  });
  service.register(ConversationsDelete, async (p) => {
    await conversations.delete(requireObject(p, 'params').id);
    return null;
  });
}
