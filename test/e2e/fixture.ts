/**
 * The workspace the e2e suite opens: a small git repository made by the test, with two authors.
 * Alice writes the session code, Bob the billing code, and both edit `src/server.ts`, so
 * "Find Related People" on that file must name both of them.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Author {
  name: string;
  email: string;
}

export const ALICE: Author = { name: 'Alice Archer', email: 'alice@example.com' };
export const BOB: Author = { name: 'Bob Builder', email: 'bob@example.com' };

/** Files the scenarios rely on. */
export const FIXTURE = {
  session: 'src/auth/session.ts',
  invoice: 'src/billing/invoice.ts',
  server: 'src/server.ts',
  readme: 'README.md',
  /** A question whose best evidence is in `session`. */
  question: 'How are session tokens validated and when do they expire?',
} as const;

const FILES: Record<string, string> = {
  'README.md': `# shopfront

A tiny shop backend used by askcode's end-to-end tests.

- \`src/auth/session.ts\`: session tokens (create, validate, expire)
- \`src/billing/invoice.ts\`: invoice totals with tax and discounts
- \`src/server.ts\`: the HTTP routes
`,
  'package.json': `{
  "name": "shopfront",
  "version": "1.0.0",
  "private": true,
  "main": "src/server.ts"
}
`,
  'src/auth/session.ts': `import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Sessions expire after this many milliseconds of inactivity. */
export const SESSION_TTL_MS = 30 * 60 * 1000;

export interface Session {
  userId: string;
  token: string;
  expiresAt: number;
}

const sessions = new Map<string, Session>();

function sign(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Creates a session token for a user: a random id plus an HMAC signature. */
export function createSession(userId: string, secret: string, now = Date.now()): Session {
  const id = randomBytes(16).toString('hex');
  const token = \`\${id}.\${sign(id, secret)}\`;
  const session = { userId, token, expiresAt: now + SESSION_TTL_MS };
  sessions.set(id, session);
  return session;
}

/**
 * Validates a session token: checks the HMAC signature in constant time, then that the
 * session exists and has not expired. A valid token slides the expiry forward.
 */
export function validateToken(token: string, secret: string, now = Date.now()): Session | undefined {
  const [id, signature] = token.split('.');
  if (!id || !signature) return undefined;
  const expected = Buffer.from(sign(id, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const session = sessions.get(id);
  if (!session || session.expiresAt <= now) {
    sessions.delete(id);
    return undefined;
  }
  session.expiresAt = now + SESSION_TTL_MS;
  return session;
}

/** Ends a session at once (logout). */
export function revokeSession(token: string): void {
  sessions.delete(token.split('.')[0]);
}
`,
  'src/billing/invoice.ts': `export interface LineItem {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Invoice {
  items: LineItem[];
  taxRate: number;
  discountCents?: number;
}

/** Sum of the line items before tax and discount, in cents. */
export function subtotal(invoice: Invoice): number {
  return invoice.items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
}

/** The amount to charge: subtotal minus discount, plus tax on the discounted amount, rounded. */
export function computeInvoiceTotal(invoice: Invoice): number {
  const discounted = Math.max(0, subtotal(invoice) - (invoice.discountCents ?? 0));
  return Math.round(discounted * (1 + invoice.taxRate));
}
`,
};

const SERVER_V1 = `import { createServer } from 'node:http';
import { createSession, validateToken } from './auth/session';

const SECRET = process.env.SHOP_SECRET ?? 'dev-secret';

export const server = createServer((req, res) => {
  if (req.url === '/login') {
    const session = createSession('demo-user', SECRET);
    res.setHeader('set-cookie', \`session=\${session.token}; HttpOnly\`);
    res.end('ok');
    return;
  }
  const token = /session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
  if (!validateToken(token, SECRET)) {
    res.statusCode = 401;
    res.end('login first');
    return;
  }
  res.end('hello');
});
`;

const SERVER_V2 = SERVER_V1.replace(
  "import { createSession, validateToken } from './auth/session';",
  "import { createSession, validateToken } from './auth/session';\nimport { computeInvoiceTotal } from './billing/invoice';",
).replace(
  "  res.end('hello');",
  `  if (req.url === '/checkout') {
    const total = computeInvoiceTotal({ items: [{ sku: 'book', quantity: 2, unitPriceCents: 1250 }], taxRate: 0.2 });
    res.end(JSON.stringify({ totalCents: total }));
    return;
  }
  res.end('hello');`,
);

function write(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function commit(root: string, who: Author, date: string, message: string, files: string[]): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_COMMITTER_DATE: date,
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: root,
      env,
      stdio: 'pipe',
    });
  git('add', '--', ...files);
  git('commit', '-q', '-m', message);
}

/** Creates the fixture repository in `root` (which must not exist or be empty). */
export function createFixtureWorkspace(root: string): void {
  fs.mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, stdio: 'pipe' });
  for (const [rel, text] of Object.entries(FILES)) write(root, rel, text);
  write(root, FIXTURE.server, SERVER_V1);
  commit(root, ALICE, '2025-03-01T10:00:00Z', 'Sessions: signed tokens with sliding expiry', [
    'README.md', 'package.json', FIXTURE.session, FIXTURE.server,
  ]);
  commit(root, BOB, '2025-03-08T15:30:00Z', 'Billing: invoice totals with tax and discounts', [FIXTURE.invoice]);
  write(root, FIXTURE.server, SERVER_V2);
  commit(root, BOB, '2025-03-09T09:15:00Z', 'Server: checkout route', [FIXTURE.server]);
}
