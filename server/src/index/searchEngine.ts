/**
 * One concern: the in-memory search engine — chunk and file postings (BM25 over code-aware terms and
 * paths), vectors, and the ranking that fuses them with the question's signals (named symbols,
 * tests and examples down unless asked). Long because the ranking is one piece; fusion itself is
 * in fusion.ts, question parsing in query.ts / question.ts.
 */
import { Bm25, countTerms, type QueryTerm } from './bm25';
import { terms, pathTerms, wordRuns, stem, isStopWord } from './tokens';
import { parseQuery, matchesHint, MAX_QUERY_TERMS, type ParsedQuery } from './query';
import { isTestFile, isRustTestCode, rustTestModules, isExamplePath, asksAboutExamples, isChangelogPath, isDeclarationPath, isCatalogPath, isProjectConfigPath, isVendoredPath, isInterfaceOnly, isToolingPath, isExceptionFile, isGeneratedCode, isDocumentationOnly, isFaqPath, isTestSupportFile, ABOUT_TYPES } from './languages';
import { findReferences, squash, symbolTargets, type FileSymbol, type SymbolIndex, type SymbolTarget } from './symbols';
import { fuse, sortTop, SORTED_FILES, type FusionMethod } from './fusion';
import { Companions, declaredIds } from './companions';
import { MessageIndex, messagesOf } from './messages';
import { goesOnWith, isBareHead } from './chunker';

/**
 * A line of a definition's doc comment in a C-like language or a script's (`///`, `/**`, ` * `, `# `,
 * not a shebang), or of the attributes and annotations between it and the definition (`#[inline]`, `@Override`).
 */
const DOC_COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#(?!!)|@[A-Za-z])/;

/** What the engine keeps per chunk (text included: snippets come back without a disk read). */
export interface ChunkRecord {
  id: string;
  /** The file's key: absolute path for workspace files, `asset:<id>` for saved assets. */
  file: string;
  rel: string;
  startLine: number;
  endLine: number;
  text: string;
  symbol?: string;
  hash: string;
  language: string;
  ext: string;
  code: boolean;
}

export interface Hit {
  chunk: ChunkRecord;
  score: number;
  bm25?: number;
  dense?: number;
  bm25Rank?: number;
  denseRank?: number;
  matched: string[];
  fileRank: number;
  /** The chunk's symbol path where the symbols know more than the chunk does (a Go method's receiver). */
  symbol?: string;
}

/**
 * Ranking knobs, tuned on the dev split of the eval data (../shared/eval, commit-eval dev):
 * the file score mixes the best chunk, the whole file and the path, each divided by its best
 * value for the query; tests and prose are pushed down (never the answer to "where is it done"
 * in the dev data, and a quarter to a third of plain BM25's top hits).
 */
export interface RankParams {
  /** A question's word in mixed case that no name of the workspace spells is searched as one word (parseQuery's `namesNoCode`). */
  properNouns: boolean;
  /** "The environment interface" names `EnvironmentInterface` where the project defines it (symbolTargetsOf). */
  roleCompounds: boolean;
  chunkW: number;
  fileW: number;
  pathW: number;
  symbolFieldW: number;
  pathFieldW: number;
  testFactor: number;
  /**
   * Documents (not code) for a text that is not a question in prose: an issue, a commit message,
   * keywords. 0.4 instead of 0.6: swe-lite dev MRR 0.741 → 0.751, R@1 0.683 → 0.698 (three rows
   * up, none down: pytest's assert-rewriting issue had two how-to pages above the code), commit-eval
   * dev MRR 0.849 → 0.850, the 840 commits outside the dev sets 0.811 → 0.820; 0.3 about the same
   * (commit-eval 0.851, outside 0.821). Questions have `questionProseFactor`.
   */
  proseFactor: number;
  mentionBonus: number;
  rrfK: number;
  /** How the dense ranking joins the lexical one (see fusion.ts) and its weight. */
  fusion: FusionMethod;
  denseW: number;
  /**
   * The dense weight for a question in prose that names no definition of the project (backticked,
   * camelCase, dotted, "the compose function") and spells out no initials the code uses ("hot
   * module replacement"): it says in its own words what the code says in names. The others, and
   * commit messages and issue texts, keep `denseW`. 0.35 instead of 0.25, with `denseSpanMin`
   * 0.15: SWE-QA dev MRR 0.808 → 0.822, R@1 0.435 → 0.444, R@5 0.791 → 0.795, Acc@5 0.634 →
   * 0.641; qa dev MRR 0.855 → 0.876; commit-eval and swe-lite unchanged. For every question
   * (naming code or not, no span floor) the dense side outweighed the name: "hot module
   * replacement" ranked a file of messages spelling the phrase above `server/hmr.ts`. For every
   * text it cost swe-lite dev a row (Acc@5 0.825 → 0.810).
   */
  questionDenseW: number;
  /** See fusion.ts: the least span the dense similarities are scaled over. */
  denseSpanMin: number;
  rerankK: number;
  perFileCap: number;
  floor: number;
  /** Examples, benchmarks and code in docs, unless the text is about them. */
  exampleFactor: number;
  /** Tests, for a question in prose that does not name tests (a third of the dev questions' answers cite one). */
  questionTestFactor: number;
  /** Documents, for a question in prose ("how do I…" is often answered by the docs). */
  questionProseFactor: number;
  /** The path's share of the file score for a question in prose (words of a path are not its content). */
  questionPathW: number;
  /** Added for the files that define (or call) a code name the text mentions, per unit of target. */
  symbolW: number;
  /** The same for commit messages and issue texts. */
  symbolTextW: number;
  /** Added for the file whose definition's name the text spells out in words, scaled to the best such file. */
  nameW: number;
  nameTextW: number;
  /**
   * Added for a code file defining a name an issue or commit text writes as neighbouring words
   * ("the `Dataset` repr" → `dataset_repr`, "the base path" → `basePath`; symbols.ts
   * `phraseMatches`). Questions have `nameW`, which reads a name's words anywhere in the
   * question: in a long issue that matches too much (`nameTextW` is 0). 0.15: swe-lite dev Acc@5
   * 0.841 → 0.857 (xarray's units-in-the-repr issue 8th → 4th, no row down); commit-eval dev
   * unchanged (MRR 0.849; two rows up, two down: "the LaTeX builder" is `LaTeXBuilder`, the
   * change was the writer's). 0.3: commit-eval MRR 0.845, R@1 0.716 → 0.708. Words joined across
   * a dot (`Matrix.zeros`) are a call, not a name: read so, a sympy row fell out of the top 5.
   * Off (0) since checked on 840 commits of seven repositories in no evaluation set (README,
   * "Outside the dev sets"): it lifted no row there and put ten a place or more lower — a
   * commit names in words what its change touches, seldom the file it changes.
   */
  phraseTextW: number;
  /**
   * The same for questions, which also have `nameW`. 0.3: SWE-QA dev R@1 0.457 → 0.467, MRR 0.836
   * → 0.844 (pylint's "the type checker's assignment processing method" → `TypeChecker` 4th → 1st;
   * five rows moved, none down in recall); qa, the everyday check, commit-eval and swe-lite
   * unchanged. 0.15: MRR 0.841; 0.5: 0.836; 0.8: R@5 0.806 → 0.801. It also counts for a file
   * whose folder and name are two neighbouring words of the question (`pathPhraseFiles`: "the base
   * worker" → `workers/base.py`): three of the 288 questions of outside-paraphrased-more.jsonl
   * moved up, none down, every other set unchanged (at 0.6 for those: MRR 0.890 → 0.884).
   */
  phraseW: number;
  /**
   * Added for the file declaring a rule or message id a question writes as neighbouring words
   * ("the unused variable checker" → the checker with `"unused-variable"`, "the
   * assignment-from-no-return test" → `typecheck.py`; companions.ts `declaring`). 0.3: SWE-QA dev
   * R@5 0.806 → 0.809, MRR 0.844 → 0.852 (pylint MRR 0.713 → 0.731); qa unchanged. Not for commit
   * messages and issues: their "lambda-edge" and "create-vite" are package names a config file
   * declares (commit-eval MRR 0.849 → 0.847).
   */
  declaredIdW: number;
  /**
   * A question's `companionTop` best files bring their companions (companions.ts: same base name in
   * one folder, a source file and the tests named after it) up to this share of their own score.
   * SWE-QA dev (a quarter of its answers cite a test next to the code): R@5 0.751 → 0.762, Acc@5
   * 0.570 → 0.592, MRR 0.816 → 0.815; qa and commit-eval dev unchanged. Lifting every companion
   * (no `companionMin`) lifted the tests of wrong files as often: requests and pylint lost what
   * flask gained. Not for commit messages and issues, whose answers are never tests in the dev data.
   */
  companionW: number;
  companionTextW: number;
  companionTop: number;
  /** …and only a companion the text itself found, at this share of its file's score or more. */
  companionMin: number;
  /**
   * A reference page's code (`use-shallow.md` → `useShallow`), lifted to this share of the page's
   * score ({@link SearchEngine.bringDocumented}): more7 R@5 / R@10 0.849 / 0.906 → 0.852 / 0.910
   * (zustand's `useShallow`, tRPC's `httpBatchLink.ts`), the 192 R@10 0.941 → 0.944 (altair's
   * `jupyter_chart.py`); one wanted file down a place; the dev sets unchanged.
   */
  pageCodeW: number;
  /**
   * Change logs and release notes (not code), unless the text is about changes or releases: they
   * name every feature and were in the top 5 of 63 dev answers, never one of the files wanted.
   * ×0.5: SWE-QA dev R@5 0.762 → 0.766, Acc@5 0.592 → 0.599; commit-eval dev R@5 0.867 → 0.870,
   * MRR 0.830 → 0.831; qa unchanged (×0.3 measured the same).
   */
  changelogFactor: number;
  /**
   * A page of users' questions and answers, or of problems and fixes (languages.ts `isFaqPath`),
   * for a how-to or a symptom: written to answer such questions, where a guide may say the words
   * more. ×1.3: qa dev MRR 0.920 → 0.959 (×1.6: 0.986); every other set unchanged.
   */
  faqFactor: number;
  /**
   * The files of a variant (a runtime's adapter, a database's backend, a SQL dialect, a site's
   * extractor) a question does not name ({@link variantWords}): hono's "what happens when a handler
   * throws?" had the Cloudflare Pages adapter's `handler.ts` first. ×0.7: the 22 everyday MRR 0.841
   * → 0.848, the 288 R@5 0.914 → 0.917, MRR 0.891 → 0.893, the 192 R@5 0.872 → 0.873; the dev
   * sets and the other outside sets unchanged. Questions only. An output format's writer counts
   * too (`formatters/`, `writers/`, `reporters/`, `renderers/`, `exporters/`): bandit's "the XML
   * report writer" had its CSV writer first (the 192 of stop 45 R@5 0.824 → 0.826, SWE-QA dev
   * 0.818 → 0.820, the 288 R@1 0.670 → 0.668, the rest unchanged). So does a language's lexer, an
   * output's builder, a dialect's parser (`lexers/`, `builders/`, `parsers/`: the 288 R@1 / R@5 /
   * MRR 0.668 / 0.919 / 0.892 → 0.672 / 0.921 / 0.895, pygments' and sqlglot's; the rest unchanged).
   * And the other side of a connection ({@link sideOf}): the client's code for a question that
   * says "server" and not "client", and the other way round (hyper's "where does the HTTP/1 server
   * send `100 Continue`?" had `src/client/conn/http1.rs` first: the 384 other-language questions
   * R@1 / R@5 / MRR 0.521 / 0.857 / 0.857 → 0.523 / 0.858 / 0.858; gradio's and trpc's up in
   * outside-paraphrased-more4, bokeh's one down a place; the dev sets unchanged). And a command's
   * module named after the library module it drives (pip-tools' `scripts/sync.py` beside `sync.py`,
   * {@link commandModuleName}) for a question that says nothing of the command line: more6 R@1 /
   * MRR 0.686 / 0.944 → 0.688 / 0.946 (`piptools/sync.py` 3rd → 1st), two of ripgrep's files a
   * place up; nothing down.
   */
  variantFactor: number;
  /**
   * Any module of a program's command line ({@link isCommandLinePath}: `cli.py`, `__main__.py`, a file
   * in `cli/`, `commands/`, `flags/`…) for a question that says nothing of the command line: such
   * modules document options in every feature's words (ripgrep's `crates/core/flags/defs.rs`). In a
   * top 5 of every question set, 299 times for such questions and wanted 46 times; the 288 R@5 0.921
   * → 0.926, more3 R@1 / MRR 0.555 / 0.877 → 0.562 / 0.882, more6 0.688 / 0.946 → 0.691 / 0.947,
   * SWE-QA dev R@10 0.882 → 0.884; two wanted files down (panel's `command/serve.py` 3rd → 6th).
   * ×0.7 gained as much and cost the 96 R@1 0.530 → 0.525 (mkdocs' `commands/build.py`).
   */
  commandLineFactor: number;
  /**
   * A question about the part that runs in the browser ("the browser-side script", "the web UI's
   * request helper", "the front end"): JavaScript, TypeScript, Vue and Svelte files weigh this much
   * more than the server's code that says the same words (nicegui's `static/nicegui.js`, locust's
   * `webui/src/`). Questions only.
   */
  frontEndFactor: number;
  /**
   * A question about what a test suite shares ("the test helper that…", "the fixture used throughout
   * the test suite", "the shared test utilities"): test files that hold no test case weigh this
   * much more than the test modules that use them. Questions only.
   */
  testSupportFactor: number;
  /**
   * A path the text names counts (mentionBonus) only while it names at most this many files: an
   * issue's `a/__init__.py` traceback lifted every `__init__.py` of pylint above the module that
   * was changed (swe-lite dev: that row from not in the top 10 to 7th, nothing else moved; SWE-QA
   * and commit-eval dev unchanged).
   */
  maxHintFiles: number;
  /**
   * Type declarations (`.d.ts`, `.pyi`), unless the text is about types: they repeat the words of
   * what they declare (21 of commit-eval dev's top-5 places, never a file wanted). ×0.5: MRR 0.835
   * → 0.838 (vite 0.799 → 0.809); ×0.3 the same; SWE-QA, qa and swe-lite dev unchanged.
   */
  declarationFactor: number;
  /**
   * Translation catalogs (`LC_MESSAGES/`, `.po`), unless the text is about translations: Sphinx's
   * 70 languages repeat every message. ×0.5: of commit-eval dev's top-10 places 53 were catalogs
   * (11 in the top 5), none wanted; after, 6 (none in the top 5); no dev figure moved.
   */
  catalogFactor: number;
  /**
   * A project's build and tool settings (`tsconfig.json`, `package.json`, `pyproject.toml`, CI
   * workflows), unless the text is about building, packaging or settings: they list the project's
   * names (hono's `tsconfig.json` was 2nd for "how do I return JSON?"). ×0.5: in commit-eval dev's
   * top 5 17 → 8 (top 10 40 → 21), none wanted; no dev figure moved.
   */
  projectFactor: number;
  /**
   * Vendored code (`vendor/`, `_vendor/`, `third_party/`, `extern/`, `externals/`), unless the
   * text is about vendored or third-party code: a bundled library (Django's admin ships jQuery,
   * Select2 and XRegExp) says the words of many questions at length. ×0.5 as for the kinds above;
   * the dev repositories hold little of it (astropy's `extern/`, seaborn's `external/`), and no
   * dev figure moved.
   */
  vendoredFactor: number;
  /**
   * The maintainers' scripts at the top of the repository (`misc/`, `scripts/`, `tools/`), for a
   * question that is not about them. 0.5: on 48 paraphrased questions about dask, mypy and
   * IPython (outside the dev sets) MRR 0.916 -> 0.926 (mypy's "how does a development checkout
   * append the commit hash to the version string" had five of mypy's `misc/` scripts above
   * `mypy/git.py`); no dev question moved.
   */
  toolingFactor: number;
  /**
   * A file named for the exception class it declares, or a Python module of exceptions (languages.ts
   * `isExceptionFile`), for a question not about errors: symfony's `CommandNotFoundException.php` led
   * "how does a command get found by its name?" on its name's "found". 0.5: on 64 questions on eight
   * projects outside the dev sets R@5 0.846 -> 0.862, MRR 0.774 -> 0.775 (Slim's "what happens when no
   * route matches?" 6th -> 5th); 96 questions on six large ones R@5 unchanged, one row 5th -> 4th;
   * every dev set and 1,320 outside commits unchanged.
   */
  exceptionFactor: number;
  /**
   * Added for a file holding a literal a question quotes or a number it names ("the 'from None'
   * pattern", "PEP 604", "the 404 response"): BM25 does not index numbers and a phrase is more
   * than its words. SWE-QA dev (6 rows have one) R@5 0.781 → 0.788, MRR 0.804 → 0.806 (pylint
   * "PEP 604": the alternative-union-syntax tests from 5th–8th to 2nd–4th); qa dev unchanged;
   * the same at 0.35, 0.7 and 1; from 0.7 hono's "where is the 404 response produced?" ranks
   * `hono-base.ts` first instead of a file that says "producing" often. Scaled by 2 / (files
   * holding it): R@5 0.784.
   */
  literalW: number;
  /** A literal found in more code files than this says nothing. */
  literalMax: number;
  /**
   * Added for a code file that says a message an issue or commit text quotes (a warning, an
   * error, a line of output: messages.ts), per message (two at most). A question's own quotes
   * are read for messages alone, and weigh as a literal found (`literalW`). 0.3: swe-lite dev
   * Acc@5 0.825 → 0.841, R@1 0.619 → 0.651, MRR 0.698 → 0.723 (flask's pasted `.env` tip 9th →
   * 1st, pytest's skip error 3rd → 1st, no row down); commit-eval dev R@1 0.701 → 0.707, MRR 0.839
   * → 0.844. 0.7: swe-lite R@1 0.603, MRR 0.685 (a maths literal, "x x x x", lifted sympy files;
   * such messages are no longer read).
   */
  messageW: number;
  /** A message said by more code files than this says nothing. */
  messageMax: number;
}

export const DEFAULT_RANK: RankParams = {
  properNouns: true,
  roleCompounds: true,
  chunkW: 0.45,
  fileW: 0.35,
  pathW: 0.2,
  symbolFieldW: 2,
  pathFieldW: 1,
  testFactor: 0.35,
  proseFactor: 0.4,
  mentionBonus: 0.35,
  rrfK: 20,
  // Dev sets, askcode-code-static (MRR lexical → hybrid): qa 0.659 → 0.82, commit-eval 0.803 → 0.816,
  // SWE-QA 0.776 → 0.781 with weighted scores at 0.2; equal-weight RRF cost commit-eval 0.17.
  fusion: 'score',
  denseW: 0.25,
  questionDenseW: 0.35,
  // 0.15: SWE-QA, qa and commit-eval dev as without it; 0.3 cost SWE-QA MRR 0.822 → 0.819, qa 0.876 → 0.858.
  denseSpanMin: 0.15,
  rerankK: 30,
  perFileCap: 2,
  floor: 0.05,
  exampleFactor: 0.35,
  questionPathW: 0.2,
  questionTestFactor: 0.5,
  questionProseFactor: 0.6,
  symbolW: 0.5,
  symbolTextW: 0.15,
  nameW: 0.3,
  nameTextW: 0,
  phraseTextW: 0,
  phraseW: 0.3,
  declaredIdW: 0.3,
  companionW: 0.8,
  companionTextW: 0,
  companionTop: 3,
  companionMin: 0.3,
  pageCodeW: 0.8,
  changelogFactor: 0.5,
  faqFactor: 1.3,
  variantFactor: 0.7,
  commandLineFactor: 0.85,
  frontEndFactor: 1.4,
  testSupportFactor: 1.5,
  maxHintFiles: 3,
  declarationFactor: 0.5,
  catalogFactor: 0.5,
  projectFactor: 0.5,
  vendoredFactor: 0.5,
  toolingFactor: 0.5,
  exceptionFactor: 0.5,
  literalW: 0.7,
  literalMax: 10,
  messageW: 0.3,
  messageMax: 3,
};

interface FileEntry {
  key: string;
  rel: string;
  chunks: number[];
  fileDoc: number;
  pathDoc: number;
  test: boolean;
  example: boolean;
  code: boolean;
  changelog: boolean;
  /** The stems of its folder's name and its own, `worker/base` for `gunicorn/workers/base.py` ({@link SearchEngine.pathPhraseFiles}). */
  folderAndName: string;
  /** The stems of the variant a file implements under a folder of variants (`adapter/cloudflare-pages/handler.ts` → cloudflar, page), see {@link variantWords}. */
  variant?: string[];
  /** Which side of a connection its path is on, `client` or `server` ({@link sideOf}). */
  side?: Side;
  /** Its file name, when it is a command's module (`piptools/scripts/sync.py`, {@link commandModuleName}). */
  command?: string;
  /** A code file of the program's command line ({@link isCommandLinePath}). */
  commandLine?: boolean;
  /** Of a documentation page, the name it is about (`docs/hooks/use-shallow.md` → useshallow, {@link pageSubject}). */
  subject?: string;
  /** Of a code file outside the tests, its file name as a subject (`httpBatchLink.ts` → httpbatchlink). */
  stem?: string;
}

export interface SearchOptions {
  limit?: number;
  /** Only files whose key passes. */
  filter?: (fileKey: string) => boolean;
  queryVector?: Float32Array | null;
  params?: Partial<RankParams>;
}

export class SearchEngine {
  private readonly chunkIdx = new Bm25();
  private readonly fileIdx = new Bm25();
  private readonly pathIdx = new Bm25(0.3);
  private readonly chunks: (ChunkRecord | null)[] = [];
  private readonly chunkFile: number[] = [];
  /** Chunks of code files that are tests all the same: Rust's unit tests beside the code ({@link isRustTestCode}). */
  private readonly testChunks = new Set<number>();
  private readonly files = new Map<string, FileEntry>();
  /** File docs by the stems of their folder's name and their own ({@link folderAndName}), for `pathPhraseFiles`. */
  private readonly byFolderAndName = new Map<string, Set<number>>();
  /** Code files outside the tests by {@link FileEntry.stem}: the code a page named the same documents. */
  private readonly codeByStem = new Map<string, Set<number>>();
  /** Code files outside command folders by file name, counted (the library module a command's module is named after). */
  private readonly libraryNames = new Map<string, number>();
  private readonly fileByDoc: (FileEntry | null)[] = [];
  /** Per file doc: LIVE, TEST, EXAMPLE, CODE, CHANGELOG, DECLARATION, CATALOG, PROJECT, VENDORED, INTERFACE, TOOLING, EXCEPTION, GENERATED, FAQ bits (read in the ranking's per-file loops). */
  private fileFlags = new Uint16Array(0);
  private readonly byId = new Map<string, number>();
  private readonly companions = new Companions();
  private readonly messages = new MessageIndex();
  private readonly hashDocs = new Map<string, number[]>();
  /**
   * A row holding each live chunk content hash's vector (identical chunks share a hash). Vectors
   * live only in `mat`: a second copy per hash cost ~100 MB at 100k chunks.
   */
  private readonly hashRow = new Map<string, number>();
  /**
   * Vectors of hashes whose last chunk just left (a file edited, renamed or restored gets them
   * back without embedding again), oldest dropped first past ORPHAN_VECTORS.
   */
  private readonly orphans = new Map<string, Float32Array>();
  /**
   * Vectors of live chunks packed row by row: a scan over one array, not 100k map look-ups (rows
   * of removed chunks are marked -1 and squeezed out when they pile up). Each row is int8 with its
   * own scale (row = scale × int8s): a quarter of float32's memory (25 MB instead of 98 at 100k
   * chunks of 256 dims), and the dev sets ranked the same (README).
   */
  private dims = 0;
  private mat = new Int8Array(0);
  private scales = new Float32Array(0);
  private rowDoc: number[] = [];
  private docRow: number[] = [];
  private rows = 0;
  private deadRows = 0;
  /** Sign bits of each row (binary quantization): a Hamming pre-pass picks the rows scored exactly. */
  private bits = new Uint32Array(0);
  private words = 0;
  /** Per-query scratch, reused: Hamming distance per row, and similarity per row (-2: not scored). */
  private distBuf = new Uint16Array(0);
  private simBuf = new Float32Array(0);
  private simScored: Int32Array = new Int32Array(0);

  /** Distinct chunk contents that have a vector. */
  get vectorCount(): number {
    return this.hashRow.size;
  }
  hasVector(hash: string): boolean {
    return this.hashRow.has(hash);
  }
  /** Stores a content hash's vector (copied) for its chunks; a hash no chunk has now is dropped. */
  setVector(hash: string, v: Float32Array): void {
    if (this.dims && v.length !== this.dims) return;
    for (const d of this.hashDocs.get(hash) ?? []) if (this.docRow[d] === undefined || this.docRow[d] < 0) this.addRow(d, v);
  }
  /** The stored vector of a hash (a copy), if any. */
  private vectorOf(hash: string): Float32Array | undefined {
    const r = this.hashRow.get(hash);
    if (r !== undefined) return this.rowVector(r);
    return this.orphans.get(hash);
  }
  /** Row r as floats (scale × int8s). */
  private rowVector(r: number): Float32Array {
    const v = new Float32Array(this.dims);
    const o = r * this.dims;
    const sc = this.scales[r]!;
    for (let i = 0; i < this.dims; i++) v[i] = this.mat[o + i]! * sc;
    return v;
  }
  clearVectors(): void {
    this.hashRow.clear();
    this.orphans.clear();
    this.bits = new Uint32Array(0);
    this.words = 0;
    this.dims = 0;
    this.mat = new Int8Array(0);
    this.scales = new Float32Array(0);
    this.rowDoc = [];
    this.docRow = [];
    this.rows = 0;
    this.deadRows = 0;
  }

  /**
   * Hands back the spare room of a finished run (indexing or embedding): the postings' slack and
   * the vector rows' growth margin. Called when a run ends; the next additions grow them again.
   */
  trim(): void {
    this.chunkIdx.trim();
    this.fileIdx.trim();
    this.pathIdx.trim();
    // 5% spare rows: the embeddings of the next few edits fit without growing the matrix again.
    const used = this.rows * this.dims;
    if (this.dims && this.mat.length > 1024 * this.dims && this.mat.length > used * 1.25) {
      this.mat = this.mat.slice(0, Math.max(Math.ceil(this.rows * 1.05) * this.dims, 1024 * this.dims));
      this.scales = this.scales.slice(0, this.mat.length / this.dims);
      this.bits = this.bits.slice(0, (this.mat.length / this.dims) * this.words);
    }
  }

  private addRow(doc: number, v: Float32Array): void {
    if (!this.dims) {
      this.dims = v.length;
      this.words = Math.ceil(v.length / 32);
    }
    const need = (this.rows + 1) * this.dims;
    if (need > this.mat.length) {
      const cap = Math.max(need, Math.ceil((this.mat.length * 1.5) / this.dims) * this.dims, 1024 * this.dims);
      const next = new Int8Array(cap);
      next.set(this.mat.subarray(0, this.rows * this.dims));
      this.mat = next;
      const ns = new Float32Array(cap / this.dims);
      ns.set(this.scales.subarray(0, this.rows));
      this.scales = ns;
      const nb = new Uint32Array((cap / this.dims) * this.words);
      nb.set(this.bits.subarray(0, this.rows * this.words));
      this.bits = nb;
    }
    const n = v.length;
    let max = 0;
    for (let i = 0; i < n; i++) {
      const a = v[i]! < 0 ? -v[i]! : v[i]!;
      if (a > max) max = a;
    }
    const scale = max / 127 || 1;
    const inv = 1 / scale;
    const mat = this.mat;
    const o = this.rows * this.dims;
    // Int8Array stores truncate: add a half away from zero to round.
    for (let i = 0; i < n; i++) {
      const x = v[i]! * inv;
      mat[o + i] = x < 0 ? x - 0.5 : x + 0.5;
    }
    this.scales[this.rows] = scale;
    signBits(v, this.bits, this.rows * this.words);
    this.rowDoc[this.rows] = doc;
    this.docRow[doc] = this.rows;
    const hash = this.chunks[doc]?.hash;
    if (hash !== undefined && !this.hashRow.has(hash)) this.hashRow.set(hash, this.rows);
    this.rows++;
  }

  private dropRow(doc: number): void {
    const r = this.docRow[doc];
    if (r === undefined || r < 0) return;
    this.rowDoc[r] = -1;
    this.docRow[doc] = -1;
    this.deadRows++;
    const hash = this.chunks[doc]?.hash;
    if (hash !== undefined && this.hashRow.get(hash) === r) {
      // Another chunk with this content keeps the vector; else it waits among the orphans.
      const other = this.hashDocs.get(hash)?.find((d) => d !== doc && (this.docRow[d] ?? -1) >= 0);
      if (other !== undefined) this.hashRow.set(hash, this.docRow[other]!);
      else {
        this.hashRow.delete(hash);
        this.orphans.set(hash, this.rowVector(r));
        if (this.orphans.size > ORPHAN_VECTORS) this.orphans.delete(this.orphans.keys().next().value!);
      }
    }
    if (this.deadRows > 1000 && this.deadRows > this.rows / 3) {
      // Live rows copied as they are (int8, scale, sign bits): nothing is quantized twice.
      const { mat, scales, bits, dims, words, rows } = this;
      const oldDocs = this.rowDoc;
      const cap = Math.max(1024, rows - this.deadRows);
      this.mat = new Int8Array(cap * dims);
      this.scales = new Float32Array(cap);
      this.bits = new Uint32Array(cap * words);
      this.rowDoc = [];
      this.hashRow.clear();
      let k = 0;
      for (let r = 0; r < rows; r++) {
        const d = oldDocs[r]!;
        if (d < 0) continue;
        this.mat.set(mat.subarray(r * dims, (r + 1) * dims), k * dims);
        this.scales[k] = scales[r]!;
        this.bits.set(bits.subarray(r * words, (r + 1) * words), k * words);
        this.rowDoc[k] = d;
        this.docRow[d] = k;
        const h = this.chunks[d]?.hash;
        if (h !== undefined && !this.hashRow.has(h)) this.hashRow.set(h, k);
        k++;
      }
      this.rows = k;
      this.deadRows = 0;
    }
  }

  get chunkCount(): number {
    return this.chunkIdx.size;
  }
  get fileCount(): number {
    return this.files.size;
  }

  hasFile(key: string): boolean {
    return this.files.has(key);
  }
  fileKeys(): IterableIterator<string> {
    return this.files.keys();
  }
  /** Whether the file holds tests (languages.ts `isTestFile`), as the ranking reads it; undefined for a file not held. */
  isTest(key: string): boolean | undefined {
    return this.files.get(key)?.test;
  }
    chunksOf(key: string): ChunkRecord[] {
    return (this.files.get(key)?.chunks ?? []).map((d) => this.chunks[d]!).filter(Boolean);
  }
  chunk(id: string): ChunkRecord | null {
    const d = this.byId.get(id);
    return d === undefined ? null : this.chunks[d] ?? null;
  }
  *allChunks(): IterableIterator<ChunkRecord> {
    for (const c of this.chunks) if (c) yield c;
  }

  /** Replaces whatever the engine had for this file. */
  setFile(key: string, rel: string, chunks: ChunkRecord[]): void {
    this.removeFile(key);
    if (!chunks.length) return;
    const pTerms = pathTerms(rel);
    const fileTf = new Map<string, number>();
    let fileLen = 0;
    const docs: number[] = [];
    const p = DEFAULT_RANK;
    const testLines = rel.endsWith('.rs') ? rustTestModules(fileLines(chunks)) : undefined;
    for (const c of chunks) {
      const body = terms(c.text);
      const sym = c.symbol ? terms(c.symbol) : [];
      const tf = countTerms(body);
      countTerms(sym, p.symbolFieldW, tf);
      countTerms(pTerms, p.pathFieldW, tf);
      const doc = this.chunkIdx.add(tf, body.length + sym.length + pTerms.length);
      countTerms(body, 1, fileTf);
      fileLen += body.length;
      this.chunks[doc] = c;
      this.chunkFile[doc] = -1;
      if (testLines && (isRustTestCode(rel, c.text) || inRanges(c.startLine, c.endLine, testLines))) this.testChunks.add(doc);
      this.byId.set(c.id, doc);
      docs.push(doc);
      const same = this.hashDocs.get(c.hash);
      if (same) same.push(doc);
      else this.hashDocs.set(c.hash, [doc]);
      const v = this.vectorOf(c.hash);
      if (v) {
        this.addRow(doc, v);
        this.orphans.delete(c.hash);
      }
    }
    const fileDoc = this.fileIdx.add(fileTf, fileLen);
    const pathDoc = this.pathIdx.add(countTerms(pTerms), pTerms.length);
    const entry: FileEntry = { key, rel, chunks: docs, fileDoc, pathDoc, test: isTestFile(rel, chunks), example: isExamplePath(rel), code: chunks[0]!.code && !isDocumentationOnly(chunks[0]!.language, chunks), changelog: !chunks[0]!.code && isChangelogPath(rel), folderAndName: folderAndName(rel), variant: variantWords(rel), side: sideOf(rel), command: commandModuleName(rel) };
    entry.commandLine = entry.code && !entry.test && isCommandLinePath(rel);
    const prose = DOC_LANGUAGES.has(chunks[0]!.language) && !entry.test && !entry.changelog;
    if (prose) entry.subject = pageSubject(rel);
    else if (entry.code && !entry.test) entry.stem = fileSubject(rel);
    for (const d of docs) this.chunkFile[d] = fileDoc;
    this.fileByDoc[fileDoc] = entry;
    if (fileDoc >= this.fileFlags.length) {
      const next = new Uint16Array(Math.max(1024, fileDoc * 2));
      next.set(this.fileFlags);
      this.fileFlags = next;
    }
    this.fileFlags[fileDoc] = LIVE | (entry.test ? TEST : 0) | (entry.example ? EXAMPLE : 0) | (entry.code ? CODE : 0) | (entry.changelog ? CHANGELOG : 0) | (isDeclarationPath(rel) ? DECLARATION : 0) | (entry.code && isInterfaceOnly(chunks[0]!.language, chunks, rel) ? INTERFACE : 0) | (isCatalogPath(rel) ? CATALOG : 0) | (isProjectConfigPath(rel) ? PROJECT : 0) | (isVendoredPath(rel) ? VENDORED : 0) | (isToolingPath(rel) ? TOOLING : 0) | (entry.code && isExceptionFile(rel, chunks) ? EXCEPTION : 0) | (entry.code && isGeneratedCode(chunks) ? GENERATED : 0) | (!entry.code && isFaqPath(rel) ? FAQ : 0) | (entry.code && BROWSER_LANGUAGES.has(chunks[0]!.language) ? BROWSER : 0) | (entry.test && entry.code && isTestSupportFile(rel, chunks, true) ? TEST_SUPPORT : 0);
    this.files.set(key, entry);
    if (entry.folderAndName) addToGroup(this.byFolderAndName, entry.folderAndName, fileDoc);
    this.countLibraryName(entry, 1);
    if (entry.stem) addToGroup(this.codeByStem, entry.stem, fileDoc);
    const code = entry.code && !entry.test;
    this.companions.add(key, rel, entry.test, code ? chunks.flatMap((c) => declaredIds(c.text)) : []);
    if (code) this.messages.add(key, [...new Set(chunks.flatMap((c) => messagesOf(c.text)))]);
  }

  /** The definitions of the files in this engine, when there are any: questions that name code use them. */
  symbols?: SymbolIndex;

  /** Ranking knobs over the defaults for every search (the retrieval benchmark's `--rank-params`). */
  rankOverrides: Partial<RankParams> = {};

  /** Called with each file key that leaves the engine (the symbol index follows). */
  onFileRemoved?: (key: string) => void;

  /** Chunks holding a term (`=whole_identifier` or a stemmed word), or every chunk without one. */
  *chunksWithTerm(term: string | undefined): IterableIterator<ChunkRecord> {
    if (!term) {
      yield* this.allChunks();
      return;
    }
    for (const d of this.chunkIdx.docsWith(term)) {
      const c = this.chunks[d];
      if (c) yield c;
    }
  }

  /** Counts a code file outside command folders in (1) or out (-1) of `libraryNames` by its file name. */
  private countLibraryName(e: FileEntry, delta: 1 | -1): void {
    if (!e.code || e.test || e.command) return;
    const name = e.rel.slice(e.rel.lastIndexOf('/') + 1);
    const n = (this.libraryNames.get(name) ?? 0) + delta;
    if (n > 0) this.libraryNames.set(name, n);
    else this.libraryNames.delete(name);
  }

  removeFile(key: string): void {
    const f = this.files.get(key);
    if (!f) return;
    this.onFileRemoved?.(key);
    for (const d of f.chunks) {
      const c = this.chunks[d];
      if (c) {
        this.byId.delete(c.id);
        const same = this.hashDocs.get(c.hash)?.filter((x) => x !== d);
        if (same?.length) this.hashDocs.set(c.hash, same);
        else this.hashDocs.delete(c.hash);
      }
      this.dropRow(d);
      this.testChunks.delete(d);
      this.chunks[d] = null;
      this.chunkIdx.remove(d);
    }
    this.fileIdx.remove(f.fileDoc);
    this.pathIdx.remove(f.pathDoc);
    this.fileByDoc[f.fileDoc] = null;
    this.fileFlags[f.fileDoc] = 0;
    this.files.delete(key);
    removeFromGroup(this.byFolderAndName, f.folderAndName, f.fileDoc);
    this.countLibraryName(f, -1);
    if (f.stem) removeFromGroup(this.codeByStem, f.stem, f.fileDoc);
    this.companions.remove(key);
    this.messages.remove(key);
  }

  search(text: string, opts: SearchOptions = {}): { hits: Hit[]; parsed: ParsedQuery } {
    const p = { ...DEFAULT_RANK, ...this.rankOverrides, ...opts.params };
    const limit = opts.limit ?? 20;
    const symbols = this.symbols;
    const parsed = parseQuery(text, p.properNouns && symbols?.size ? { namesNoCode: (w) => !symbols.spellsWord(w) } : {});
    const q = this.topTerms(parsed.terms);
    const allowFile = opts.filter;
    // The filter runs once per file, not once per posting.
    let allowed: Uint8Array | undefined;
    if (allowFile) {
      allowed = new Uint8Array(this.fileByDoc.length);
      for (const f of this.files.values()) if (allowFile(f.key)) allowed[f.fileDoc] = 1;
    }
    const allowChunk = allowed ? (d: number) => allowed![this.chunkFile[d]!] === 1 : undefined;
    const allowFileDoc = allowed ? (d: number) => allowed![d] === 1 : undefined;

    const c = this.chunkIdx.score(q, allowChunk, MAX_SCORED_CHUNKS);
    const f = this.fileIdx.score(q, allowFileDoc, MAX_SCORED_FILES);
    const pathQuery = [...q.map((t) => ({ term: t.term, weight: t.weight * 0.5 })), ...parsed.pathTerms.map((t) => ({ term: t.term, weight: t.weight * 2 }))];
    const pa = this.pathIdx.score(pathQuery, allowFileDoc);

    // Best chunk per file (typed arrays: a query can touch most of a 100k-chunk index).
    const nFiles = this.fileByDoc.length;
    const scratch = this.scratchFor(nFiles);
    const bestChunk = scratch.bestChunk;
    /** Files with a matching chunk, each once (a query can touch most chunks but far fewer files). */
    const chunkFiles: number[] = [];
    let maxC = 0;
    // A question's words in unit tests inside a code file count as in a test file (not as in the
    // code they test), unless tests are asked about. Not a commit message's: a change to the code
    // changes its unit tests too (outside commits, axum: MRR 0.810 → 0.803 when they counted).
    const testChunkFactor = parsed.question.natural && !parsed.aboutTests && !parsed.question.asksForTests ? p.questionTestFactor : 1;
    for (let i = 0; i < c.touched.length; i++) {
      const d = c.touched[i]!;
      const fd = this.chunkFile[d]!;
      const cur = bestChunk[fd]!;
      if (testChunkFactor !== 1 && this.testChunks.has(d)) c.scores[d] = c.scores[d]! * testChunkFactor;
      const s = c.scores[d]!;
      if (cur < 0) chunkFiles.push(fd);
      if (cur < 0 || s > c.scores[cur]!) bestChunk[fd] = d;
      if (s > maxC) maxC = s;
    }
    maxC ||= 1;
    let maxF = 0;
    for (let i = 0; i < f.touched.length; i++) if (f.scores[f.touched[i]!]! > maxF) maxF = f.scores[f.touched[i]!]!;
    maxF ||= 1;
    let maxP = 0;
    for (let i = 0; i < pa.touched.length; i++) if (pa.scores[pa.touched[i]!]! > maxP) maxP = pa.scores[pa.touched[i]!]!;
    maxP ||= 1;
    const lex = scratch.lex;
    const lexFiles: number[] = [];
    const natural = parsed.question.natural;
    const pathW = natural ? p.questionPathW : p.pathW;
    const aboutExamples = asksAboutExamples(text);
    const symW = natural ? p.symbolW : p.symbolTextW;
    const targets = symW > 0 ? this.symbolTargetsOf(text, parsed, allowFile, p.roleCompounds) : undefined;
    const nameW = natural ? p.nameW : p.nameTextW;
    const names = nameW > 0 && this.symbols?.size ? this.nameTargets(q) : undefined;
    if (names) {
      for (const [key, t] of names) {
        const prev = targets?.get(key);
        if (prev) prev.lines.push(...t.lines);
      }
    }
    const targetOf = (entry: FileEntry) => (targets && symW > 0 ? targets.get(entry.key) : undefined) ?? names?.get(entry.key);
    // Keyed by file doc, and the file's kind from a byte per file: the loop below runs for every
    // file a query touches (thousands), and each FileEntry read there was a cache miss.
    const byDoc = (m: Map<string, SymbolTarget> | undefined) => {
      if (!m) return undefined;
      const out = new Map<number, SymbolTarget>();
      for (const [key, t] of m) {
        const e = this.files.get(key);
        if (e) out.set(e.fileDoc, t);
      }
      return out;
    };
    const targetAt = byDoc(targets);
    const nameAt = byDoc(names);
    const flags = this.fileFlags;
    const hinted = this.hintedFiles(parsed.pathHints, allowed, p.maxHintFiles);
    const quoted = p.literalW > 0 ? this.literalFiles(parsed.literals, c, maxC * LITERAL_MIN_SCORE, allowed, parsed.aboutTests, p.literalMax) : undefined;
    // A question's quoted messages only ("Can only specify option -x once."), each on its own.
    const said = p.messageW > 0 ? this.messageFiles(natural ? parsed.literals : [text], allowed, p.messageMax) : undefined;
    const phraseW = natural ? p.phraseW : p.phraseTextW;
    const phrased = phraseW > 0 ? this.phraseFiles(text, allowed) : undefined;
    const ided = natural && p.declaredIdW > 0 ? this.declaredIdFiles(text, allowed) : undefined;
    const pathPhrased = phraseW > 0 && natural ? this.pathPhraseFiles(text, allowed) : undefined;
    const consider = (fd: number) => {
      if (lex[fd]! > 0) return;
      const fl = flags[fd]!;
      if (!(fl & LIVE)) return;
      const bc = bestChunk[fd]!;
      let s = (p.chunkW * (bc >= 0 ? c.scores[bc]! : 0)) / maxC + (p.fileW * f.scores[fd]!) / maxF + (pathW * pa.scores[fd]!) / maxP;
      if (hinted?.has(fd)) s += p.mentionBonus;
      const lit = quoted?.get(fd);
      if (lit) s += p.literalW * lit;
      const msg = said?.files.get(fd);
      // A question's quote of a message the code puts together (`"Can only specify option " + name + " once."`)
      // counts as its quote of a literal would, once.
      if (msg) s += natural ? (lit ? 0 : p.literalW) : p.messageW * Math.min(msg, 2);
      if (phrased?.has(fd) || pathPhrased?.has(fd)) s += phraseW;
      if (ided?.has(fd)) s += p.declaredIdW;
      const t = targetAt?.get(fd);
      if (t) s = t.definesOnly ? s * 0.5 : s + symW * t.bonus;
      const nm = nameAt?.get(fd);
      if (nm) s += nameW * nm.bonus;
      if (parsed.question.asksForTests) {
        // "How is X tested?": the tests are the answer, the code they test comes after them.
        if (!(fl & TEST)) s *= p.questionTestFactor;
      } else if (fl & TEST && !parsed.aboutTests) s *= natural ? p.questionTestFactor : p.testFactor;
      else if (fl & EXAMPLE && !aboutExamples) s *= p.exampleFactor;
      // "Which function handles markup escaping?" asks for code: a document counts as for a commit.
      else if (!(fl & CODE) && !parsed.question.howTo) s *= natural && !parsed.question.asksForCode ? p.questionProseFactor : p.proseFactor;
      // "How do I…?", "why does X not…?": a page written to answer such questions.
      if (fl & FAQ && parsed.question.howTo) s *= p.faqFactor;
      if (s <= 0) return;
      lex[fd] = s;
      lexFiles.push(fd);
    };
    for (let i = 0; i < f.touched.length; i++) consider(f.touched[i]!);
    for (const fd of chunkFiles) consider(fd);
    // A named definition counts even where the text shares no other word with its file.
    for (const key of [...(targets?.keys() ?? []), ...(names?.keys() ?? [])]) {
      const e = this.entryIn(key, allowed);
      if (e) consider(e.fileDoc);
    }
    for (const fd of phrased ?? []) consider(fd);
    for (const fd of ided ?? []) consider(fd);
    for (const fd of pathPhrased ?? []) consider(fd);
    // Files named outright but sharing no term with the text still count.
    if (hinted) {
      for (const fd of hinted) {
        if (lex[fd]! > 0) continue;
        lex[fd] = p.mentionBonus * (flags[fd]! & TEST ? p.testFactor : 1);
        lexFiles.push(fd);
      }
    }
    sortTop(lexFiles, lex, SORTED_FILES);

    // Dense: best chunk similarity per file, fused with the lexical file ranking by RRF.
    const qv = opts.queryVector;
    let sims: Float32Array | undefined;
    let denseFiles: number[] = [];
    const fileBest = scratch.fileBest;
    if (qv && this.rows && qv.length === this.dims) {
      const dims = this.dims;
      const mat = this.mat;
      const scales = this.scales;
      if (this.simBuf.length < this.rows) this.simBuf = new Float32Array(Math.ceil(this.rows * 1.25)).fill(-2);
      sims = this.simBuf;
      for (let k = 0; k < this.simScored.length; k++) sims[this.simScored[k]!] = -2;
      const exact = this.candidateRows(qv, allowChunk);
      this.simScored = exact;
      for (let k = 0; k < exact.length; k++) {
        const r = exact[k]!;
        const d = this.rowDoc[r]!;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        const o = r * dims;
        let i = 0;
        for (; i + 3 < dims; i += 4) {
          s0 += mat[o + i]! * qv[i]!;
          s1 += mat[o + i + 1]! * qv[i + 1]!;
          s2 += mat[o + i + 2]! * qv[i + 2]!;
          s3 += mat[o + i + 3]! * qv[i + 3]!;
        }
        for (; i < dims; i++) s0 += mat[o + i]! * qv[i]!;
        const s = (s0 + s1 + s2 + s3) * scales[r]!;
        sims[r] = s;
        const fd = this.chunkFile[d]!;
        if (s > fileBest[fd]!) {
          if (fileBest[fd] === -2) denseFiles.push(fd);
          fileBest[fd] = s;
        }
      }
      denseFiles.sort((a, b) => fileBest[b]! - fileBest[a]!);
      denseFiles = denseFiles.slice(0, DENSE_FILES);
    }
    // A question in prose that names no code is weighed more by meaning (questionDenseW).
    const namesCode = !!targets?.size || parsed.initials.length > 0;
    const denseW = (natural && !namesCode ? p.questionDenseW : p.denseW) * denseLengthFactor(text);
    const fused = fuse({
      lexFiles, lex, denseFiles, sim: fileBest, nFiles, scratch: scratch.fused,
      denseFactor: parsed.aboutTests ? () => 1 : (fd) => (flags[fd]! & TEST ? p.testFactor : 1),
    }, { ...p, denseW });
    const { lexRank, denseRank } = fused;
    const fusedScore = fused.score;
    const fusedFiles = fused.files;
    this.scaleKinds(fusedFiles, fusedScore, text, p, natural);
    if (natural && p.frontEndFactor !== 1 && ABOUT_FRONT_END.test(text)) this.scaleWhere(fusedFiles, fusedScore, p.frontEndFactor, (fd) => (flags[fd]! & BROWSER) !== 0);
    if (natural && p.testSupportFactor !== 1 && parsed.question.asksForTestSupport) this.scaleWhere(fusedFiles, fusedScore, p.testSupportFactor, (fd) => (flags[fd]! & TEST_SUPPORT) !== 0);
    if (natural && p.variantFactor !== 1) {
      const said = new Set(parsed.terms.map((t) => t.term));
      // The other side of a connection: hyper's "where does the HTTP/1 server send `100 Continue`?" had
      // `src/client/conn/http1.rs` first, socket.io's server questions `engine.io-client`.
      const other = said.has('server') && !said.has('client') ? 'client' : said.has('client') && !said.has('server') ? 'server' : undefined;
      const aboutCommandLine = ABOUT_COMMAND_LINE.test(text);
      const f = p.variantFactor;
      this.scaleEach(fusedFiles, fusedScore, (fd, s) => {
        const e = this.fileByDoc[fd];
        if (!e) return s;
        // One variant (a runtime's adapter, a database's backend, a site's extractor) the question does not name.
        if (e.variant?.some((w) => said.has(w)) === false) s *= f;
        if (other && e.side === other) s *= f;
        // A command's module named after the library module it drives (pip-tools' `scripts/sync.py` and
        // `sync.py`), for a question that says nothing of the command line.
        if (!aboutCommandLine && e.command !== undefined && this.libraryNames.has(e.command)) s *= f;
        else if (!aboutCommandLine && e.commandLine) s *= p.commandLineFactor;
        return s;
      });
    }
    this.bringCompanions(fusedFiles, fusedScore, natural ? p.companionW : p.companionTextW, p, allowed);
    if (natural && !parsed.question.asksForTests) this.bringDocumented(fusedFiles, fusedScore, p, allowed);
    if (natural && targetAt && !parsed.question.asksForTests) this.namedFirst(fusedFiles, fusedScore, targetAt);
    const top = fusedScore[fusedFiles[0] ?? 0] || 1;
    const simOf = (d: number) => {
      const r = this.docRow[d];
      return sims && r !== undefined && r >= 0 && sims[r]! > -2 ? sims[r] : undefined;
    };
    const hits: Hit[] = [];
    let fileRank = 0;
    for (const fd of fusedFiles) {
      if (hits.length >= limit) break;
      const fs = fusedScore[fd]!;
      if (fs < top * p.floor) break;
      const entry = this.fileByDoc[fd]!;
      fileRank++;
      const focus = targetOf(entry)?.lines;
      const onFocus = focus ? this.focusChunks(entry, focus) : undefined;
      // Of a file that says a message the question quotes, the chunk that says it (Hashie's
      // `dash.rb` had given its class head, the raise 200 lines below).
      const onMessage = natural && said?.files.has(fd) ? this.chunksSaying(entry, said.messages) : undefined;
      const ranked = entry.chunks
        .map((d) => ({ d, s: c.scores[d]! / maxC + (simOf(d) ?? 0) + (onFocus?.has(d) ? 1 : 0) + (onMessage?.has(d) ? 1 : 0) }))
        .sort((a, b) => b.s - a.s);
      const best = ranked[0]!.s;
      const pick = ranked.filter((r, i) => i === 0 || (r.s > 0 && r.s >= best * 0.6)).slice(0, p.perFileCap);
      // A bare head picked brings the piece that goes on with it (answers cite the two as one place).
      for (let k = 0; k < pick.length; k++) {
        const next = this.afterBareHead(entry, pick[k]!.d);
        if (next !== undefined && !pick.some((r) => r.d === next)) pick.splice(k + 1, 0, ranked.find((r) => r.d === next)!);
      }
      for (const r of pick) {
        if (hits.length >= limit) break;
        const ch = this.chunks[r.d]!;
        hits.push({
          chunk: ch,
          score: Math.max(0, Math.min(1, (fs / top) * (r === pick[0] ? 1 : 0.9))),
          bm25: c.scores[r.d] || undefined,
          dense: simOf(r.d),
          bm25Rank: lexRank[fd] || undefined,
          denseRank: denseRank[fd] || undefined,
          matched: q.filter((t) => this.chunkIdx.has(r.d, t.term)).map((t) => t.term.replace(/^=/, '')).slice(0, 12),
          fileRank,
          ...(this.receiverOf(entry.key, ch) ?? this.documentedBy(entry, r.d)),
        });
      }
    }
    return { hits, parsed };
  }

  /**
   * A question that names code ("where is the `Flask` class defined?", "who calls compose?") gets
   * the definition (or the call sites) first, above files the dense signal likes for repeating the
   * name: each target file is lifted just above the best other file, in the order of its bonus.
   */
  private namedFirst(files: number[], score: Float64Array, targets: Map<number, SymbolTarget>): void {
    let best = 0;
    for (const fd of files.slice(0, 50)) if (!targets.has(fd)) best = Math.max(best, score[fd]!);
    let moved = false;
    let overridden = 0;
    for (const [fd, t] of targets) {
      if (t.definesOnly || !(score[fd]! > 0)) continue;
      const lifted = best * (1.01 + 0.01 * t.bonus);
      if (score[fd]! < lifted) {
        score[fd] = lifted;
        moved = true;
      }
      if (!t.extending) overridden = Math.max(overridden, score[fd]!);
    }
    // A subclass's override that calls the method it overrides comes after that method's file.
    for (const [fd, t] of targets) {
      if (!t.extending || !overridden || !(score[fd]! >= overridden)) continue;
      score[fd] = overridden * 0.999;
      moved = true;
    }
    if (moved) sortTop(files, score, SORTED_FILES);
  }

  /** Multiplies the fused score of the listed files that `which` picks by a factor, and re-sorts. */
  private scaleWhere(files: number[], score: Float64Array, factor: number, which: (fd: number) => boolean): void {
    this.scaleEach(files, score, (fd, s) => (which(fd) ? s * factor : s));
  }

  /** Sets each listed file's fused score to `rescore` of it, and re-sorts once if any changed. */
  private scaleEach(files: number[], score: Float64Array, rescore: (fd: number, s: number) => number): void {
    let moved = false;
    for (const fd of files) {
      const s = score[fd]!;
      const next = rescore(fd, s);
      if (next === s) continue;
      score[fd] = next;
      moved = true;
    }
    if (moved) sortTop(files, score, SORTED_FILES);
  }

  /**
   * Multiplies the fused score of the listed files of each kind in WEIGHED_DOWN by its factor,
   * unless the text is about that kind, and re-sorts once.
   */
  private scaleKinds(files: number[], score: Float64Array, text: string, p: RankParams, natural: boolean): void {
    const kinds = WEIGHED_DOWN.filter((k) => p[k.factor] !== 1 && (natural || !k.questionsOnly) && !k.about.test(text));
    if (!kinds.length) return;
    let moved = false;
    for (const fd of files) {
      const fl = this.fileFlags[fd]!;
      for (const k of kinds) {
        if (!(fl & k.flag)) continue;
        score[fd] = score[fd]! * p[k.factor];
        moved = true;
      }
    }
    if (moved) sortTop(files, score, SORTED_FILES);
  }

  /**
   * Lifts the companions of the best files (a source file's tests, a test's source file, a file's
   * same-named siblings) to `w` times their file's score, when the text found them too, and re-sorts.
   */
  private bringCompanions(files: number[], score: Float64Array, w: number, p: RankParams, allowed?: Uint8Array): void {
    if (w <= 0 || !files.length) return;
    let moved = false;
    for (const fd of files.slice(0, p.companionTop)) {
      const anchor = this.fileByDoc[fd];
      if (!anchor) continue;
      const lifted = score[fd]! * w;
      for (const key of this.companions.of(anchor.key)) {
        const e = this.entryIn(key, allowed);
        if (!e) continue;
        const own = score[e.fileDoc]!;
        if (own >= lifted || !(own > 0) || own < score[fd]! * p.companionMin) continue;
        score[e.fileDoc] = lifted;
        moved = true;
      }
    }
    if (moved) sortTop(files, score, SORTED_FILES);
  }

  /**
   * A reference page among a question's best files brings the code it is named after: zustand's
   * `docs/reference/hooks/use-shallow.md` the file defining `useShallow`, tRPC's
   * `docs/client/links/httpBatchLink.md` `links/httpBatchLink.ts` — the page explains in the question's
   * words what that code does in its own. Lifted to `pageCodeW` of the page's score, when one or two
   * code files outside the tests are named so or define the name.
   */
  private bringDocumented(files: number[], score: Float64Array, p: RankParams, allowed?: Uint8Array): void {
    if (p.pageCodeW <= 0 || !files.length) return;
    let moved = false;
    for (const fd of files.slice(0, p.companionTop)) {
      const subject = this.fileByDoc[fd]?.subject;
      if (!subject) continue;
      const found = new Set<number>();
      for (const d of this.codeByStem.get(subject) ?? []) if (!allowed || allowed[d]) found.add(d);
      for (const key of this.symbols?.filesDefiningSquashed(subject) ?? []) {
        const e = this.entryIn(key, allowed);
        if (e?.code && !e.test) found.add(e.fileDoc);
      }
      if (!found.size || found.size > 2) continue;
      const lifted = score[fd]! * p.pageCodeW;
      for (const d of found) {
        const own = score[d]!;
        if (own >= lifted) continue;
        if (!(own > 0)) files.push(d);
        score[d] = lifted;
        moved = true;
      }
    }
    if (moved) sortTop(files, score, SORTED_FILES);
  }

  /**
   * Files whose chunks (among those the query's words found) hold a literal verbatim, each
   * literal counting 1, none found in more than `max` files (tests not counted unless asked for).
   */
  private literalFiles(literals: string[], chunks: { scores: Float64Array; touched: Int32Array }, minScore: number, allowed: Uint8Array | undefined, aboutTests: boolean, max: number): Map<number, number> | undefined {
    if (!literals.length) return undefined;
    const out = new Map<number, number>();
    for (const lit of literals) {
      const digits = /^\d+$/.test(lit);
      const re = new RegExp(`(?<![A-Za-z0-9_])${lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`, 'i');
      const found = new Set<number>();
      // A case-insensitive scan costs a microsecond a chunk: its longest word, as written, in
      // lower case, capitalised or in capitals, is looked for first (a plain substring search).
      const word = lit.split(/[^A-Za-z0-9_]+/).reduce((a, b) => (b.length > a.length ? b : a), '');
      const probe = [...new Set([word, word.toLowerCase(), word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(), word.toUpperCase()])];
      // A chunk holding a phrase holds each of its words' terms: found in the postings. A number
      // (or 'from None': stop words) has no term: the chunks the question's words found are scanned.
      const need = digits ? [] : [...new Set(terms(lit).filter((t) => !t.startsWith('=')))];
      let candidates: ArrayLike<number> = need.length ? this.chunkIdx.docsWithAll(need) : chunks.touched;
      // Bounded work at any index size: past LITERAL_SCANS candidates, the best-scored ones.
      if (candidates.length > LITERAL_SCANS) {
        candidates = Array.from(candidates).filter((d) => digits || chunks.scores[d]! > minScore).sort((a, b) => chunks.scores[b]! - chunks.scores[a]!).slice(0, LITERAL_SCANS);
      }
      let counted = 0;
      for (let i = 0; i < candidates.length && counted <= max; i++) {
        const d = candidates[i]!;
        const fd = this.chunkFile[d]!;
        // A number counts in any chunk the question's words found (EmailValidator's `EMAIL_MAX_LENGTH =
        // 254` for "longer than 254 characters", in a chunk of constants that says little else).
        if (!(digits || chunks.scores[d]! > minScore) || found.has(fd) || (allowed && !allowed[fd])) continue;
        const ch = this.chunks[d];
        if (!ch || !probe.some((w) => ch.text.includes(w)) || !re.test(ch.text)) continue;
        found.add(fd);
        if (aboutTests || !(this.fileFlags[fd]! & TEST)) counted++;
      }
      if (!counted || counted > max) continue;
      for (const fd of found) out.set(fd, (out.get(fd) ?? 0) + 1);
    }
    return out.size ? out : undefined;
  }

  /** The file of that key, when the search may return it (`allowed`: a filter's files by doc). */
  private entryIn(key: string, allowed: Uint8Array | undefined): FileEntry | undefined {
    const e = this.files.get(key);
    return e && (!allowed || allowed[e.fileDoc]) ? e : undefined;
  }

  /** Code files that say a message the text quotes, with how many such messages each says; and the messages. */
  private messageFiles(texts: string[], allowed: Uint8Array | undefined, max: number): { files: Map<number, number>; messages: string[] } | undefined {
    const out = new Map<number, number>();
    const messages: string[] = [];
    for (const { message, files } of texts.flatMap((t) => this.messages.find(t))) {
      if (files.length > max) continue;
      messages.push(message);
      for (const key of files) {
        const e = this.entryIn(key, allowed);
        if (e) out.set(e.fileDoc, (out.get(e.fileDoc) ?? 0) + 1);
      }
    }
    return out.size ? { files: out, messages } : undefined;
  }

  /** The source files declaring a rule or message id the text writes as neighbouring words ("the unused variable checker", `assignment-from-no-return`). */
  private declaredIdFiles(text: string, allowed: Uint8Array | undefined): Set<number> | undefined {
    const out = new Set<number>();
    for (const run of wordRuns(text, /[A-Za-z0-9]+/g, () => true, /^[`'"]*[\s-][`'"]*$/, 2, 5)) {
      const id = run.join('_');
      if (id.length < 8) continue;
      for (const key of this.companions.declaring(id)) {
        const e = this.entryIn(key, allowed);
        if (e) out.add(e.fileDoc);
      }
    }
    return out.size ? out : undefined;
  }

  /** The code files defining a name the text writes as neighbouring words, by file doc. */
  private phraseFiles(text: string, allowed: Uint8Array | undefined): Set<number> | undefined {
    if (!this.symbols?.size) return undefined;
    const out = new Set<number>();
    for (const key of this.symbols.phraseMatches(text).keys()) {
      const e = this.entryIn(key, allowed);
      if (e?.code) out.add(e.fileDoc);
    }
    return out.size ? out : undefined;
  }

  /**
   * The files the text names by path (`src/app.py`, `pkg.module`), each hint kept only while it
   * names at most `max` files: `__init__.py` or `index.ts` in an issue names no file in particular.
   */
  private hintedFiles(hints: string[], allowed: Uint8Array | undefined, max: number): Set<number> | undefined {
    if (!hints.length) return undefined;
    const out = new Set<number>();
    for (const h of hints) {
      const found: number[] = [];
      for (const entry of this.files.values()) {
        if (allowed && !allowed[entry.fileDoc]) continue;
        if (matchesHint(entry.rel, h) && found.push(entry.fileDoc) > max) break;
      }
      if (found.length <= max) for (const fd of found) out.add(fd);
    }
    return out.size ? out : undefined;
  }

  /**
   * The files whose folder and name a question writes as two neighbouring words, in either order
   * ("the base worker" → gunicorn's `workers/base.py`, "the asgi parser" → `asgi/parser.py`),
   * where the two name one or two files.
   */
  private pathPhraseFiles(text: string, allowed: Uint8Array | undefined): Set<number> | undefined {
    const keys = new Set<string>();
    const keep = (w: string) => /^[A-Za-z][A-Za-z0-9]+$/.test(w) && !isStopWord(w.toLowerCase());
    for (const [a, b] of wordRuns(text.replace(/['’]s\b/g, ''), /[A-Za-z0-9_$]+/g, keep, /^[\s-]$/, 2, 2)) {
      keys.add(`${stem(a!)}/${stem(b!)}`);
      keys.add(`${stem(b!)}/${stem(a!)}`);
    }
    const out = new Set<number>();
    for (const k of keys) {
      const fds = [...(this.byFolderAndName.get(k) ?? [])].filter((fd) => !allowed || allowed[fd]);
      if (fds.length <= 2) for (const fd of fds) out.add(fd);
    }
    return out.size ? out : undefined;
  }

  private hasFileNamed(hint: string): boolean {
    for (const entry of this.files.values()) if (matchesHint(entry.rel, hint)) return true;
    return false;
  }

  /** Files by the definition whose name the query spells out, bonus 1 for the best. */
  private nameTargets(q: QueryTerm[]): Map<string, SymbolTarget> | undefined {
    const query = new Map<string, number>();
    for (const t of q) if (!t.term.startsWith('=')) query.set(t.term, t.weight);
    const found = this.symbols!.nameMatches(query, (t) => this.chunkIdx.idf(t));
    let max = 0;
    for (const v of found.values()) max = Math.max(max, v.score);
    if (!max) return undefined;
    const out = new Map<string, SymbolTarget>();
    for (const [key, v] of found) if (v.score >= max * 0.3) out.set(key, { bonus: v.score / max, lines: [v.def.startLine] });
    return out;
  }

  /** The chunks of a file whose string literals say one of `messages`. */
  private chunksSaying(entry: FileEntry, messages: string[]): Set<number> {
    return new Set(entry.chunks.filter((d) => messagesOf(this.chunks[d]!.text).some((m) => messages.includes(m))));
  }

  /**
   * The chunks of a file that hold a named definition's (or call's) lines, and the piece right
   * after a definition's bare head: click's `Context.invoke` is a three-line `def invoke(`
   * signature, its docstring and body the next chunk, which says what it does.
   */
  private focusChunks(entry: FileEntry, lines: number[]): Set<number> {
    const out = new Set<number>();
    for (const d of entry.chunks) {
      if (!this.covers(d, lines)) continue;
      out.add(d);
      const next = this.afterBareHead(entry, d);
      if (next !== undefined) out.add(next);
    }
    return out;
  }

  /** The chunk that goes on with a definition's bare head (see isBareHead); undefined for any other chunk. */
  private afterBareHead(entry: FileEntry, d: number): number | undefined {
    const ch = this.chunks[d]!;
    return isBareHead(ch) ? entry.chunks.find((x) => goesOnWith(ch, this.chunks[x]!)) : undefined;
  }

  /**
   * A chunk of a doc comment alone, too long to go with the definition below it (the 58 lines of
   * bytes' `BytesMut::reserve` docs), is named by that definition (`BytesMut › reserve`, not
   * `BytesMut`): an answer that cites it names the function, and a follow-up asks about it.
   */
  private documentedBy(entry: FileEntry, d: number): { symbol: string } | undefined {
    const ch = this.chunks[d]!;
    if (!ch.code || !ch.text.split('\n').every((l) => !l.trim() || DOC_COMMENT_LINE.test(l))) return undefined;
    const next = entry.chunks.find((x) => this.chunks[x]!.startLine === ch.endLine + 1);
    const own = next === undefined ? undefined : this.chunks[next]!.symbol?.split(/\s*,\s*/)[0];
    return own && own !== ch.symbol ? { symbol: own } : undefined;
  }

  /**
   * A Go method's chunk is named by the method alone (`next`): its receiver is on the `func` line,
   * which a later piece of a long method does not show. The symbols know it (`App.next`). So is a
   * chunk of methods side by side (`Panic, Fatal, Logf`): named by their receiver where they share one.
   */
  private receiverOf(key: string, ch: ChunkRecord): { symbol: string } | undefined {
    if (ch.language !== 'go' || !ch.symbol || ch.symbol.includes('›') || !this.symbols) return undefined;
    const ownerOf = (def: FileSymbol | undefined, name: string) =>
      def && def.name === name && def.qualifiedName.endsWith('.' + name) ? def.qualifiedName.slice(0, -name.length - 1) : undefined;
    const names = ch.symbol.split(/\s*,\s*/);
    const defs = names.length > 1 ? this.symbols.definitionsIn(key).filter((d) => d.startLine >= ch.startLine && d.startLine <= ch.endLine) : [];
    const owners = names.length > 1 ? new Set(names.map((n) => ownerOf(defs.find((d) => d.name === n), n))) : new Set([ownerOf(this.symbols.enclosing(key, ch.startLine), ch.symbol)]);
    const owner = owners.size === 1 ? [...owners][0] : undefined;
    return owner && !owner.includes('.') ? { symbol: `${owner} › ${ch.symbol}` } : undefined;
  }

  private covers(doc: number, lines: number[]): boolean {
    const ch = this.chunks[doc];
    return !!ch && lines.some((l) => ch.startLine <= l && l <= ch.endLine);
  }

  /** Files the text's code names point at (definitions, or call sites when it asks where they are used). */
  private symbolTargetsOf(text: string, parsed: ParsedQuery, allowFile?: (key: string) => boolean, roleCompounds = true): Map<string, SymbolTarget> | undefined {
    const q = parsed.question;
    if (!this.symbols || !this.symbols.size) return undefined;
    // "what does c.json do?": a method, unless a file of the project is called `c.json`.
    // "The environment interface" is hatch's `EnvironmentInterface` where the project defines it,
    // not a name `environment` with its role.
    const named = q.symbols.map((s) => {
      if (!s.role || !roleCompounds) return s;
      const whole = this.symbols!.namesSquashed(squash(s.name + s.role))[0];
      return whole ? { name: whole, codeShaped: true } : s;
    });
    for (const name of q.fileShaped) {
      const hint = name.toLowerCase();
      if (!this.hasFileNamed(hint)) named.push({ name, codeShaped: true });
    }
    for (const name of q.capitalised) named.push({ name, codeShaped: false, plain: true });
    // "the text of an element": `Element.text`, where the project defines it.
    if (q.natural) for (const name of this.symbols.memberPhrases(text)) if (!named.some((n) => n.name === name)) named.push({ name, codeShaped: true });
    if (!named.length) return undefined;
    const refs = (name: string) => {
      const ts = terms(name.split(/[.:#]/).pop() ?? '');
      const term = ts.find((t) => t.startsWith('=')) ?? (ts.length === 1 ? ts[0] : undefined);
      // A name without a term of its own (a stop word) would mean scanning every chunk per query.
      if (!term) return [];
      // Asked where it is tested, the tests' uses first: Polly's `RetryStrategyOptions` is used more than
      // 200 times outside its tests, which the limit had cut off.
      return findReferences(name, [...this.chunksWithTerm(term)].filter((c) => c.code), this.symbols!, { limit: 200, testsFirst: parsed.aboutTests });
    };
    // "Where is X used" is a question's intent; a commit's "use X" is not.
    const targets = symbolTargets(named, q.natural ? q.intent : 'about', this.symbols, parsed.aboutTests, refs, { plainTails: q.natural });
    if (allowFile) for (const k of [...targets.keys()]) if (!allowFile(k)) targets.delete(k);
    return targets.size ? targets : undefined;
  }

  /**
   * Per-file arrays for one query, reused and reset (a 100k-chunk index has ~12k files: fresh
   * arrays per query were a megabyte of garbage each, and the collections it caused showed in p95).
   */
  private scratchFor(nFiles: number) {
    if (this.perFile.lex.length < nFiles) {
      const cap = Math.max(1024, Math.ceil(nFiles * 1.5));
      this.perFile = {
        bestChunk: new Int32Array(cap), lex: new Float64Array(cap), fileBest: new Float32Array(cap),
        fused: { score: new Float64Array(cap), lexRank: new Int32Array(cap), denseRank: new Int32Array(cap) },
      };
    }
    const f = this.perFile;
    const out = {
      bestChunk: f.bestChunk.subarray(0, nFiles).fill(-1),
      lex: f.lex.subarray(0, nFiles).fill(0),
      fileBest: f.fileBest.subarray(0, nFiles).fill(-2),
      fused: {
        score: f.fused.score.subarray(0, nFiles).fill(0),
        lexRank: f.fused.lexRank.subarray(0, nFiles).fill(0),
        denseRank: f.fused.denseRank.subarray(0, nFiles).fill(0),
      },
    };
    return out;
  }
  private perFile = {
    bestChunk: new Int32Array(0), lex: new Float64Array(0), fileBest: new Float32Array(0),
    fused: { score: new Float64Array(0), lexRank: new Int32Array(0), denseRank: new Int32Array(0) },
  };

  /**
   * Rows to score exactly. Up to EXACT_ROWS that is all of them; beyond, a Hamming pass over the
   * sign bits keeps the closest RESCORE_ROWS (binary quantization with exact rescoring): a full
   * float scan of 20k rows × 256 dims was half of a query's time, and rescoring 2k of them ranked
   * SWE-QA and commit-eval dev the same (MRR 0.816 and 0.830 both ways).
   */
  private candidateRows(qv: Float32Array, allowChunk?: (d: number) => boolean): Int32Array {
    const rowDoc = this.rowDoc;
    if (this.rows - this.deadRows <= EXACT_ROWS) {
      const live: number[] = [];
      for (let r = 0; r < this.rows; r++) {
        const d = rowDoc[r]!;
        if (d >= 0 && (!allowChunk || allowChunk(d))) live.push(r);
      }
      return Int32Array.from(live);
    }
    const w = this.words;
    const qb = new Uint32Array(w);
    signBits(qv, qb, 0);
    // Reused between queries: a fresh 100k-entry array per query showed as garbage-collection time.
    if (this.distBuf.length < this.rows) this.distBuf = new Uint16Array(Math.ceil(this.rows * 1.25));
    const dist = this.distBuf;
    const hist = new Uint32Array(w * 32 + 1);
    const bits = this.bits;
    for (let r = 0; r < this.rows; r++) {
      const d = rowDoc[r]!;
      if (d < 0 || (allowChunk && !allowChunk(d))) {
        dist[r] = 65535;
        continue;
      }
      let h = 0;
      const o = r * w;
      for (let i = 0; i < w; i++) h += popcount(bits[o + i]! ^ qb[i]!);
      dist[r] = h;
      hist[h]!++;
    }
    let cut = 0;
    let count = 0;
    for (; cut < hist.length; cut++) {
      count += hist[cut]!;
      if (count >= RESCORE_ROWS) break;
    }
    const out = new Int32Array(count);
    let k = 0;
    for (let r = 0; r < this.rows && k < count; r++) if (dist[r]! <= cut) out[k++] = r;
    return out;
  }

  /** The terms worth scoring: known to the index, most telling first. */
  private topTerms(list: QueryTerm[]): QueryTerm[] {
    const scored = list
      .map((t) => ({ t, v: t.weight * this.chunkIdx.idf(t.term), df: this.chunkIdx.docFreq(t.term) }))
      .filter((x) => x.df > 0);
    scored.sort((a, b) => b.v - a.v);
    // Common terms stay: dropping those in over 20% of chunks cost 0.026 MRR on commit-eval dev.
    return scored.slice(0, MAX_QUERY_TERMS).map((x) => x.t);
  }
}

/** A file's lines from its chunks, which cover every line once, in order. */
function fileLines(chunks: ChunkRecord[]): string[] {
  const lines: string[] = [];
  for (const c of chunks) c.text.split('\n').forEach((l, i) => (lines[c.startLine - 1 + i] = l));
  return Array.from(lines, (l) => l ?? '');
}

/** Whether most of the lines `start`–`end` lie in the ranges. */
function inRanges(start: number, end: number, ranges: [number, number][]): boolean {
  let n = 0;
  for (const [a, b] of ranges) n += Math.max(0, Math.min(end, b) - Math.max(start, a) + 1);
  return n * 2 > end - start + 1;
}

/**
 * The dense weight fades past 50 words: one mean-pooled vector of a long issue text is mostly
 * noise (SWE-bench dev, 24 issues: dense at full weight cost R@1 0.71 → 0.58), while questions
 * and commit messages are shorter.
 */
export function denseLengthFactor(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.min(1, DENSE_FULL_WORDS / Math.max(1, words));
}
const DENSE_FULL_WORDS = 50;

/** A text about translations: the catalogs are an answer then. */
const ABOUT_TRANSLATIONS = /\b(translat\w*|locales?|locali[sz]\w*|i18n|l10n|gettext|po files?|catalogs?|languages?|LC_MESSAGES)\b/i;

/** A text about changes themselves: the change log is an answer then. */
const ABOUT_CHANGES = /\b(change ?logs?|changes? (?:file|notes?)|release notes?|what'?s new|news|history|blog(?: posts?)?|announc\w*|changed in|(?:since|in|before|after) (?:version|v?\d+\.\d+))\b/i;

/** A text about building, packaging, dependencies, tooling or settings: a project's config files are an answer then. */
const ABOUT_PROJECT = /\b(config\w*|settings?|options?|build\w*|compil\w*|bundl\w*|dependenc\w*|deps?|depend\w*|packag\w*|install\w*|versions?|scripts?|lint\w*|ci|workflows?|pipelines?|tsconfig|eslint|prettier|vitest|jest|playwright|coverage|pyproject|setup|tox|publish\w*|releases?|npm|pip|yarn|pnpm|deno|bun|engines?|strict|target|module resolution|exports?|entry ?points?|licen[cs]\w*|contribut\w*|maintainers?|code of conduct|security polic\w*|vulnerabilit\w*|sponsor\w*|funding|authors?)\b/i;

/** A text about the project's own tooling: its scripts are an answer then. */
const ABOUT_TOOLING = /\b(scripts?|tool(?:s|ing)|releas\w*|publish\w*|bump\w*|ci|continuous integration|workflows?|maintainers?|sync\w*|generat\w*|benchmark\w*|automat\w*)\b/i;

/** Text about another project's code kept in this one. */
const ABOUT_VENDORED = /\b(vendor\w*|third[- ]party|bundled (?:copy|copies|librar\w*|dependenc\w*)|extern|patched)\b/i;
const LIVE = 1;
const TEST = 2;
const EXAMPLE = 4;
const CODE = 8;
const CHANGELOG = 16;
const DECLARATION = 32;
const CATALOG = 64;
const PROJECT = 128;
const VENDORED = 256;
/** A Java, C# or Kotlin file of interfaces only (languages.ts `isInterfaceOnly`). */
const INTERFACE = 512;
/** The maintainers' scripts at the top of the repository (languages.ts `isToolingPath`). */
const TOOLING = 1024;
/** A file named for the exception class it declares, or a Python module of exceptions (languages.ts `isExceptionFile`). */
const EXCEPTION = 2048;
/** Code a tool wrote, as its header says (languages.ts `isGeneratedCode`): `*.pb.go`, a parser's tables. */
const GENERATED = 4096;
/** A page of users' questions and answers or of problems and fixes (languages.ts `isFaqPath`). */
const FAQ = 8192;
/** Code that runs in a browser: JavaScript, TypeScript, Vue and Svelte files (see `frontEndFactor`). */
const BROWSER = 16384;
/** A test file that holds no test case: what a suite shares (languages.ts `isTestSupportFile`). */
const TEST_SUPPORT = 32768;
const BROWSER_LANGUAGES = new Set(['javascript', 'typescript', 'tsx', 'vue', 'svelte']);
/** A question about the part of a project that runs in the browser. */
const ABOUT_FRONT_END = /\b(?:browser[- ]side|client[- ]side|front[- ]?end|in the browser|web UI|(?:Vue|React|Svelte|Angular) components?)\b/i;
const ABOUT_GENERATED = /\b(generated|generator|codegen|code generation|protobuf|protoc|grpc|stubs?)\b|\.pb\./i;
const ABOUT_ERRORS = /\b(errors?|exceptions?|throws?|thrown|threw|raises?|raised|fail\w*|invalid|rejects?|rejected|rejections?|panics?|abort\w*|warn\w*|not found|missing)\b|[a-z](?:Error|Exception|Exceptions)\b/i;
/**
 * Kinds of file that repeat the code's words without being where anything happens, each weighed
 * down by its factor unless the text is about that kind (RankParams has the measurements).
 */
const WEIGHED_DOWN: { flag: number; factor: 'changelogFactor' | 'declarationFactor' | 'catalogFactor' | 'projectFactor' | 'vendoredFactor' | 'toolingFactor' | 'exceptionFactor'; about: RegExp; questionsOnly?: boolean }[] = [
  { flag: EXCEPTION, factor: 'exceptionFactor', about: ABOUT_ERRORS, questionsOnly: true },
  { flag: CHANGELOG, factor: 'changelogFactor', about: ABOUT_CHANGES },
  { flag: DECLARATION, factor: 'declarationFactor', about: ABOUT_TYPES },
  // For questions only: a commit or an issue changes an interface as often as an implementation
  // (gson and serilog commits: MRR 0.785 -> 0.775, 0.743 -> 0.741 when counted for them too).
  { flag: INTERFACE, factor: 'declarationFactor', about: ABOUT_TYPES, questionsOnly: true },
  { flag: CATALOG, factor: 'catalogFactor', about: ABOUT_TRANSLATIONS },
  { flag: PROJECT, factor: 'projectFactor', about: ABOUT_PROJECT },
  { flag: VENDORED, factor: 'vendoredFactor', about: ABOUT_VENDORED },
  // Another tool's code kept here is weighed as another project's is.
  { flag: GENERATED, factor: 'vendoredFactor', about: ABOUT_GENERATED },
  // For questions only: a commit changes the release script as often as the code (840 outside
  // commits: MRR 0.822 -> 0.819 when counted for them too).
  { flag: TOOLING, factor: 'toolingFactor', about: ABOUT_TOOLING, questionsOnly: true },
];
const VARIANT_FOLDER = /^(?:adapters?|backends?|dialects?|extractors?|drivers?|platforms?|formatters?|writers?|reporters?|renderers?|exporters?|lexers?|builders?|parsers?)$/i;
/** Names of the shared code beside the variants, not a variant. */
const NOT_VARIANT = /^(?:_*(?:init|main)_*|_?base\w*|common|core|abstract\w*|generic|default|shared|utils?|helpers?|index|mod|types?|dialects?|extractors?|backends?|adapters?|drivers?|platforms?|tests?|conftest|registry|interfaces?|protocols?)$/i;

/**
 * The asynchronous twin of a module (django-debug-toolbar's `tests/test_integration_async.py` beside
 * `test_integration.py`, a `_async/`, `asyncio/` or `aio/` folder beside the synchronous code): a
 * variant for a question that says nothing of async (not `async_helpers.py`, whose name starts so).
 */
const ASYNC_TWIN = /(?:^|\/)(?:_async|asyncio|aio)\/(?:[^/]+\/)*[^/]+$|[A-Za-z0-9]_async\.[a-z]+$/i;
/** What a question about the asynchronous twin says, stemmed. */
const ASYNC_WORDS = ['async', 'asyncio', 'asynchron', 'await', 'coroutin', 'aio'];

/**
 * The stems of the variant a path implements under a folder of variants (`adapter/cloudflare-pages/handler.ts`
 * → cloudflar, page; `dialects/bigquery.py` → bigqueri; `extractor/flickr.py` → flickr); undefined
 * for the shared code beside them (`base.py`, `common.py`, `index.ts`) and any other path.
 */
export function variantWords(rel: string): string[] | undefined {
  const path = rel.replace(/\\/g, '/');
  if (ASYNC_TWIN.test(path)) return ASYNC_WORDS;
  const parts = path.split('/');
  const i = parts.findIndex((x, k) => k < parts.length - 1 && VARIANT_FOLDER.test(x));
  if (i < 0) return undefined;
  const name = parts[i + 1]!.replace(/\.[^.]*$/, '');
  if (NOT_VARIANT.test(name) || stem(name.toLowerCase()) === stem(parts[i]!.toLowerCase())) return undefined;
  const words = name.split(/[-_.]+/).filter((w) => w.length >= 2).map((w) => stem(w.toLowerCase()));
  return words.length ? words : undefined;
}

/** A folder of a program's commands. */
const COMMAND_FOLDER = /(?:^|\/)(?:cli|scripts?|commands?|bin|cmd|management|console)\//i;
/** What a question about the command line says. */
const ABOUT_COMMAND_LINE = /\b(?:commands?|cli|command[- ]line|terminal|shell|flags?|options?|argv|arguments?|scripts?|subcommands?|console|invok\w*|run|runs|prompt|exit)\b/i;

/**
 * The file name of a command's module (`piptools/scripts/sync.py` → `sync.py`): a file in a folder of
 * commands, not its package's `__init__`, `main` or `index`; undefined for any other path.
 */
export function commandModuleName(rel: string): string | undefined {
  if (!COMMAND_FOLDER.test(rel)) return undefined;
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return /^(?:__init__|__main__|main|index|mod)\./.test(name) ? undefined : name;
}

type Side = 'client' | 'server';

/** A module of a program's command line: `cli.py`, `__main__.py`, a file in a folder of commands or of flags. */
export function isCommandLinePath(rel: string): boolean {
  return COMMAND_FOLDER.test(rel) || /(?:^|\/)flags\//.test(rel) || /(?:^|\/)(?:cli|__main__)\.[a-z]+$/.test(rel);
}

/** Languages of documentation pages ({@link FileEntry.subject}). */
const DOC_LANGUAGES = new Set(['markdown', 'restructuredtext', 'adoc']);
/** File names that name their folder or the project, not one thing in it. */
const NO_SUBJECT = new Set(['index', 'readme', 'main', 'mod', 'lib', 'init', 'setup', 'conftest', 'overview', 'introduction', 'intro', 'usage', 'api', 'reference', 'apireference', 'guide', 'tutorial', 'changelog', 'license', 'contributing', 'gettingstarted', 'quickstart']);

/**
 * A documentation page's name of two words or more as the thing it is about: without its extensions
 * and separators, in lower case (`docs/reference/hooks/use-shallow.md` → useshallow,
 * `docs/client/links/httpBatchLink.md` → httpbatchlink); undefined for one word (`config.rst`,
 * `optional.md`: a topic more often than a name in the code), see {@link fileSubject}.
 */
export function pageSubject(rel: string): string | undefined {
  const written = rel.slice(rel.lastIndexOf('/') + 1).replace(/\..*$/, '');
  return /[A-Za-z0-9][-_ ]+[A-Za-z0-9]|[a-z][A-Z]/.test(written) ? fileSubject(rel) : undefined;
}

/**
 * A file's name as the thing it is about, without its extensions and separators, in lower case
 * (`links/httpBatchLink.ts` → httpbatchlink); undefined for short names and names of folders or of
 * the project (`index`, `README`).
 */
export function fileSubject(rel: string): string | undefined {
  const name = rel.slice(rel.lastIndexOf('/') + 1).replace(/\..*$/, '').replace(/[-_ ]+/g, '').toLowerCase();
  return name.length < 4 || NO_SUBJECT.has(name) ? undefined : name;
}

/**
 * The side of a connection a path belongs to: a folder or name part `client(s)` and none `server(s)`
 * (`src/client/conn/http1.rs`, `packages/engine.io-client/lib/socket.ts`, `gradio_client/client.py`)
 * is the client's, and the other way round the server's; undefined for both or neither.
 */
export function sideOf(rel: string): Side | undefined {
  const parts = new Set(rel.toLowerCase().split(/[\\/._-]+/));
  const client = parts.has('client') || parts.has('clients');
  const server = parts.has('server') || parts.has('servers');
  return client === server ? undefined : client ? 'client' : 'server';
}

/** Adds a file doc to the group of a key. */
function addToGroup(groups: Map<string, Set<number>>, key: string, fd: number): void {
  const same = groups.get(key);
  if (same) same.add(fd);
  else groups.set(key, new Set([fd]));
}

/** Takes a file doc out of the group of a key, and the group out when it is empty. */
function removeFromGroup(groups: Map<string, Set<number>>, key: string, fd: number): void {
  const same = groups.get(key);
  if (same?.delete(fd) && !same.size) groups.delete(key);
}

/** The stems of a path's folder's name and its own, `worker/base` for `gunicorn/workers/base.py`; empty at the top. */
function folderAndName(rel: string): string {
  const parts = rel.toLowerCase().split('/');
  if (parts.length < 2) return '';
  return `${stem(parts[parts.length - 2]!)}/${stem(parts[parts.length - 1]!.replace(/\.[^.]*$/, ''))}`;
}

/** Rows scored exactly without the Hamming pre-pass, and rows rescored after it (candidateRows). */
const EXACT_ROWS = 2_000;
/** Vectors kept for content that left the index (see `orphans`): ~10 MB at 256 dims. */
const ORPHAN_VECTORS = 10_000;
/**
 * Accumulator limits (Bm25.score): past this many scored chunks / files, commoner terms only add
 * to what the rarer ones found. No dev repository reaches them (the largest, sphinx, has 11.7k chunks); at
 * 100k chunks a question of common words ("where is import resolve from handled") scored every
 * chunk and spent up to 180 ms doing so.
 */
const MAX_SCORED_CHUNKS = 12_000;
const MAX_SCORED_FILES = 4_000;
/** A chunk holding a literal the question quotes scores at least this share of the best chunk for the question's words (the scan skips the rest). */
const LITERAL_MIN_SCORE = 0.25;
/** Chunks scanned for one literal at most (a case-insensitive scan costs about 2 µs a chunk). */
const LITERAL_SCANS = 500;
/** Files the dense signal may bring into the fusion. */
const DENSE_FILES = 100;
const RESCORE_ROWS = 2_000;

function signBits(v: Float32Array, out: Uint32Array, offset: number): void {
  const words = Math.ceil(v.length / 32);
  for (let wi = 0; wi < words; wi++) {
    let x = 0;
    for (let b = 0; b < 32; b++) {
      const i = wi * 32 + b;
      if (i < v.length && v[i]! > 0) x |= 1 << b;
    }
    out[offset + wi] = x >>> 0;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}


