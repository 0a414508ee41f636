// Bundles the extension, the worker, the CLI and the webview into dist/.
// Native or WASM-loading packages stay external: they are shipped in node_modules.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, existsSync } from 'node:fs';

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

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const builds = [
  { ...common, entryPoints: { extension: 'client/src/extension.ts' }, platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist', external: nodeExternal },
  { ...common, entryPoints: { server: 'server/src/main.ts', cli: 'server/src/cli.ts' }, platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist', external: nodeExternal },
  { ...common, entryPoints: { webview: 'webview/src/main.ts' }, platform: 'browser', format: 'iife', target: 'es2022', outdir: 'dist', loader: { '.css': 'css' } },
];

mkdirSync('dist', { recursive: true });
if (existsSync('webview/static')) cpSync('webview/static', 'dist/webview', { recursive: true });

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
