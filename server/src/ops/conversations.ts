import type { Service } from '../core/service';
import type { Conversations } from '../qgpt/conversations';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete } from '../protocol/workspace';

export interface ConversationsDeps {
  conversations: Conversations;
}

/** The kept conversations: list, read, rename, delete (the stream appends to them). */
export function registerConversations(service: Service, { conversations }: ConversationsDeps): void {
  service.register(ConversationsList, () => conversations.list());
  service.register(ConversationsGet, (p) => conversations.get(p.id));
  service.register(ConversationsRename, (p) => conversations.rename(p.id, p.name.trim()));
  service.register(ConversationsDelete, async (p) => {
    await conversations.delete(p.id);
    return null;
  });
}
