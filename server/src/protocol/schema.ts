/**
 * The wire's building blocks as zod schemas (seeds, relevant snippets, conversations, ids), shared
 * by the protocol entries. A schema checks the shape a handler may rely on; rules that need the
 * workspace (a path exists, an id is known) stay with the operation. Checks whose failure is a
 * size cap carry `{ kind: 'too_large' }` so every face answers 413 for them.
 *
 * Custom messages are predicates on the field ("must be an absolute path"): the error reads
 * `<field> <message>`.
 */
import { z } from 'zod';

export { z };

export const MAX_QUERY_CHARS = 20_000;
export const MAX_RELEVANT = 200;
export const MAX_PATHS = 100;
export const MAX_SEEDS = 200;
export const TOO_LARGE = { kind: 'too_large' } as const;

/** At most `max` characters (or entries); over it is `too_large`, not `invalid`. */
export function capped<T extends z.ZodType<string | unknown[]>>(s: T, max: number): T {
  return s.refine((v) => v.length <= max, { params: { ...TOO_LARGE, limit: max } });
}

export const nonEmpty = (s: string) => s.trim().length > 0;

/** A question. */
export const Query = capped(z.string().refine(nonEmpty, 'must not be empty'), MAX_QUERY_CHARS);

/** A model id where one is optional (absent: the user's default). */
export const OptionalModel = z.string().refine(nonEmpty, 'must not be empty when given').nullish();

/** Ids we use as file names (conversations) or echo on frames: no separators, bounded length. */
export const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const Id = z.string().refine((v) => ID_RE.test(v), "is not a valid id (letters, digits, '.', '_', ':', '-'; at most 128)");

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
export const AbsolutePath = z.string().min(1).refine(isAbsolutePath, 'must be an absolute path');

export const EmbeddedModelSchema = z.looseObject({ migration: z.number(), semantic: z.string() });
export const GroupedTimestamp = z.looseObject({ value: z.string(), readable: z.string().nullish() });

export const Application = z.looseObject({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  onboarded: z.boolean(),
  privacy: z.string(),
});

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

export const TransferableString = z.looseObject({
  raw: z.string().nullish(),
  base64: z.string().refine((v) => BASE64_RE.test(v), 'must be a base64 string').nullish(),
});

export const SeededFragment = z.looseObject({
  string: TransferableString.nullish(),
  metadata: z.looseObject({ ext: z.string().nullish() }).nullish(),
});

/**
 * A Seed. Lenient where the Pieces API is (the application may be left out by callers that only
 * pass a fragment); whether a fragment string is there is the operation's question.
 */
export const Seed = z.looseObject({
  type: z.enum(['UNKNOWN', 'SEEDED_FORMAT', 'SEEDED_ASSET']).nullish(),
  asset: z.looseObject({
    application: Application.nullish(),
    format: z.looseObject({ fragment: SeededFragment.nullish() }).nullish(),
    metadata: z.looseObject({ name: z.string().nullish() }).nullish(),
  }).nullish(),
});

export const Seeds = z.looseObject({ iterable: z.array(Seed) });

/** One entry of a `relevant` list: an id from a relevance call, or a seed with a fragment string. */
export const RelevantEntry = z.looseObject({
  id: z.string().nullish(),
  seed: Seed.nullish(),
  path: z.string().nullish(),
  /** askcode's own "why" (lines, scores); read where it makes sense, never required. */
  askcode: z.unknown().optional(),
});

export const RelevantSeeds = z.looseObject({ iterable: capped(z.array(RelevantEntry), MAX_RELEVANT) });

export const ConversationMessage = z.looseObject({
  text: z.string(),
  role: z.string().nullish(),
  timestamp: GroupedTimestamp.nullish(),
});

/** Inline history; index 0 is the most recent message (the SDK's convention). */
export const Conversation = z.looseObject({ iterable: z.array(ConversationMessage).nullish() });

/** No params (JSON-RPC sends none or null). */
export const None = z.unknown();
