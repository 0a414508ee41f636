import { strict as assert } from 'node:assert';
import { rankPlaces } from '../../server/src/qgpt/extractive';
import { hintsRules } from '../../server/src/qgpt/hints';
import type { Passage } from '../../server/src/qgpt/seeds';

const passage = (index: number, path: string, text: string): Passage => ({ index, path, startLine: 1, text, language: 'ts', entry: {} });

const SESSION = [
  "import { createHmac } from 'node:crypto';",
  '',
  '/** Creates a session token for a user. */',
  'export function createSession(userId: string) {',
  '  return { userId, token: sign(userId) };',
  '}',
  '',
  '/** Checks the signature, then that the session has not expired. */',
  'export function validateToken(token: string, now = Date.now()) {',
  '  const session = sessions.get(token);',
  '  if (!session || session.expiresAt <= now) return undefined;',
  '  return session;',
  '}',
].join('\n');

describe('extractive answerer: matching question words to code', () => {
  it('matches inflected words to identifiers by stem ("validated" ~ validateToken, "expire" ~ expiresAt) and quotes that place', () => {
    const [best] = rankPlaces('How are session tokens validated and when do they expire?', [
      passage(0, 'README.md', '# shop\nA small shop with sessions.'),
      passage(1, 'src/auth/session.ts', SESSION),
    ]);
    assert.equal(best.passage.path, 'src/auth/session.ts');
    for (const w of ['session', 'tokens', 'validated', 'expire']) assert.ok(best.matched.includes(w), `matched ${w}: ${best.matched.join(', ')}`);
    assert.ok(best.quote.some((l) => l.includes('validateToken')), `the quote shows validateToken:\n${best.quote.join('\n')}`);
  });

  it('words that only frame the question ("what happens", "mechanism") count little: the place about the thing asked wins', () => {
    const places = rankPlaces('What happens when a view raises an exception?', [
      passage(0, 'src/request.ts', '// What happens to the view args when matching the URL gives an exception.\nexport const viewArgs: string[] | null = null;'),
      passage(1, 'src/app.ts', '/** Called when a view raises: turns the exception into an error response. */\nexport function handleException(view: string, exception: Error) {\n  throw exception;\n}'),
    ]);
    assert.equal(places[0]!.passage.path, 'src/app.ts', places.map((p) => `${p.passage.path} ${p.score}`).join('; '));
  });

  it('does not match unrelated words that only share a prefix', () => {
    const [only] = rankPlaces('Where is the validation schema?', [passage(0, 'src/x.ts', 'const value = 1;\nexport const schemaVersion = 2;')]);
    assert.ok(!only.matched.includes('validation'), only.matched.join(', '));
  });
});

describe('hints without a model', () => {
  it('asks where functions are called and where constants and types are used; documents get file-level hints only', () => {
    const code: Passage = { ...passage(0, 'src/auth/session.ts', SESSION), symbol: 'SESSION_TTL_MS, Session', retrieval: 1 };
    const doc: Passage = { ...passage(1, 'README.md', '# shopfront\n\nA tiny shop.'), language: 'markdown', symbol: 'shopfront', retrieval: 0.9 };
    const hints = hintsRules([code, doc], 'How are sessions validated?').map((x) => x.text);
    assert.ok(hints.length >= 3 && hints.length <= 5, hints.join(' | '));
    assert.ok(hints.includes('Where is `SESSION_TTL_MS` used?'), hints.join(' | '));
    assert.ok(!hints.some((x) => /SESSION_TTL_MS` called|`Session` called/.test(x)), hints.join(' | '));
    assert.ok(!hints.some((x) => x.includes('`shopfront`')), `no symbol hints from a document: ${hints.join(' | ')}`);
  });
});
