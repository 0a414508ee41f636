/**
 * Messages in code: the string literals a file prints or raises, found again in an issue that
 * pastes them. The extraction and the index alone, then the real core over a repository written
 * by the test: an issue pasting an error message ranks the file that raises it first.
 */
import { strict as assert } from 'node:assert';
import { MessageIndex, messagesOf } from '../../server/src/index/messages';
import { assertLifts, realCore, rankedFiles, searchWith } from '../helpers/core';

describe('messages in code', function () {
  this.timeout(120_000);

  it('reads the messages of string literals, each piece between placeholders on its own; not names, maths, code or the runtime\'s errors', () => {
    const code = [
      'warn("No config file found, using default configuration")',
      "raise ValueError(f'Unknown scheme {scheme!r}: expected http or https, got nothing usable')",
      'msg = "Module %s could not be imported because %s was missing"',
      'log(`cannot resolve ${id} from the importer of this module`)',
      'x = "utf-8"; y = "test session starts"; z = "is not in the"; m = "x x x x"; t = "for j in range(%s)"',
      'raise AttributeError("%r object has no attribute %r" % (self, name))',
    ].join('\n');
    assert.deepEqual(messagesOf(code).sort(), [
      'could not be imported because',
      'expected http or https got nothing usable',
      'from the importer of this module',
      'no config file found using default configuration',
    ]);
  });

  it('reads a literal none of whose pieces is a message as a template, and finds it quoted with values in its gaps (hashie)', () => {
    const code = [
      'raise NoMethodError, "The property \'#{property}\' is not defined for #{self.class.name}."',
      'fail "#{name} is required for #{owner}"',
      'x = "a %s b %s"',
    ].join('\n');
    assert.deepEqual(messagesOf(code), ['the property … is not defined for …'], 'not one that starts with a value, nor letters');
    const idx = new MessageIndex();
    idx.add('lib/hashie/dash.rb', messagesOf(code));
    assert.deepEqual(idx.find('Why do I get NoMethodError "The property \'x\' is not defined for MyDash" when I build a Dash?'), [{ message: 'the property … is not defined for …', files: ['lib/hashie/dash.rb'] }]);
    assert.deepEqual(idx.find('The property is not defined for MyDash'), [], 'a gap holds a value');
    assert.deepEqual(idx.find('The property a b c d e is not defined for MyDash'), [], 'a value of a few words at most');
    assert.deepEqual(idx.find('The property x is defined for MyDash'), []);
  });

  it('finds the messages a text holds, word for word, and forgets a removed file', () => {
    const idx = new MessageIndex();
    idx.add('a.py', ['no config file found using default configuration', 'could not be imported because']);
    idx.add('b.py', ['no config file found using default configuration']);
    const issue = 'Running pylint prints:\n```\nNo config file found, using default configuration\n```\nand then could not be parsed.';
    assert.deepEqual(idx.find(issue), [{ message: 'no config file found using default configuration', files: ['a.py', 'b.py'] }]);
    assert.deepEqual(idx.find('no config file found'), [], 'a message is found whole');
    idx.remove('a.py');
    assert.deepEqual(idx.find(issue), [{ message: 'no config file found using default configuration', files: ['b.py'] }]);
    idx.remove('b.py');
    assert.deepEqual(idx.find(issue), []);
  });

  describe('in the core', () => {
    const cores = realCore('messages');

    it('an issue that pastes an error message ranks the code that raises it first; a question is not read so', async () => {
      const { dir: repo, write } = cores.repo();
      write('src/app/cli.py', [
        'def locate_app(module_name):',
        '    try:',
        '        return import_module(module_name)',
        '    except ImportError:',
        '        raise NoAppException(',
        '            "Could not locate a Flask application. You did not provide the app option"',
        '            " and no app file was found in the current directory."',
        '        ) from None',
        '',
      ].join('\n'));
      // The issue's other words, many times over.
      write('src/app/routing.py', 'def routes_for(app, subdomain):\n    """The routes of the app for a subdomain: each route of the application with the subdomain it is served on."""\n    return [r for r in app.routes if r.subdomain == subdomain]\n');
      write('src/app/config.py', 'SERVER_NAME = None\n# The server name of the application: the domain the routes of the app are served on; each subdomain of the app is a route prefix.\n# The app option names the application file to locate; without it the current directory is searched for an app.\n');
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const issue = [
        'flask routes fails for an application with subdomain routes',
        '',
        'With SERVER_NAME set the app serves its routes on a subdomain, but listing the routes of the application fails:',
        '',
        '```',
        '$ flask routes',
        'Error: Could not locate a Flask application. You did not provide the app option and no app file was found in the current directory.',
        '```',
      ].join('\n');
      // The file raising the pasted error comes first.
      assertLifts(engine, issue, 'src/app/cli.py', { messageW: 0 }, {}, 'messages');
      // A question in prose quotes what it means with quotes (literals), not pasted output.
      const question = 'Why could the command not locate a Flask application? Did I not provide the app option?';
      assert.deepEqual(rankedFiles(engine, question), rankedFiles(engine, question, { messageW: 0 }));
    });

    it('of a file that says a quoted message, the chunk that says it comes, not the file\'s best chunk by words (hashie)', async () => {
      const { dir: repo, write } = cores.repo();
      const filler = Array.from({ length: 40 }, (_, i) => [`    def helper_${i}(value)`, `      value.to_s * ${i}`, '    end', '']).flat();
      write('lib/hashie/dash.rb', [
        'module Hashie',
        '  # A Dash is a hash with properties: each property of a Dash is defined with `property`, and',
        '  # building a Dash from a hash sets each property; a property that is not defined fails.',
        '  class Dash < Hash',
        '    def self.property(property_name, options = {})',
        '      properties << property_name',
        '    end',
        '',
        ...filler,
        '    def fail_no_property_error!(property)',
        '      raise NoMethodError, "The property \'#{property}\' is not defined for #{self.class.name}."',
        '    end',
        '  end',
        'end',
        '',
      ].join('\n'));
      write('lib/hashie/mash.rb', 'module Hashie\n  # A Mash is a hash with method access.\n  class Mash < Hash\n  end\nend\n');
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const question = 'Why do I get NoMethodError "The property \'x\' is not defined for MyDash" when I build a Dash from a hash?';
      const first = (overrides = {}) => searchWith(engine, question, overrides)[0]!.chunk;
      assert.equal(first({ messageW: 0 }).rel, 'lib/hashie/dash.rb');
      assert.ok(!first({ messageW: 0 }).text.includes('is not defined for'), 'without messages the class head is the file\'s chunk');
      assert.equal(first().rel, 'lib/hashie/dash.rb');
      assert.ok(first().text.includes('is not defined for'), first().text);
    });

    it('a number a question names counts in a chunk that says little else (EmailValidator\'s `EMAIL_MAX_LENGTH = 254`)', async () => {
      const { dir: repo, write } = cores.repo();
      write('src/EmailParser.php', '<?php\nnamespace Egulias;\n\nfinal class EmailParser\n{\n    public const EMAIL_MAX_LENGTH = 254;\n}\n');
      // The question's other words, many times over.
      write('src/Reason/DomainTooLong.php', [
        '<?php',
        'namespace Egulias\\Reason;',
        '',
        '/** An email address whose domain is longer than its characters allow is invalid: a longer address, invalid; a warning is only produced for a longer local part. */',
        'final class DomainTooLong',
        '{',
        '    /** Treated as invalid: the address is longer than allowed, so no warning is produced, only an invalid address. */',
        '    public function description(): string { return "Domain is longer than allowed, the address is invalid"; }',
        '}',
        '',
      ].join('\n'));
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const question = 'Is an email address longer than 254 characters treated as invalid, or does it only produce a warning?';
      assertLifts(engine, question, 'src/EmailParser.php', { literalW: 0 }, {}, 'literals');
    });

    it('a question that quotes a message the code puts together ("Can only specify option -x once.") ranks the code that says it first (jcommander)', async () => {
      const { dir: repo, write } = cores.repo();
      write('src/main/java/cli/ParameterDescription.java', [
        'public class ParameterDescription {',
        '  public void addValue(String value, boolean isDefault) {',
        '    if (assigned && !isMultiOption() && !isDefault) {',
        '      throw new ParameterException("Can only specify option " + name + " once.");',
        '    }',
        '    assigned = true;',
        '  }',
        '}',
        '',
      ].join('\n'));
      // The question's other words, many times over.
      write('src/main/java/cli/ArgsParser.java', [
        'public class ArgsParser {',
        '  /** Parses the command line: an option may appear twice when repeating it is allowed. */',
        '  public void parse(String... args) {',
        '    for (String option : args) { if (isOption(option)) handleOption(option); }',
        '  }',
        '}',
        '',
      ].join('\n'));
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const question = 'Why do I get "Can only specify option -x once." when the same option appears twice on the command line, and when is repeating it allowed?';
      assertLifts(engine, question, 'src/main/java/cli/ParameterDescription.java', { messageW: 0 }, {}, 'messages');
    });
  });
});
