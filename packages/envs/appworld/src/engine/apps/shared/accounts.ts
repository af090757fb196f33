// The account block most apps share (show_account, signup, …, login, logout, show_profile).
import { createHash } from 'node:crypto';
import { declarer, me, ok, str, optStr } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { row, select, type DbHolder } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../../types.js';
import { users, type AccountRow, type UserRow } from './rows.js';

export type { UserRow } from './rows.js';

/** A user with their account in one app: the password, when they registered, whether verified. */
type AccountUser = UserRow & Pick<AccountRow, 'password' | 'created_at' | 'verified'>;
const accountUsers = select<AccountUser>('SELECT u.*, a.password, a.created_at, a.verified FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = ?');

/** The user whose login name is `username` in `app` (phone logs in by phone number), if they have an account. */
export function accountUser(ctx: DbHolder, app: string, username: string): AccountUser | undefined {
  const col = app === 'phone' ? 'phone_number' : 'email';
  return accountUsers.one(ctx, `WHERE u.${col} = ?`, app, username);
}

export function userById(ctx: DbHolder, id: number): UserRow | undefined {
  return users.byId(ctx, id);
}

export function userByEmail(ctx: DbHolder, email: string): UserRow | undefined {
  return users.one(ctx, 'WHERE email = ?', email);
}

/** A deterministic 6-digit code per (app, user, purpose): sent "by email", never shown to the agent. */
function code(app: string, email: string, purpose: string): string {
  return String(parseInt(createHash('sha256').update(`${app}:${email}:${purpose}`).digest('hex').slice(0, 8), 16) % 1_000_000).padStart(6, '0');
}

/** What an app adds to its show_account answer (spotify: is_premium; amazon: is_prime; venmo: balance and friend count), with its response shape. */
export interface AccountExtras {
  response: Record<string, Json>;
  view(ctx: ApiContext, userId: number): Record<string, Json>;
  /** What show_profile adds about the viewed user (venmo: friends_since, relative to the caller). */
  profile?: { response: Record<string, Json>; view(ctx: ApiContext, userId: number): Record<string, Json> };
}

export function accountApis(app: string, { verification, profileAuth = false, extras }: { verification: boolean; profileAuth?: boolean; extras?: AccountExtras }): ApiDef[] {
  const def = declarer(app);
  const byPhone = app === 'phone';
  const idField = byPhone ? 'phone_number' : 'email';
  const ident = (o: { desc?: string } = {}) => req.str(idField, byPhone ? o : { ...o, constraints: EMAIL });
  const apis: ApiDef[] = [
    // AppWorld's UserResponse: a verified flag only in apps that verify accounts (not phone or gmail); logins are not recorded (a login would otherwise change the database), so last_logged_in is the registration time.
    def(
      'show_account',
      {
        description: 'Show your account information. Unlike show_profile, this includes private information.',
        response: {
          first_name: 'string',
          last_name: 'string',
          [idField]: byPhone ? 'string' : 'user@example.com',
          registered_at: '2019-01-01T00:00:00',
          last_logged_in: '2019-01-01T00:00:00',
          ...(verification ? { verified: true } : {}),
          ...extras?.response,
        },
      },
      (ctx) => {
        const u = row<UserRow & Pick<AccountRow, 'created_at' | 'verified'>>(
          ctx,
          'SELECT u.*, a.created_at, a.verified FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = ? WHERE u.id = ?',
          app,
          me(ctx),
        );
        if (!u) throw new ApiError(401, `You are either not authorized to access this ${app} API endpoint or your access token is missing, invalid or expired.`);
        return {
          first_name: u.first_name,
          last_name: u.last_name,
          [idField]: byPhone ? u.phone_number : u.email,
          registered_at: u.created_at,
          last_logged_in: u.created_at,
          ...(verification ? { verified: u.verified === 1 } : {}),
          ...extras?.view(ctx, u.id),
        } as Json;
      },
    ),
    def(
      'signup',
      {
        auth: false,
        description: 'Sign up to create account.',
        params: [
          req.str('first_name', { constraints: [{ kind: 'minLength', value: 1 }] }),
          req.str('last_name', { constraints: [{ kind: 'minLength', value: 1 }] }),
          req.str(
            idField,
            byPhone
              ? {
                  constraints: [
                    { kind: 'minLength', value: 10 },
                    { kind: 'maxLength', value: 10 },
                  ],
                }
              : { constraints: [{ kind: 'email' }] },
          ),
          req.str('password', { constraints: [{ kind: 'minLength', value: 5 }] }),
        ],
        response: { message: 'string' },
      },
      (ctx, a) => {
        const ident = str(a, idField);
        if (accountUser(ctx, app, ident)) throw new ApiError(422, `An account with this ${byPhone ? 'phone number' : 'email'} already exists.`);
        let user = row<{ id: number }>(ctx, `SELECT id FROM users WHERE ${idField} = ?`, ident);
        if (!user) {
          const email = byPhone ? `${ident}@phone.local` : ident;
          const phone = byPhone ? ident : 'x' + createHash('sha256').update(ident).digest('hex').slice(0, 9);
          const r = ctx.db
            .prepare('INSERT INTO users (first_name, last_name, email, phone_number, birthday, sex) VALUES (?, ?, ?, ?, ?, ?)')
            .run(str(a, 'first_name'), str(a, 'last_name'), email, phone, '1990-01-01', 'unknown');
          user = { id: Number(r.lastInsertRowid) };
        }
        ctx.db.prepare('INSERT INTO accounts (app, user_id, password, verified, created_at) VALUES (?, ?, ?, ?, ?)').run(app, user.id, str(a, 'password'), verification ? 0 : 1, ctx.now);
        return ok('Account created successfully.');
      },
    ),
    def('delete_account', { method: 'DELETE', description: 'Delete your account.', response: { message: 'string' } }, (ctx) => {
      ctx.db.prepare('DELETE FROM accounts WHERE app = ? AND user_id = ?').run(app, me(ctx));
      if (ctx.accessToken) ctx.revokeToken(ctx.accessToken);
      return ok('Account deleted successfully.');
    }),
    def(
      'update_account_name',
      {
        method: 'PATCH',
        description: 'Update your first or last name in the account profile.',
        params: [opt.str('first_name', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.str('last_name', { constraints: [{ kind: 'minLength', value: 1 }] })],
        response: { message: 'string' },
      },
      (ctx, a) => {
        const u = userById(ctx, me(ctx))!;
        ctx.db.prepare('UPDATE users SET first_name = ?, last_name = ? WHERE id = ?').run(optStr(a, 'first_name') ?? u.first_name, optStr(a, 'last_name') ?? u.last_name, u.id);
        return ok('Account name updated successfully.');
      },
    ),
    def(
      'login',
      {
        auth: false,
        description: 'Login to your account.',
        params: [req.str('username', { desc: byPhone ? 'Your account phone_number.' : 'Your account email.' }), req.str('password', { desc: 'Your account password.' })],
        response: { access_token: 'string', token_type: 'string' },
      },
      (ctx, a) => {
        const u = accountUser(ctx, app, str(a, 'username'));
        if (!u || u.password !== str(a, 'password')) throw new ApiError(401, 'Invalid credentials');
        return { access_token: ctx.issueToken(app, str(a, 'username')), token_type: 'Bearer' };
      },
    ),
    def('logout', { method: 'POST', description: 'Logout from your account.', response: { message: 'string' } }, (ctx) => {
      me(ctx);
      if (ctx.accessToken) ctx.revokeToken(ctx.accessToken);
      return ok('Successfully logged out.');
    }),
    def('send_password_reset_code', { auth: false, description: 'Send password reset code to your email address.', params: [ident()], response: { message: 'string' } }, (ctx, a) => {
      if (!accountUser(ctx, app, str(a, idField))) throw new ApiError(422, `There is no account with this ${byPhone ? 'phone number' : 'email'}.`);
      return ok(`Password reset code sent to your ${byPhone ? 'phone number' : 'email address'}.`);
    }),
    def(
      'reset_password',
      {
        auth: false,
        description: 'Reset your password with the password reset code.',
        params: [ident(), req.str('password_reset_code'), req.str('new_password', { constraints: [{ kind: 'minLength', value: 5 }] })],
        response: { message: 'string' },
      },
      (ctx, a) => {
        const u = accountUser(ctx, app, str(a, idField));
        if (!u) throw new ApiError(422, `There is no account with this ${byPhone ? 'phone number' : 'email'}.`);
        if (str(a, 'password_reset_code') !== code(app, str(a, idField), 'reset')) throw new ApiError(422, 'Invalid password reset code.');
        ctx.db.prepare('UPDATE accounts SET password = ? WHERE app = ? AND user_id = ?').run(str(a, 'new_password'), app, u.id);
        return ok('Password reset successfully.');
      },
    ),
    def(
      'show_profile',
      {
        auth: profileAuth,
        description: 'Show public profile information of a user.',
        // Optional in AppWorld's docs: without it, an app that knows the caller (venmo) shows the caller.
        params: [opt.str(idField, byPhone ? {} : { constraints: EMAIL })],
        response: { first_name: 'string', last_name: 'string', [idField]: byPhone ? 'string' : 'user@example.com', registered_at: '2019-01-01T00:00:00', ...extras?.profile?.response },
      },
      (ctx, a) => {
        const self = a[idField] == null && ctx.userId !== null ? userById(ctx, ctx.userId) : undefined;
        const ident = self ? String(self[idField as 'email' | 'phone_number']) : str(a, idField);
        const u = accountUser(ctx, app, ident);
        if (!u) throw new ApiError(422, 'The user does not exist.');
        return { first_name: u.first_name, last_name: u.last_name, [idField]: ident, registered_at: u.created_at, ...extras?.profile?.view(ctx, u.id) } as Json;
      },
    ),
  ];
  if (verification) {
    apis.push(
      def(
        'send_verification_code',
        { auth: false, description: 'Send account verification code to your email address.', params: [req.str('email', { constraints: EMAIL })], response: { message: 'string' } },
        (ctx, a) => {
          if (!accountUser(ctx, app, str(a, 'email'))) throw new ApiError(422, 'There is no account with this email.');
          return ok('Verification code sent to your email address.');
        },
      ),
      def(
        'verify_account',
        {
          auth: false,
          description: 'Verify your account using the verification code sent to your email address.',
          params: [req.str('email', { constraints: EMAIL }), req.str('verification_code')],
          response: { message: 'string' },
        },
        (ctx, a) => {
          const u = accountUser(ctx, app, str(a, 'email'));
          if (!u) throw new ApiError(422, 'There is no account with this email.');
          if (str(a, 'verification_code') !== code(app, str(a, 'email'), 'verify')) throw new ApiError(422, 'Invalid verification code.');
          ctx.db.prepare('UPDATE accounts SET verified = 1 WHERE app = ? AND user_id = ?').run(app, u.id);
          return ok('Account verified successfully.');
        },
      ),
    );
  }
  return apis;
}
