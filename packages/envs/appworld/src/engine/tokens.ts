// JWT-shaped access tokens, as AppWorld issues them: HS256 over {"sub": "<app>+<username>", "exp": …}.
import { createHmac, timingSafeEqual } from 'node:crypto';

// A fixed secret: tokens only have to be unforgeable by the agent, not secret across machines.
const SECRET = 'diffworld-appworld-token-secret';
const TOKEN_LIFETIME_S = 7 * 24 * 3600;

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

function sign(data: string): string {
  return createHmac('sha256', SECRET).update(data).digest('base64url');
}

export function issueToken(app: string, username: string, nowIso: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const exp = Math.floor(Date.parse(nowIso + 'Z') / 1000) + TOKEN_LIFETIME_S;
  const payload = b64url(JSON.stringify({ sub: `${app}+${username}`, exp }));
  return `${header}.${payload}.${sign(`${header}.${payload}`)}`;
}

/** The username the token was issued to for `app`, or null when it is malformed, forged, expired or for another app. */
export function verifyToken(token: string, app: string, nowIso: string): string | null {
  if (token.length > 1000) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  const expected = Buffer.from(sign(`${h}.${p}`));
  const got = Buffer.from(s);
  if (expected.length !== got.length || !timingSafeEqual(expected, got)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { sub, exp } = (payload ?? {}) as { sub?: unknown; exp?: unknown };
  if (typeof sub !== 'string' || typeof exp !== 'number') return null;
  if (exp * 1000 < Date.parse(nowIso + 'Z')) return null;
  const prefix = `${app}+`;
  return sub.startsWith(prefix) ? sub.slice(prefix.length) : null;
}
