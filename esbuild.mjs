// Bundles the extension, the worker, the CLI and the webview into dist/.
// Native or WASM-loading packages stay external: they are shipped in node_modules.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, existsSync, readFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeExternal = [
  'vscode',
  '@huggingface/transformers',
  '@lancedb/lancedb',
  'apache-arrow',
  'onnxruntime-node',
  'web-tree-sitter',
  'sharp',
];

// The version exists once, in package.json; the code reads it as `__ASKCODE_VERSION__` (protocol/seeds.ts).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  define: { __ASKCODE_VERSION__: JSON.stringify(version) },
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const builds = [
  { ...common, entryPoints: { extension: 'client/src/extension.ts' }, platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist', external: nodeExternal },
  { ...common, entryPoints: { server: 'server/src/main.ts', cli: 'server/src/cli.ts' }, platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist', external: nodeExternal },
  // The chat UI: dist/webview.js + dist/webview.css (+ the codicon font beside them) and the static
  // page in dist/webview/. The VS Code panel loads them from dist/; the bridge serves dist/webview/
  // at `/` plus `/webview.js` and `/webview.css`.
  { ...common, entryPoints: { webview: 'webview/src/main.ts' }, platform: 'browser', format: 'iife', target: 'es2022', outdir: 'dist', loader: { '.css': 'css', '.ttf': 'file' }, assetNames: '[name]' },
];

mkdirSync('dist', { recursive: true });
if (existsSync('webview/static')) cpSync('webview/static', 'dist/webview', { recursive: true });

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // In a browser the page asks for the font beside webview.css (`/codicon.ttf`), which the bridge
  // looks up in dist/webview/.
  if (existsSync('dist/codicon.ttf')) cpSync('dist/codicon.ttf', 'dist/webview/codicon.ttf');
}
