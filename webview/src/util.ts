/** Small helpers shared by the chat's components. */
import type { Seed } from '../../server/src/protocol';
import type { SelectionSeed } from '../../server/src/protocol/ui';

/** Ids the worker echoes on every frame; also unique across views sharing one worker connection. */
export function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A selection as a wire Seed (a fragment the worker can search or answer from). */
export function selectionSeed(s: SelectionSeed): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: { id: 'askcode', name: 'OPEN_SOURCE', version: '0.1.0', platform: 'LINUX', onboarded: true, privacy: 'OPEN' },
      format: { fragment: { string: { raw: s.text }, metadata: s.ext ? { ext: s.ext } : undefined } },
      metadata: s.path ? { name: s.path } : undefined,
    },
  };
}

/** `path:12-30`, `path:12` or `path`. */
export function placeLabel(path: string, start?: number, end?: number): string {
  if (!start) return path;
  return end && end !== start ? `${path}:${start}-${end}` : `${path}:${start}`;
}

/** A Markdown-free plain text of some lines of code, for the clipboard. */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}
