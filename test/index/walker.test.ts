/** The folder walk (index/walker.ts): ignore files, settings, size limits, what is never indexed. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walk, skippedByName, unindexableReason, isBuiltScript, DEFAULT_MAX_FILE_SIZE } from '../../server/src/index/walker';

function tree(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'askcode-walk-'));
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), body);
  }
  return root;
}

describe('index/walker', () => {
  const roots: string[] = [];
  after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
  const make = (files: Record<string, string | Buffer>) => {
    const r = tree(files);
    roots.push(r);
    return r;
  };

  it('honours .gitignore at every level and .ignore, and never walks .git or node_modules', async () => {
    const root = make({
      '.gitignore': 'build/\n*.log\n',
      'src/a.ts': 'export const a = 1;\n',
      'src/.gitignore': 'gen/\n',
      'src/gen/x.ts': 'x\n',
      'build/out.js': 'x\n',
      'debug.log': 'x\n',
      '.ignore': 'docs/private.md\n',
      'docs/private.md': '# no\n',
      'docs/public.md': '# yes\n',
      '.git/config': '[core]\n',
      'node_modules/p/index.js': 'x\n',
    });
    const found = (await walk(root, { maxFileSize: DEFAULT_MAX_FILE_SIZE })).map((f) => f.rel).sort();
    assert.deepEqual(found.filter((f) => !f.endsWith('ignore')), ['docs/public.md', 'src/a.ts']);
  });

  it('applies the exclude setting and the size limit, and tells why a file was skipped', async () => {
    const root = make({ 'a.py': 'x = 1\n', 'vendor/b.py': 'y = 2\n', 'big.py': 'z'.repeat(5000) });
    const skipped: [string, string][] = [];
    const found = await walk(root, { maxFileSize: 1024, exclude: ['vendor/'], onSkip: (rel, reason) => skipped.push([rel, reason]) });
    assert.deepEqual(found.map((f) => f.rel).filter((f) => f.endsWith('.py')), ['a.py']);
    assert.deepEqual(skipped, [['big.py', 'too_large']]);
    const a = found.find((f) => f.rel === 'a.py')!;
    assert.equal(a.abs, path.join(root, 'a.py'));
    assert.equal(a.size, 6);
  });

  it('a bundle with its source map beside it is built, not indexed; the sources it was built from are', async () => {
    // axios commits `dist/axios.js` and `dist/axios.js.map` beside `lib/`: readable bundles, each function again.
    const bundle = '// Lib v1.0\n(function () {\n  function settle(resolve, reject, response) {\n    resolve(response);\n  }\n})();\n';
    const root = make({
      'lib/core/settle.js': 'export default function settle(resolve, reject, response) {\n  resolve(response);\n}\n',
      'dist/lib.js': bundle,
      'dist/lib.js.map': '{"version":3}',
      'dist/node/lib.cjs': bundle,
      'dist/node/lib.cjs.map': '{"version":3}',
      'dist/types.d.ts': 'export declare function settle(): void;\n',
      'docs/theme.css': 'body { color: red; }\n',
      'docs/theme.css.map': '{"version":3}',
      'src/app.js': 'console.log(1);\n',
      'src/app.json.map': '{}',
    });
    const skipped: [string, string][] = [];
    const found = (await walk(root, { maxFileSize: DEFAULT_MAX_FILE_SIZE, onSkip: (rel, reason) => skipped.push([rel, reason]) })).map((f) => f.rel).sort();
    assert.deepEqual(found, ['dist/types.d.ts', 'lib/core/settle.js', 'src/app.js']);
    assert.deepEqual(skipped.sort(), [['dist/lib.js', 'built'], ['dist/node/lib.cjs', 'built'], ['docs/theme.css', 'built']]);
    // One file's event asks the disk the same.
    assert.equal(await isBuiltScript(path.join(root, 'dist', 'lib.js')), true);
    assert.equal(await isBuiltScript(path.join(root, 'src', 'app.js')), false);
    assert.equal(await isBuiltScript(path.join(root, 'dist', 'lib.js.map')), false);
  });

  it('a script in a build\'s folder with a minified twin is built; a script at the top with one is the source (js-yaml)', async () => {
    const bundle = '/*! lib 4.1.1 */\n(function (global, factory) {\n  factory(global);\n})(this, function (exports) {\n  function load(input) {\n    return input;\n  }\n});\n';
    const root = make({
      'lib/loader.js': 'function load(input) {\n  return input;\n}\nmodule.exports = { load };\n',
      'dist/js-yaml.js': bundle,
      'dist/js-yaml.mjs': bundle,
      'dist/js-yaml.min.js': bundle,
      'umd/other.js': bundle,
      'underscore.js': bundle,
      'underscore-min.js': bundle,
    });
    const skipped: [string, string][] = [];
    const found = (await walk(root, { maxFileSize: DEFAULT_MAX_FILE_SIZE, onSkip: (rel, reason) => skipped.push([rel, reason]) })).map((f) => f.rel).sort();
    assert.deepEqual(found, ['lib/loader.js', 'umd/other.js', 'underscore.js']);
    assert.deepEqual(skipped.sort(), [['dist/js-yaml.js', 'built'], ['dist/js-yaml.mjs', 'built']]);
    assert.equal(await isBuiltScript(path.join(root, 'dist', 'js-yaml.mjs')), true);
    assert.equal(await isBuiltScript(path.join(root, 'underscore.js')), false);
  });

  it('lock files, minified bundles and binaries are not text worth indexing', () => {
    assert.equal(skippedByName('package-lock.json'), true);
    assert.equal(skippedByName('dist/app.min.js'), true);
    assert.equal(skippedByName('src/app.ts'), false);
    assert.equal(unindexableReason(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1])), 'binary');
    assert.equal(unindexableReason(Buffer.from('const a = 1;\n')), null);
    assert.equal(unindexableReason(Buffer.from('x'.repeat(20_000))), 'minified');
  });

  it('a script minified into lines of hundreds of characters is not indexed; prose with long lines is', () => {
    assert.equal(skippedByName('static/js/prettify-min.js'), true);
    assert.equal(skippedByName('static/css/theme-min.css'), true);
    assert.equal(skippedByName('vendor/lib.min.mjs'), true);
    assert.equal(skippedByName('src/admin.js'), false);
    assert.equal(skippedByName('src/min.js'), false);
    // prettify-min.js: about 30 lines of 500 characters, none past 1,000.
    const wrapped = Array.from({ length: 30 }, (_, i) => `var a${i}=function(b){return b.replace(/x/g,"y")};`.repeat(11)).join('\n');
    assert.equal(unindexableReason(Buffer.from(wrapped), 'static/js/prettify.js'), 'minified');
    assert.equal(unindexableReason(Buffer.from(wrapped), 'docs/guide.md'), null);
    assert.equal(unindexableReason(Buffer.from(wrapped)), null);
    const code = Array.from({ length: 200 }, (_, i) => `export const value${i} = compute(${i}, 'a longer argument to look like code');`).join('\n');
    assert.equal(unindexableReason(Buffer.from(code), 'src/values.js'), null);
  });
});
