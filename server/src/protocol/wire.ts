/**
 * Wire shapes of the Pieces OS Models / QGPT APIs (client SDK 4.1.0), as in ../shared/api/SPEC.md.
 * Keys are exactly the wire keys. Only the members askcode reads or writes are spelled out;
 * unknown keys are tolerated on input (the SDK drops them on its side too). One concern, long because
 * the wire is: every shape the SDK sends or parses.
 */

export interface EmbeddedModelSchema {
  migration: number;
  semantic: 'UNKNOWN' | 'MAJOR_0_MINOR_0_PATCH_1';
}

/** `value` is always `Date#toISOString()` form: the SDK re-serialises anything else differently. */
export interface GroupedTimestamp {
  schema?: EmbeddedModelSchema;
  value: string;
  readable?: string;
}

export interface ByteDescriptor {
  schema?: EmbeddedModelSchema;
  value: number;
  readable: string;
}

export interface Score {
  schema?: EmbeddedModelSchema;
  manual: number;
  automatic: number;
  priority?: number;
  reuse?: number;
  update?: number;
  reference?: number;
  searched?: number;
}

export type ModelTypeEnum = 'UNKNOWN' | 'BALANCED' | 'SPEED' | 'ACCURACY';
export type ModelUsageEnum =
  | 'UNKNOWN' | 'OCR' | 'CODE_CLASSIFICATION' | 'TEXT_VS_CODE' | 'TAGIFY_CODE' | 'TLP_TAG_SEARCH'
  | 'TLP_NEURAL_CODE_SEARCH' | 'TAGIFY_COLOR_FROM_CODE' | 'CODE_DESCRIPTION' | 'CODE_TITLE'
  | 'CODE_SEARCH_QUERIES' | 'CODE_EXTRACTIVE_TAGS' | 'CODE_EXTRACTIVE_LINKS' | 'CODE_CONVERSATION'
  | 'CODE_GENERATION' | 'CODE_SEARCH' | 'CODE_DISCOVERY' | 'CODE_RELATED_PEOPLE' | 'CODE_FRAMEWORK'
  | 'VIDEO_OCR' | 'TEXT_VS_CODE_SEGMENTATION' | 'TEXT_EMBEDDING' | 'TECHNICAL_ERROR';
export const MODEL_USAGES: readonly ModelUsageEnum[] = [
  'UNKNOWN', 'OCR', 'CODE_CLASSIFICATION', 'TEXT_VS_CODE', 'TAGIFY_CODE', 'TLP_TAG_SEARCH',
  'TLP_NEURAL_CODE_SEARCH', 'TAGIFY_COLOR_FROM_CODE', 'CODE_DESCRIPTION', 'CODE_TITLE',
  'CODE_SEARCH_QUERIES', 'CODE_EXTRACTIVE_TAGS', 'CODE_EXTRACTIVE_LINKS', 'CODE_CONVERSATION',
  'CODE_GENERATION', 'CODE_SEARCH', 'CODE_DISCOVERY', 'CODE_RELATED_PEOPLE', 'CODE_FRAMEWORK',
  'VIDEO_OCR', 'TEXT_VS_CODE_SEGMENTATION', 'TEXT_EMBEDDING', 'TECHNICAL_ERROR',
];
export const MODEL_TYPES: readonly ModelTypeEnum[] = ['UNKNOWN', 'BALANCED', 'SPEED', 'ACCURACY'];
/** A free string on our side: the enum has 139 values (SPEC §5) and the SDK does not validate it. */
export type ModelFoundationEnum = string;
export type ExternalMLProviderEnum = string;

export interface ModelMaxTokens {
  schema?: EmbeddedModelSchema;
  total: number | null;
  input?: number | null;
  output?: number | null;
}

export interface ModelCapabilities {
  schema?: EmbeddedModelSchema;
  temporal?: boolean;
  images?: boolean;
  videos?: boolean;
  documents?: boolean;
  codebases?: boolean;
  assets?: boolean;
  websites?: boolean;
}

export interface SeededModel {
  schema?: EmbeddedModelSchema;
  version: string;
  created: GroupedTimestamp;
  name: string;
  description?: string;
  cloud: boolean;
  type: ModelTypeEnum;
  usage: ModelUsageEnum;
  bytes?: ByteDescriptor;
  ram?: ByteDescriptor;
  quantization?: string;
  foundation?: ModelFoundationEnum;
  downloaded?: boolean;
  unique?: string;
  parameters?: number | null;
  provider?: ExternalMLProviderEnum;
  cpu?: boolean;
  maxTokens?: ModelMaxTokens;
  custom?: boolean;
  capabilities?: ModelCapabilities;
}

export interface Model extends SeededModel {
  id: string;
  loaded?: boolean;
  downloading?: boolean;
  score?: Score;
}

export interface Models {
  schema?: EmbeddedModelSchema;
  iterable: Model[];
  score?: Score;
}

export interface ReferencedModel {
  schema?: EmbeddedModelSchema;
  id: string;
}

export interface ModelDeleteCacheInput {
  schema?: EmbeddedModelSchema;
}

export interface ModelDeleteCacheOutput {
  schema?: EmbeddedModelSchema;
  model: ReferencedModel;
}

export type ModelDownloadProgressStatusEnum =
  | 'UNKNOWN' | 'INITIALIZED' | 'IN-PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELED' | 'RESET';

export interface ModelDownloadProgress {
  schema?: EmbeddedModelSchema;
  status?: ModelDownloadProgressStatusEnum;
  percentage?: number | null;
}

export interface StreamedIdentifier {
  model?: ReferencedModel;
  conversation?: { id: string };
  asset?: ReferencedAsset;
  deleted?: boolean;
}

export interface StreamedIdentifiers {
  schema?: EmbeddedModelSchema;
  iterable: StreamedIdentifier[];
}

// ---- Seeds and content -------------------------------------------------------------------

export interface Application {
  schema?: EmbeddedModelSchema;
  id: string;
  name: string;
  version: string;
  platform: string;
  onboarded: boolean;
  privacy: string;
  capabilities?: string;
  mechanism?: string;
  automaticUnload?: boolean;
}

export interface TransferableString {
  schema?: EmbeddedModelSchema;
  raw?: string;
  base64?: string;
  base64_url?: string;
  data_url?: string;
}

export interface FragmentMetadata {
  schema?: EmbeddedModelSchema;
  /** ClassificationSpecificEnum: a file-extension code such as `py`, `ts`. */
  ext?: string;
}

export interface SeededFragment {
  schema?: EmbeddedModelSchema;
  string?: TransferableString;
  bytes?: { raw?: number[] };
  metadata?: FragmentMetadata;
}

export interface SeededFormat {
  schema?: EmbeddedModelSchema;
  fragment?: SeededFragment;
  file?: unknown;
  classification?: unknown;
}

export interface SeededAsset {
  schema?: EmbeddedModelSchema;
  application: Application;
  format: SeededFormat;
  metadata?: { name?: string; [key: string]: unknown };
  discovered?: boolean;
  pseudo?: boolean;
  demo?: boolean;
}

export type SeedTypeEnum = 'UNKNOWN' | 'SEEDED_FORMAT' | 'SEEDED_ASSET';

export interface Seed {
  schema?: EmbeddedModelSchema;
  asset?: SeededAsset;
  type?: SeedTypeEnum;
  person?: unknown;
  anchor?: unknown;
  website?: unknown;
}

export interface Seeds {
  schema?: EmbeddedModelSchema;
  iterable: Seed[];
}

export interface ReferencedAsset {
  schema?: EmbeddedModelSchema;
  id: string;
  reference?: unknown;
}

export interface FlattenedAssets {
  schema?: EmbeddedModelSchema;
  iterable?: ReferencedAsset[];
  indices?: Record<string, number>;
}

export interface ReferencedAnchor {
  schema?: EmbeddedModelSchema;
  id: string;
  reference?: unknown;
}

export interface TextLocation {
  schema?: EmbeddedModelSchema;
  text: string;
  start: number;
  end: number;
}

// ---- QGPT ------------------------------------------------------------------------------

export interface QGPTRelevanceInputOptions {
  schema?: EmbeddedModelSchema;
  database?: boolean;
  question?: boolean;
  pipeline?: unknown;
}

export interface QGPTRelevanceInput {
  schema?: EmbeddedModelSchema;
  query: string;
  paths?: string[];
  seeds?: Seeds;
  assets?: FlattenedAssets;
  messages?: unknown;
  options?: QGPTRelevanceInputOptions;
  application?: string;
  model?: string;
}

/**
 * One relevant snippet. `id`, `seed`, `path`, `location` are wire keys; `askcode` is our own
 * extension (dropped by the SDK, read by our UI): line range, scores per signal, symbol.
 */
export interface RelevantQGPTSeed {
  schema?: EmbeddedModelSchema;
  id?: string;
  seed?: Seed;
  path?: string;
  anchor?: ReferencedAnchor;
  asset?: ReferencedAsset;
  location?: TextLocation;
  askcode?: SnippetInfo;
}

/** askcode's extension on a relevant seed: what the UI shows as "why". */
export interface SnippetInfo {
  /** 1-based inclusive line range in `path`. */
  startLine: number;
  endLine: number;
  language?: string;
  symbol?: string;
  /** Fused score in [0, 1] and the per-signal parts (absent signal = not used). */
  score: number;
  scores: { bm25?: number; dense?: number; fused: number; bm25Rank?: number; denseRank?: number };
  /** Query terms that matched, for the "why" line. */
  matched?: string[];
}

export interface RelevantQGPTSeeds {
  schema?: EmbeddedModelSchema;
  iterable: RelevantQGPTSeed[];
}

export interface QGPTQuestionAnswer {
  schema?: EmbeddedModelSchema;
  score: number;
  text: string;
}

export interface QGPTQuestionAnswers {
  schema?: EmbeddedModelSchema;
  iterable: QGPTQuestionAnswer[];
}

export interface QGPTQuestionOutput {
  schema?: EmbeddedModelSchema;
  answers: QGPTQuestionAnswers;
  /** askcode's extension (dropped by the SDK): rewritten query, notices. */
  askcode?: AnswerExtras;
}

export interface QGPTRelevanceOutput {
  schema?: EmbeddedModelSchema;
  answer?: QGPTQuestionOutput;
  relevant: RelevantQGPTSeeds;
}

export interface QGPTQuestionInput {
  schema?: EmbeddedModelSchema;
  relevant: RelevantQGPTSeeds;
  query: string;
  application?: string;
  model?: string;
  messages?: unknown;
  pipeline?: unknown;
}

export interface QGPTHintsInput {
  query?: string;
  answer?: QGPTQuestionAnswer;
  relevant: RelevantQGPTSeeds;
  application?: string;
  model?: string;
}

export type QGPTConversationMessageRoleEnum = 'UNKNOWN' | 'USER' | 'SYSTEM' | 'ASSISTANT';

export interface QGPTConversationMessage {
  schema?: EmbeddedModelSchema;
  text: string;
  role: QGPTConversationMessageRoleEnum;
  timestamp: GroupedTimestamp;
}

/** Inline history. Index 0 is the most recent message (the SDK's convention). */
export interface QGPTConversation {
  schema?: EmbeddedModelSchema;
  iterable?: QGPTConversationMessage[];
}

export interface QGPTRepromptInput {
  schema?: EmbeddedModelSchema;
  query: string;
  conversation: QGPTConversation;
  application?: string;
  model?: string;
  pipeline?: unknown;
}

export interface QGPTRepromptOutput {
  schema?: EmbeddedModelSchema;
  query: string;
}

export interface QGPTPersonsRelatedInput {
  schema?: EmbeddedModelSchema;
  seed?: Seed;
  conversation?: QGPTConversation;
  application?: string;
  model?: string;
}

export interface PersonBasicType {
  schema?: EmbeddedModelSchema;
  username?: string;
  name?: string;
  picture?: string;
  email?: string;
  url?: string;
}

export interface PersonType {
  schema?: EmbeddedModelSchema;
  basic?: PersonBasicType;
  platform?: unknown;
}

export interface Person {
  schema?: EmbeddedModelSchema;
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  type: PersonType;
  interactions?: number;
  score?: Score;
  assets?: FlattenedAssets;
  anchors?: unknown;
  /** askcode's extension: why this person (files, lines, last change). Dropped by the SDK. */
  askcode?: PersonInfo;
}

export interface PersonInfo {
  score: number;
  lines: number;
  commits: number;
  lastChange?: string;
  files: { path: string; lines: number; commits: number; lastChange?: string }[];
  codeowner?: boolean;
}

export interface Persons {
  schema?: EmbeddedModelSchema;
  iterable: Person[];
  indices?: Record<string, number>;
  score?: Score;
}

export interface QGPTPersonsRelatedOutput {
  schema?: EmbeddedModelSchema;
  persons: Persons;
  explanations?: Record<string, string>;
  /** askcode's extension (dropped by the SDK): why the list is empty, e.g. "not a git repository". */
  askcode?: PersonsRelatedInfo;
}

export interface PersonsRelatedInfo {
  reason?: string;
  /** The files (and lines) that were looked at. */
  files?: { path: string; startLine?: number; endLine?: number }[];
}

export type QGPTStreamEnum =
  | 'UNKNOWN' | 'CANCELED' | 'INITIALIZED' | 'IN-PROGRESS' | 'COMPLETED' | 'FAILED' | 'STOPPED' | 'RESET';

export interface QGPTStreamInput {
  relevance?: QGPTRelevanceInput;
  question?: QGPTQuestionInput;
  request?: string;
  conversation?: string;
  stop?: boolean;
  reset?: boolean;
  agent?: boolean;
}

export interface QGPTStreamOutput {
  request?: string;
  relevance?: QGPTRelevanceOutput;
  question?: QGPTQuestionOutput;
  status?: QGPTStreamEnum;
  conversation: string;
  statusCode?: number | null;
  errorMessage?: string;
  agentRoutes?: unknown;
  extracted?: unknown;
  /** askcode's extension (dropped by the SDK): what the reader should know about this answer. */
  askcode?: AnswerExtras;
}

/**
 * askcode's extension of an answer (stream frame, question output): set on the relevance frame
 * and/or the terminal frame. Faces render it; the Pieces SDK ignores it.
 */
export interface AnswerExtras {
  /** The standalone query that was searched, when a follow-up was rewritten with its history (reprompt). */
  rewrittenQuery?: string;
  /** Plain-language notes: index still building, the chosen model is unavailable (answered extractively), … */
  notices?: AnswerNotice[];
  /** A question about people ("who can help with X?") is answered with people. */
  persons?: QGPTPersonsRelatedOutput;
}

export interface AnswerNotice {
  kind: 'index-building' | 'model-unavailable' | 'no-results' | 'info';
  message: string;
  /** A button the UI may offer: download the model, or pick another. */
  action?: { label: string; command: 'download-model' | 'pick-model'; model?: string };
}
