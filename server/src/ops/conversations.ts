import type { Service } from '../core/service';
import type { Conversations } from '../qgpt/conversations';
import { ConversationsList, ConversationsGet, ConversationsRename, ConversationsDelete } from '../protocol/workspace';
import { invalid } from '../core/errors';

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
    if (q !== undefined && q !== null && (typeof q !== 'object' || Array.isArray(q))) throw invalid('params must be an object like { all: true }, or nothing', 'params');
    const all = (q as { all?: unknown } | null | undefined)?.all;
    if (all !== undefined && all !== null && typeof all !== 'boolean') throw invalid('all must be a boolean', 'all');
    return conversations.list(all === true ? undefined : folders());
  });
  service.register(ConversationsGet, (p) => conversations.get(p.id));
  service.register(ConversationsRename, (p) => conversations.rename(p.id, p.name.trim()));
  service.register(ConversationsDelete, async (p) => {
    await conversations.delete(p.id);
    return null;
  });
}
