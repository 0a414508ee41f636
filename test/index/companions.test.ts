/**
 * Companion files: a source file and the tests named after it, a file and its same-named siblings.
 * The relation by paths alone, then the real core over a repository written by the test: a question
 * whose best file is the code also gets the test the question found only weakly, and never a
 * companion the question did not find at all.
 */
import { strict as assert } from 'node:assert';
import type { Core } from '../../server/src/core/core';
import { Companions, declaredIds } from '../../server/src/index/companions';
import { isTestPath } from '../../server/src/index/languages';
import { DEFAULT_RANK } from '../../server/src/index/searchEngine';
import { assertLifts, realCore, rankedFiles } from '../helpers/core';

function companionsOf(files: string[], of: string): string[] {
  const c = new Companions();
  for (const f of files) c.add(f, f, isTestPath(f));
  return c.of(of).sort();
}

describe('companion files', function () {
  this.timeout(120_000);

  it('pairs a source file with the tests named after it, and files with their same-named siblings', () => {
    const files = [
      'src/flask/json/tag.py', 'src/flask/json/__init__.py', 'tests/test_json_tag.py', 'tests/test_json.py',
      'pylint/utils/ast_walker.py', 'tests/utils/unittest_ast_walker.py',
      'src/router.ts', 'src/router.test.ts', 'lib/Parser.java', 'test/ParserTest.java', 'mypy/stubinfo.py', 'mypy/test/teststubinfo.py', 'mypy/test/testing.py',
      'tests/functional/a/abstract_method.py', 'tests/functional/a/abstract_method.txt', 'tests/functional/a/other.py',
    ];
    assert.deepEqual(companionsOf(files, 'src/flask/json/tag.py'), ['tests/test_json_tag.py']);
    assert.deepEqual(companionsOf(files, 'tests/test_json_tag.py'), ['src/flask/json/tag.py']);
    assert.deepEqual(companionsOf(files, 'src/flask/json/__init__.py'), ['tests/test_json.py'], 'a package file goes by its folder');
    assert.deepEqual(companionsOf(files, 'tests/utils/unittest_ast_walker.py'), ['pylint/utils/ast_walker.py']);
    assert.deepEqual(companionsOf(files, 'src/router.ts'), ['src/router.test.ts']);
    assert.deepEqual(companionsOf(files, 'mypy/test/teststubinfo.py'), ['mypy/stubinfo.py'], "mypy's tests are named test<module>.py");
    assert.deepEqual(companionsOf(files, 'mypy/stubinfo.py'), ['mypy/test/teststubinfo.py']);
    assert.deepEqual(companionsOf(files, 'lib/Parser.java'), ['test/ParserTest.java']);
    assert.deepEqual(companionsOf(files, 'tests/functional/a/abstract_method.py'), ['tests/functional/a/abstract_method.txt']);
    assert.deepEqual(companionsOf(files, 'tests/functional/a/other.py'), [], 'a test file is no companion of another test');
  });

  it("a linter's functional test brings the file declaring the message it is named after, not the other way round", () => {
    const c = new Companions();
    const checker = 'lint/checkers/special_methods.py';
    c.add(checker, checker, false, declaredIds('msgs = {"E0302": ("bad", "unexpected-special-method-signature", "…"), "E0303": ("x", "invalid-length-returned", "…")}'));
    for (const t of ['tests/functional/u/unexpected_special_method_signature.py', 'tests/functional/i/invalid_length_returned_py38.py', 'tests/functional/o/other_check.py']) c.add(t, t, true);
    c.add('lint/checkers/other.py', 'lint/checkers/other.py', false, declaredIds("MSG = 'utf-8'; NAME = 'other-thing-here'"));
    assert.deepEqual(c.of('tests/functional/u/unexpected_special_method_signature.py'), [checker]);
    assert.deepEqual(c.of('tests/functional/i/invalid_length_returned_py38.py'), [checker], 'a version suffix names the same message');
    assert.deepEqual(c.of('tests/functional/o/other_check.py'), []);
    assert.deepEqual(c.of(checker), [], 'a checker declares dozens of messages: it brings none of their tests');
    assert.deepEqual(declaredIds(`"utf-8" 'no-member' "a-b" "Not-an-id" '--rcfile'`), ['no_member']);
    assert.deepEqual(c.declaring('unexpected_special_method_signature'), [checker], 'the files declaring an id, not its tests');
    assert.deepEqual(c.declaring('unexpected_special_method'), []);
    for (const f of ['a', 'b', 'c', 'd']) c.add(`lint/${f}.py`, `lint/${f}.py`, false, ['everywhere_id']);
    assert.deepEqual(c.declaring('everywhere_id'), [], 'an id four files declare says nothing');
  });

  it('a name too common to point anywhere gives no companion; removed files leave their groups', () => {
    const many = ['a', 'b', 'c', 'd', 'e', 'f'].map((d) => `pkg/${d}/utils.py`);
    assert.deepEqual(companionsOf([...many, 'tests/test_utils.py'], 'tests/test_utils.py'), []);
    assert.deepEqual(companionsOf([...many.slice(0, 2), 'tests/test_utils.py'], 'tests/test_utils.py'), many.slice(0, 2));
    const c = new Companions();
    c.add('src/cart.py', 'src/cart.py', false);
    c.add('tests/test_cart.py', 'tests/test_cart.py', true);
    c.remove('tests/test_cart.py');
    assert.deepEqual(c.of('src/cart.py'), []);
  });

  describe('in the core', () => {
    const cores = realCore('companions');
    const engineOf = async (repo: string, data: string) => (await cores.open(repo, data)).index.engine;

    it("a question's best source file brings the test named after it into the top files; an unrelated companion stays out", async () => {
      const { dir: repo, write } = cores.repo();
      write('src/shop/cart.py', 'class Cart:\n    def redeem(self, coupon):\n        """A coupon discount lowers the cart total."""\n        self.total -= coupon.discount\n');
      for (const name of ['pricing', 'orders', 'invoices', 'refunds', 'receipts']) {
        write(`src/shop/${name}.py`, `def ${name}_summary(x):\n    """The ${name} of a cart: its total, lowered by a coupon discount."""\n    return x\n`);
      }
      write('tests/test_shop_cart.py', 'def test_expired():\n    """An expired coupon does not lower the shopping cart total: no discount."""\n    assert refuse()\n');
      // Named after the cart too, but only its path shares a word with the question.
      write('tests/test_cart.py', 'def test_empty():\n    assert build().empty\n');
      const engine = await engineOf(repo, 'data');
      const question = 'How does a coupon discount lower the total of the shopping cart?';
      const without = rankedFiles(engine, question, { companionW: 0 });
      assert.equal(without[0], 'src/shop/cart.py');
      assert.ok(without.indexOf('tests/test_shop_cart.py') > 3, `without companions the test is far down: ${without}`);

      const withC = rankedFiles(engine, question);
      assert.equal(withC[0], 'src/shop/cart.py');
      assert.equal(withC[1], 'tests/test_shop_cart.py', `the cart's test comes next: ${withC}`);
      const lifted = engine.search(question).hits.find((h) => h.chunk.rel === 'tests/test_shop_cart.py')!;
      assert.ok(Math.abs(lifted.score - DEFAULT_RANK.companionW) < 1e-9, `lifted to companionW of the cart's score: ${lifted.score}`);
      assert.equal(withC.indexOf('tests/test_cart.py'), without.indexOf('tests/test_cart.py'), `a companion the question hardly found stays where it was: ${withC}`);

      // A commit message is no question: its answers are not tests, nothing is lifted.
      const commit = 'Apply coupon discount to shopping cart total';
      assert.deepEqual(rankedFiles(engine, commit), rankedFiles(engine, commit, { companionW: 0 }));
    });

    it("a question whose best file is a linter's functional test brings the checker that declares its message", async () => {
      const { dir: repo, write } = cores.repo('lint');
      write('lint/checkers/special_methods.py', [
        'class SpecialMethodsChecker:',
        '    """Special methods such as the deep copy hook take the parameters their protocol passes: an extra one, never passed, is reported."""',
        '    msgs = {',
        '        "E0302": ("The special method %r expects %s value(s), %d given", "unexpected-special-method-signature",',
        '                  "Emitted when a special method was defined with an invalid number of parameters."),',
        '    }',
        '',
        '    def visit_functiondef(self, node):',
        '        expected = SPECIAL_METHOD_ARITY.get(node.name)',
        '        if expected is not None and len(node.args) != expected:',
        '            self.add_message("unexpected-special-method-signature", node=node)',
        '',
      ].join('\n'));
      for (const name of ['formatting', 'imports', 'variables', 'exceptions', 'naming']) {
        write(`lint/checkers/${name}.py`, `class ${name.toUpperCase()}Checker:\n    """Checks ${name}: a hook for each node gives an extra pass over the module's protocol, which never gives a functional parameter twice."""\n    msgs = {"W9${name.length}": ("bad ${name}", "bad-${name}-found", "Emitted for ${name}.")}\n`);
      }
      write('tests/functional/u/unexpected_special_method_signature.py', [
        'class DeepCopy:',
        '    def __deepcopy__(self, memo, extra):  # [unexpected-special-method-signature]',
        '        """A deep copy hook with an extra parameter."""',
        '        return self',
        '',
      ].join('\n'));
      write('tests/functional/u/unexpected_special_method_signature.txt', 'unexpected-special-method-signature:2:4:2:20:DeepCopy.__deepcopy__:The special method __deepcopy__ expects 1 param(s), 2 were given\n');
      const engine = await engineOf(repo, 'lint-data');
      const question = 'Why does the functional test give a deep copy hook an extra parameter that the protocol never passes?';
      const without = rankedFiles(engine, question, { companionW: 0 });
      const withC = rankedFiles(engine, question);
      const checker = 'lint/checkers/special_methods.py';
      assert.equal(without[0], 'tests/functional/u/unexpected_special_method_signature.py');
      assert.ok(without.indexOf(checker) > 4, `without companions the checker is below the others: ${without}`);
      assert.equal(withC[0], without[0]);
      assert.ok(withC.indexOf(checker) >= 1 && withC.indexOf(checker) <= 2, `the checker declaring the test's message comes next to it: ${withC}`);
      // The other way round nothing moves: a checker declares dozens of messages.
      const forChecker = 'Which special methods does the checker report for the parameters their protocol passes?';
      const lifted = rankedFiles(engine, forChecker);
      const plain = rankedFiles(engine, forChecker, { companionW: 0 });
      assert.equal(plain[0], checker);
      assert.equal(lifted.indexOf('tests/functional/u/unexpected_special_method_signature.py'), plain.indexOf('tests/functional/u/unexpected_special_method_signature.py'), `${plain} / ${lifted}`);
    });

    it('a question that writes a message id as words ("the unused variable checker") lifts the file declaring it', async () => {
      const { dir: repo, write } = cores.repo('lint-ids');
      write('lint/checkers/variables.py', [
        'class VariablesChecker:',
        '    # The analysis of each function.',
        '    msgs = {"W0612": ("Unused variable %r", "unused-variable", "Emitted when a local is assigned and never read.")}',
        '',
        '    def leave_functiondef(self, node):',
        '        for name, stmts in node.locals.items():',
        '            if not self._is_read(name, stmts):',
        '                self.add_message("unused-variable", args=name, node=stmts[0])',
        '',
      ].join('\n'));
      write('lint/checkers/handlers.py', 'class HandlersChecker:\n    """Sibling handlers of one try block."""\n');
      write('lint/checkers/refactoring.py', 'class RefactoringChecker:\n    """Sibling branches and the analysis of each variable a branch assigns."""\n');
      const engine = (await cores.open(repo, 'lint-ids-data')).index.engine;
      const question = 'How do sibling exception handlers affect the unused variable checker analysis?';
      // Without the file's folder and name as two of its words ("variable checker"), which lift it too.
      // The checker declaring "unused-variable" comes first.
      assertLifts(engine, question, 'lint/checkers/variables.py', { declaredIdW: 0, phraseW: 0 }, { phraseW: 0 }, 'the declared id');
      // A commit message is not read so ("lambda-edge" in one is a package a config file names).
      const commit = 'Fix the unused variable checker for sibling exception handlers';
      assert.deepEqual(rankedFiles(engine, commit), rankedFiles(engine, commit, { declaredIdW: 0 }));
    });
  });
});
