// The paper's AppWorld env-server protocol (its SFT script's client, port 30002): every call answers
// bare JSON text — the API's body as Python's json.dumps prints it, or
// `{"error": "Response status code is <n>:\n<FastAPI body>"}` — and the passwords call answers the
// paper's `[{"app", "username", "password"}]` for the four apps its harness logs into, then (in an
// episode of one of our catalogue tasks) the other apps that task needs: the paper's tasks need
// only those four, ours also phone, amazon, gmail, splitwise and todoist, whose passwords an agent
// could otherwise never read.
import type { CallResult } from '../engine/types.js';
import type { AppWorldSession } from '../engine/world.js';
import { pyJsonDumps } from './py-json.js';
import type { ToolCall, ToolRunner } from './tool-call.js';

/** The apps, in order, that the paper's server lists for `supervisor__show_account_passwords`. */
export const PAPER_PASSWORD_APPS = ['spotify', 'venmo', 'file_system', 'simple_note'] as const;

/** AppWorld task ids: a 7-hex scenario id and the variant number. */
export const TASK_ID_PATTERN = /^[0-9a-f]{7}_[1-3]$/;

/** The error text the paper's client receives: the status line, then the body as FastAPI sends it (compact JSON). */
export function paperErrorText(status: number, message: string): string {
  return `Response status code is ${status}:\n${JSON.stringify({ message })}`;
}

/** The bare JSON text of a call result, as the paper's env server returns it. */
export function paperResponseText(r: CallResult): string {
  return pyJsonDumps(r.ok ? r.body : { error: paperErrorText(r.status, r.body.message) });
}

/** The paper's passwords listing for `apps` (its four by default): login name (the email; the phone number for phone) and password per app the user has. */
export function paperPasswords(session: AppWorldSession, apps: readonly string[] = PAPER_PASSWORD_APPS): { app: string; username: string; password: string }[] {
  const rows = session.db.prepare('SELECT a.app, a.password, u.email, u.phone_number FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = ?').all(session.supervisorId) as {
    app: string;
    password: string;
    email: string;
    phone_number: string;
  }[];
  return apps.flatMap((app) => {
    const r = rows.find((x) => x.app === app);
    return r ? [{ app, username: app === 'phone' ? r.phone_number : r.email, password: r.password }] : [];
  });
}

/** Runs one call the way the paper's server answers it (token injection included) and returns its text. */
export function runPaperCall(runner: ToolRunner, call: ToolCall): { result: CallResult; text: string } {
  if (call.name === 'supervisor__show_account_passwords') {
    const body = paperPasswords(runner.session, runner.passwordApps);
    return { result: { ok: true, status: 200, body }, text: pyJsonDumps(body) };
  }
  const result = runner.run(call);
  return { result, text: paperResponseText(result) };
}
