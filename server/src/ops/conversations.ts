import type { Service } from '../core/service';
import type { Conversations } from '../qgpt/conversations';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete } from '../protocol/workspace';
import { optionalBoolean, requireObject } from '../qgpt/validate';

export interface ConversationsDeps {
  conversations: Conversations;
  /** The current workspace folders: the list shows their conversations unless `all` is asked. */
  folders: () => string[];
}

/** The kept conversations: list, read, rename, delete (the stream appends to them). */
export function registerConversations(service: Service, { conversations, folders }: ConversationsDeps): void {
  service.register(ConversationsList, (p) => {
    // vscode-jsonrpc sends no params as an empty array.
    const q = Array.isArray(p) ? p[0] : p;
    const o = q === undefined || q === null ? {} : requireObject(q, 'params');
    const all = optionalBoolean(o.all, 'all') ?? false;
    return conversations.list(all ? undefined : folders());
  });
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
