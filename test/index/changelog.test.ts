/**
 * Change logs and release notes name every feature, seldom where it is done: through the real core
 * over a repository written by the test, the code comes before the change log that repeats its
 * words, unless the question is about the changes themselves; code named like a change log is code.
 */
import { strict as assert } from 'node:assert';
import { isChangelogPath } from '../../server/src/index/languages';
import { realCore, rankedFiles } from '../helpers/core';

describe('change logs', function () {
  this.timeout(120_000);

  it('knows change logs and release notes by their paths', () => {
    for (const p of ['CHANGES.rst', 'CHANGELOG.md', 'packages/vite/CHANGELOG.md', 'HISTORY.md', 'doc/en/changelog.rst', 'doc/whatsnew/2/2.1/full.rst', 'changelog/1234.bugfix.rst', 'doc/changes/7.2.rst', 'RELEASE_NOTES.md', 'NEWS', 'docs/releases/4.2.txt', 'doc/whats_new/v1.3.rst', 'doc/whats-new.rst', 'doc/users/prev_whats_new/whats_new_3.5.0.rst', 'doc/api/next_api_changes/behavior/123-AB.rst', 'doc/en/announce/release-2.5.0.rst',
      '.changeset/brave-dogs-sing.md', 'packages/react-router/.changes/patch.schemeful-action-origins.md',
      // Release announcements on a docs site: vite's docs/blog/announcing-vite5-1.md.
      'docs/blog/announcing-vite5-1.md', 'website/blog/2024-01-01-v2.mdx'])
      assert.ok(isChangelogPath(p), p);
    for (const p of ['src/retry.py', 'docs/history_of_the_api_design_choices.md', 'src/changeset.ts', 'docs/news-feed.md', 'docs/release-process.rst', 'docs/howto/deployment.txt', 'docs/guide/blogging.md']) assert.ok(!isChangelogPath(p), p);
  });

  describe('in the core', () => {
    const cores = realCore('changelog');

    it('the code comes before the change log that repeats its words, unless the question asks what changed', async () => {
      const { dir: repo, write } = cores.repo();
      write('src/net/backoff.py', 'def wait_time(attempt):\n    """Seconds to wait before the next attempt, with jitter."""\n    return min(60, 2 ** attempt) * random()\n');
      // The change log says the same words, more often: on words alone it wins.
      const entries = ['Retry attempts now use exponential backoff with jitter.', 'Fixed the jitter of the retry backoff for the first attempt.', 'Backoff between retry attempts is capped at sixty seconds.', 'The jitter of each retry backoff is now computed per attempt.'];
      write('CHANGES.rst', `Changes\n=======\n\nVersion 2.0\n-----------\n\n${entries.map((e) => `- ${e}`).join('\n')}\n`);
      // Code named like a change log is code.
      write('src/builders/changes.py', 'def changes_page(entries):\n    """Render the page listing the changes between versions."""\n    return "\\n".join(entries)\n');
      const core = await cores.open(repo);
      const engine = core.index.engine;
      const files = (q: string) => rankedFiles(engine, q);
      const question = 'How is the backoff between retry attempts computed with jitter?';

      assert.equal(rankedFiles(engine, question, { changelogFactor: 1 })[0], 'CHANGES.rst', 'without the factor the change log wins on words');
      assert.equal(files(question)[0], 'src/net/backoff.py');
      assert.equal(files('What changed in version 2.0 about the retry backoff and jitter?')[0], 'CHANGES.rst', 'a question about the changes wants the change log');
      assert.equal(files('How is the page listing the changes between versions rendered?')[0], 'src/builders/changes.py');
    });
  });
});
