import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { JsonFile, sweepStaleTemp } from '../core/jsonFile';
import type { Logger } from '../core/logger';
import { AskcodeError, notFound } from '../core/errors';
import type { ConversationMessageRecord, ConversationRecord, ConversationSummary } from '../protocol/workspace';

function isRecord(v: unknown): v is ConversationRecord {
  const r = v as Partial<ConversationRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.name === 'string' && Array.isArray(r.messages_);
}

function summary(r: ConversationRecord): ConversationSummary {
  return { id: r.id, name: r.name, created: r.created, updated: r.updated, messages: r.messages_.length, ...(r.folders ? { folders: r.folders } : {}) };
}

const norm = (f: string) => path.resolve(f).replace(/[\\/]+$/, '');

/**
 * Conversations, one JSON file each under `<dataDir>/conversations`, written atomically
 * (core/jsonFile.ts): a crash mid-write leaves the previous version, and one busy conversation
 * never rewrites the others.
 */
export class Conversations {
  private readonly files = new Map<string, JsonFile<ConversationRecord | null>>();
  /** Serialises read-modify-write per conversation so concurrent appends never lose a message. */
  private readonly locks = new Map<string, Promise<unknown>>();

  /** Temp files of writes a crash interrupted are removed before the first use. */
  private readonly swept: Promise<unknown>;

  constructor(readonly dir: string, private readonly log?: Logger) {
    this.swept = sweepStaleTemp(dir, log).catch(() => 0);
  }

  /**
   * Reads a conversation; a damaged one with no good backup is an error, never an empty slot:
   * otherwise the next message would silently start a new conversation under its id.
   */
  private async load(id: string, field: string): Promise<ConversationRecord | null> {
    await this.swept;
    const f = this.file(id);
    const r = await f.read();
    if (r) return r;
    const corrupt = path.join(this.dir, `${id}.json.corrupt`);
    if (f.lost || (await fs.stat(corrupt).then(() => true, () => false))) {
      throw new AskcodeError('conflict', `conversation '${id}' is damaged and has no good backup (kept as ${id}.json.corrupt): delete it, or start a new conversation`, field);
    }
    return null;
  }

  private file(id: string): JsonFile<ConversationRecord | null> {
    let f = this.files.get(id);
    if (!f) {
      f = new JsonFile<ConversationRecord | null>(path.join(this.dir, `${id}.json`), () => null, (v): v is ConversationRecord => isRecord(v), this.log);
      this.files.set(id, f);
    }
    return f;
  }

  private exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const settled = next.catch(() => {});
    this.locks.set(id, settled);
    void settled.then(() => {
      if (this.locks.get(id) === settled) this.locks.delete(id);
    });
    return next;
  }

  newId(): string {
    return randomUUID();
  }

  /**
   * Conversations, newest first. With `folders` (the current workspace folders), only those held
   * in one of them; conversations from before folders were recorded are in the full list only.
   */
  async list(folders?: string[]): Promise<ConversationSummary[]> {
    const want = folders?.length ? new Set(folders.map(norm)) : undefined;
    await this.swept;
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const out: ConversationSummary[] = [];
    for (const n of names) {
      if (!n.endsWith('.json')) continue;
      const id = n.slice(0, -5);
      const r = await this.file(id).read().catch(() => null);
      if (r && (!want || (r.folders ?? []).some((f) => want.has(norm(f))))) out.push(summary(r));
    }
    return out.sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
  }

  /** `id` is a checked id (the protocol's `Id`): it names a file. */
  async get(id: string, field = 'id'): Promise<ConversationRecord> {
    const r = await this.load(id, field);
    if (!r) throw notFound(`conversation '${id}' does not exist`, field);
    return r;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.file(id).read()) !== null;
  }

  async rename(cid: string, name: string): Promise<ConversationSummary> {
    return this.exclusive(cid, async () => {
      const r = await this.get(cid);
      r.name = name;
      r.updated = new Date().toISOString();
      await this.file(cid).write(r);
      return summary(r);
    });
  }

  async delete(cid: string): Promise<void> {
    await this.exclusive(cid, async () => {
      const base = path.join(this.dir, `${cid}.json`);
      // A damaged conversation can be deleted too (that is how the user clears it).
      try {
        await this.get(cid);
      } catch (e) {
        if (!(e instanceof AskcodeError && e.kind === 'conflict')) throw e;
        await fs.rm(base + '.corrupt', { force: true });
      }
      await fs.rm(base, { force: true });
      await fs.rm(base + '.bak', { force: true });
      this.files.delete(cid);
    });
  }

  /**
   * Appends messages, creating the conversation on first use: clients may name a conversation
   * they created elsewhere (SPEC §3.1), so an unknown id is adopted, not refused.
   */
  async append(id: string, messages: Omit<ConversationMessageRecord, 'id' | 'created'>[], nameHint?: string, folders?: string[]): Promise<ConversationRecord> {
    return this.exclusive(id, async () => {
      const now = new Date().toISOString();
      const r: ConversationRecord = (await this.load(id, 'conversation')) ?? {
        id,
        name: nameHint ? nameOf(nameHint) : 'New conversation',
        created: now,
        updated: now,
        messages: 0,
        messages_: [],
      };
      // A conversation belongs to every folder it was held in.
      if (folders?.length) r.folders = [...new Set([...(r.folders ?? []), ...folders.map(norm)])];
      for (const m of messages) r.messages_.push({ id: randomUUID(), created: new Date().toISOString(), ...m });
      r.messages = r.messages_.length;
      r.updated = now;
      await this.file(id).write(r);
      return r;
    });
  }
}

function nameOf(query: string): string {
  const one = query.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? one.slice(0, 59) + '…' : one || 'New conversation';
}
