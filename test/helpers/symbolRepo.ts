import { execFileSync } from 'node:child_process';
import { fileWriter } from './files';

/** A small real repository in two languages, with a test file, comments and strings that name symbols. */
export function makeSymbolRepo(dir: string): void {
  const w = fileWriter(dir);
  w('src/router/trie.ts', [
    "export const METHOD_NAME_ALL = 'ALL'",
    '',
    'export class TrieRouter {',
    '  routes: string[] = []',
    '  add(method: string, path: string): void {',
    '    this.routes.push(method + path)',
    '  }',
    '  match(method: string, path: string): string | undefined {',
    '    return this.routes.find((r) => r === method + compilePattern(path))',
    '  }',
    '  onError = (err: Error) => {',
    '    throw err',
    '  }',
    '}',
    '',
    'export function compilePattern(pattern: string): string {',
    "  return pattern.replace(/:\\w+/g, '*')",
    '}',
    '',
    'export interface RouterOptions {',
    '  strict: boolean',
    '}',
    '',
  ].join('\n'));
  w('src/app.ts', [
    "import { TrieRouter, compilePattern } from './router/trie'",
    '',
    '// compilePattern is cached by the router',
    'export function handle(url: string): string | undefined {',
    '  const router = new TrieRouter()',
    "  const label = 'compilePattern(url) would be wrong here'",
    "  return router.match('GET', compilePattern(url)) ?? label",
    '}',
    '',
  ].join('\n'));
  w('src/app.test.ts', "import { compilePattern } from './router/trie'\ntest('pattern', () => expect(compilePattern('/a/:id')).toBe('/a/*'))\n");
  w('pkg/app.py', [
    'MAX_CONTENT_LENGTH = 16',
    '',
    '',
    'class Flask:',
    '    """The application object."""',
    '',
    '    def handle_exception(self, e):',
    '        """Turn an unhandled exception into a 500 response."""',
    '        return 500',
    '',
    '    def full_dispatch_request(self):',
    '        try:',
    '            return self.dispatch()',
    '        except Exception as e:',
    '            # handle_exception logs it first',
    '            return self.handle_exception(e)',
    '',
    '    def dispatch(self):',
    '        return "handle_exception is not called here"',
    '',
    '',
    'def make_app():',
    '    app = Flask()',
    '    hook = app.handle_exception',
    '    return app, hook',
    '',
  ].join('\n'));
  w('tests/test_app.py', 'from pkg.app import Flask\n\n\ndef test_handle_exception():\n    assert Flask().handle_exception(ValueError()) == 500\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
}

