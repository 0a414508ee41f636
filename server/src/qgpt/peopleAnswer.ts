import * as path from 'node:path';
import type { Person } from '../protocol/wire';
import type { Passage } from './seeds';
import { placeLink } from './extractive';

const SHOWN = 5;

function relative(p: Passage, folders: string[]): Passage {
  if (!p.path || !path.isAbsolute(p.path)) return p;
  const root = folders.find((f) => p.path!.startsWith(f + path.sep));
  return root ? { ...p, path: path.relative(root, p.path).split(path.sep).join('/') } : p;
}

/** The short text answer to a people question; the people themselves travel in AnswerExtras.persons. */
export function peopleAnswer(topic: string, persons: Person[], reason: string | undefined, places: Passage[], folders: string[], totalLines?: number): string {
  const about = topic.trim() ? `“${topic.trim().replace(/[?.!]+$/, '')}”` : 'this';
  if (!persons.length) return `I could not name anyone for ${about}: ${reason ?? 'git has no author for these lines'}.`;
  const where = places.map((p) => placeLink(relative(p, folders))).join(', ');
  const rows = persons.slice(0, SHOWN).map((p, i) => {
    const b = p.type?.basic;
    const name = b?.name ?? b?.email ?? b?.username ?? 'someone';
    const info = p.askcode;
    const parts: string[] = [];
    if (info?.lines) {
      const total = totalLines ?? Math.round(info.lines / Math.max(info.score, 1e-9));
      parts.push(`${info.lines} of ${total} relevant lines (${Math.round((100 * info.lines) / Math.max(1, total))}%)`);
    }
    if (info?.codeowner) parts.push(info.lines ? 'code owner' : 'named in CODEOWNERS, wrote none of these lines');
    if (info?.lastChange) parts.push(`last change ${info.lastChange.slice(0, 10)}`);
    return `${i + 1}. **${name}**${b?.email && b.email !== name ? ` <${b.email}>` : ''}${parts.length ? ` — ${parts.join(', ')}` : ''}`;
  });
  const first = persons[0]!.type?.basic?.name ?? 'The first person';
  return `**${first}** knows ${about} best, by share of the lines of the most relevant places (${where}):\n\n${rows.join('\n')}`;
}
