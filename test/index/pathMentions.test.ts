/**
 * Paths an issue names: a file named outright ranks high, but a name that many files share
 * (`__init__.py`, `index.ts`) names none of them. Through the real core over a repository written
 * by the test.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { realCore, rankedFiles } from '../helpers/core';

describe('paths named in the text', function () {
  this.timeout(120_000);
  const cores = realCore('path-mentions');

  it('a file named outright comes first; a file name shared by many files lifts none of them', async () => {
    const { dir: repo, write } = cores.repo();
    for (const pkg of ['checkers', 'reporters', 'config', 'utils', 'testutils', 'extensions'])
      write(`lint/${pkg}/__init__.py`, `"""The ${pkg} package: each module of it is loaded when linting starts; a file that fails to load is an error."""\nfrom .base import *\n`);
    write('lint/expand.py', [
      'def expand_modules(files_or_modules, ignore_list):',
      '    """Take a list of files and modules and return the modules to lint.',
      '',
      '    A directory that contains a module of the same name is linted as a package."""',
      '    result = []',
      '    for something in files_or_modules:',
      '        if os.path.isdir(something) and has_same_name_module(something):',
      '            result.append(something)',
      '    return result',
      '',
    ].join('\n'));
    write('lint/parser.py', 'def parse_file(path):\n    """Parse one file into a tree."""\n    return ast.parse(open(path).read())\n');
    const core = await cores.open(repo);
    const engine = core.index.engine;
    const files = (q: string) => rankedFiles(engine, q);
    const issue = [
      'Linting fails if module contains module of the same name',
      '',
      'Given a directory a/ with a/a.py and a/b.py, all empty, running `lint a` fails:',
      '',
      '    a/__init__.py:1:0: F0010: error while code parsing: Unable to load file a/__init__.py',
      '',
      'If a/a.py is renamed, linting works. The __init__.py file does not exist.',
    ].join('\n');

    assert.match(rankedFiles(engine, issue, { maxHintFiles: 1e9 })[0]!, /__init__\.py$/, 'when every __init__.py counts as named, one of them comes first');
    assert.equal(files(issue)[0], 'lint/expand.py', files(issue).join(', '));
    // A path that names one file still lifts it, even above better words elsewhere.
    assert.equal(files('An error while parsing in lint/checkers/__init__.py')[0], 'lint/checkers/__init__.py');
  });
});
