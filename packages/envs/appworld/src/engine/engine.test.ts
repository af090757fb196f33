import { describe, expect, it } from 'vitest';
import { API_REGISTRY } from './registry.js';
import { allParams } from './validate.js';
import { sharedTemplate } from './world.js';
import type { CallResult } from './types.js';

const world = sharedTemplate();
const sup = world.query<{ id: number; email: string; phone_number: string; first_name: string }>('SELECT * FROM users WHERE id = 3')[0]!;

function session() {
  const s = world.open({ supervisorId: sup.id });
  const pw = Object.fromEntries(
    (s.callTool('supervisor__show_account_passwords', {}) as { body: { account_name: string; password: string }[] } & CallResult).body.map((r) => [r.account_name, r.password]),
  );
  const token = (app: string) =>
    (s.callTool(`${app}__login`, { username: app === 'phone' ? sup.phone_number : sup.email, password: pw[app] }) as { body: { access_token: string } } & CallResult).body.access_token;
  return { s, token };
}
const body = <T>(r: CallResult): T => r.body as T;

describe('generic rules over every API', () => {
  it('every token-protected API answers 401 without a token and with a token of another app', () => {
    const { s, token } = session();
    const wrong = token('venmo');
    for (const api of API_REGISTRY.values()) {
      if (!api.auth) continue;
      const r = s.call(api.app, api.name, {});
      expect(r.status, `${api.app}.${api.name}`).toBe(401);
      expect(r.body).toEqual({ message: `You are either not authorized to access this ${api.app} API endpoint or your access token is missing, invalid or expired.` });
      if (api.app !== 'venmo') expect(s.call(api.app, api.name, { access_token: wrong }).status).toBe(401);
    }
    s.close();
  });

  it('every API with required parameters names each missing one in a 422', () => {
    const { s, token } = session();
    for (const api of API_REGISTRY.values()) {
      const required = allParams(api).filter((p) => p.required && p.name !== 'access_token');
      if (!required.length) continue;
      const r = s.call(api.app, api.name, api.auth ? { access_token: token(api.app) } : {});
      expect(r.status, `${api.app}.${api.name}`).toBe(422);
      for (const p of required) expect((r.body as { message: string }).message).toContain(`${p.name}: field required`);
    }
    s.close();
  });

  it('implements the harness surface: 11 apps (4 of them account blocks only), 270 APIs', () => {
    expect(new Set([...API_REGISTRY.values()].map((a) => a.app)).size).toBe(11);
    expect(API_REGISTRY.size).toBeGreaterThanOrEqual(270);
  });
});

describe('login, tokens and logout', () => {
  it('logs in with the email (phone: the phone number) and rejects a wrong password', () => {
    const { s, token } = session();
    const t = token('spotify');
    expect(t.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString())).toMatchObject({ sub: `spotify+${sup.email}` });
    expect(s.callTool('phone__login', { username: sup.email, password: 'x' })).toEqual({ ok: false, status: 401, body: { message: 'Invalid credentials' } });
    expect(s.callTool('spotify__logout', { access_token: t }).ok).toBe(true);
    expect(s.callTool('spotify__show_song_library', { access_token: t }).status).toBe(401);
    expect(s.callTool('spotify__show_song_library', { access_token: t.slice(0, -2) + 'xx' }).status).toBe(401);
    s.close();
  });
});

describe('account-only apps', () => {
  it("amazon, gmail, splitwise and todoist log in with the supervisor's passwords; api_docs lists their account APIs", () => {
    const { s } = session();
    const pw = Object.fromEntries((s.callTool('supervisor__show_account_passwords', {}).body as { account_name: string; password: string }[]).map((r) => [r.account_name, r.password]));
    for (const app of ['amazon', 'gmail', 'splitwise', 'todoist']) {
      const login = s.callTool(`${app}__login`, { username: sup.email, password: pw[app] });
      expect(login.status, app).toBe(200);
      const token = (login.body as { access_token: string }).access_token;
      expect((s.callTool(`${app}__show_account`, { access_token: token }).body as { email: string }).email).toBe(sup.email);
      expect(s.callTool(`${app}__login`, { username: sup.email, password: 'wrong' }).status).toBe(401);
    }
    expect((s.callTool('api_docs__show_api_descriptions', { app_name: 'gmail' }).body as unknown[]).length).toBe(42); // all of AppWorld's gmail APIs
    expect((s.callTool('api_docs__show_app_descriptions', {}).body as { name: string }[]).map((a) => a.name)).toEqual([
      'api_docs',
      'supervisor',
      'amazon',
      'phone',
      'file_system',
      'spotify',
      'venmo',
      'gmail',
      'splitwise',
      'simple_note',
      'todoist',
    ]);
    s.close();
  });
});

describe('pagination and sorting', () => {
  it('defaults to 5, caps at 20, returns [] past the end, and validates bounds', () => {
    const { s, token } = session();
    const t = token('spotify');
    const total = world.query<{ n: number }>('SELECT count(*) AS n FROM song_library WHERE user_id = ?', sup.id)[0]!.n;
    expect(body<unknown[]>(s.callTool('spotify__show_song_library', { access_token: t }))).toHaveLength(5);
    expect(body<unknown[]>(s.callTool('spotify__show_song_library', { access_token: t, page_limit: 20 }))).toHaveLength(20);
    const lastPage = Math.floor((total - 1) / 20);
    expect(body<unknown[]>(s.callTool('spotify__show_song_library', { access_token: t, page_limit: 20, page_index: lastPage }))).toHaveLength(total - lastPage * 20);
    expect(s.callTool('spotify__show_song_library', { access_token: t, page_limit: 20, page_index: lastPage + 1 }).body).toEqual([]);
    expect((s.callTool('spotify__show_song_library', { access_token: t, page_limit: 21 }).body as { message: string }).message).toBe(
      'Validation error. Reason: \npage_limit: ensure this value is less than or equal to 20',
    );
    expect((s.callTool('spotify__show_song_library', { access_token: t, page_index: -1 }).body as { message: string }).message).toContain(
      'page_index: ensure this value is greater than or equal to 0',
    );
    const sorted = body<{ play_count: number }[]>(s.callTool('spotify__search_songs', { sort_by: '-play_count', page_limit: 20 }));
    expect(sorted.map((x) => x.play_count)).toEqual([...sorted.map((x) => x.play_count)].sort((a, b) => b - a));
    expect(s.callTool('spotify__search_songs', { sort_by: '-nonsense' }).status).toBe(422);
    s.close();
  });
});

describe('app behaviour', () => {
  it('supervisor: profile, passwords for 9 apps in order, complete_task once', () => {
    const { s } = session();
    expect(body<{ email: string }>(s.callTool('supervisor__show_profile', {})).email).toBe(sup.email);
    expect(body<{ account_name: string }[]>(s.callTool('supervisor__show_account_passwords', {})).map((r) => r.account_name)).toEqual([
      'amazon',
      'file_system',
      'gmail',
      'phone',
      'simple_note',
      'splitwise',
      'spotify',
      'todoist',
      'venmo',
    ]);
    s.db.prepare("INSERT INTO supervisor_tasks (user_id, instruction) VALUES (?, 'x')").run(sup.id);
    expect((s.callTool('supervisor__complete_task', { answer: { a: 1 } }).body as { message: string }).message).toBe(
      'Validation error. Reason: \nanswer: value is not a valid float\nanswer: value is not a valid integer\nanswer: str type expected',
    );
    expect(s.callTool('supervisor__complete_task', { status: 'done' }).status).toBe(422);
    expect(s.callTool('supervisor__complete_task', { answer: 3 }).body).toEqual({ message: 'Marked the active task complete.' });
    expect(s.callTool('supervisor__show_active_task', {}).body).toEqual({ instruction: 'x', status: 'success', answer: '3' });
    expect(s.callTool('supervisor__complete_task', {}).status).toBe(422);
    s.close();
  });

  it('venmo: pays from the balance, refuses overdrafts, approves requests once', () => {
    const { s, token } = session();
    const t = token('venmo');
    const friend = body<{ email: string }[]>(s.callTool('venmo__search_friends', { access_token: t }))[0]!;
    const before = body<{ venmo_balance: number }>(s.callTool('venmo__show_venmo_balance', { access_token: t })).venmo_balance;
    expect(s.callTool('venmo__create_transaction', { access_token: t, receiver_email: friend.email, amount: 1.5 }).ok).toBe(true);
    expect(body<{ venmo_balance: number }>(s.callTool('venmo__show_venmo_balance', { access_token: t })).venmo_balance).toBeCloseTo(before - 1.5);
    expect(s.callTool('venmo__create_transaction', { access_token: t, receiver_email: friend.email, amount: 1e9 }).body).toEqual({ message: 'Insufficient money in the Venmo balance.' });
    expect(s.callTool('venmo__create_transaction', { access_token: t, receiver_email: friend.email, amount: -3 }).status).toBe(422);
    expect(s.callTool('venmo__create_transaction', { access_token: t, receiver_email: 'nobody@x.com', amount: 1 }).status).toBe(422);
    const sent = body<{ amount: number }[]>(s.callTool('venmo__show_transactions', { access_token: t, direction: 'sent', page_limit: 1 }));
    expect(sent[0]!.amount).toBe(1.5);
    s.close();
  });

  it('file_system: ~ paths, listings with trailing slashes, create/move/delete, no access outside home', () => {
    const { s, token } = session();
    const t = token('file_system');
    const home = `/home/${sup.first_name.toLowerCase()}/`;
    // Without a path the listing starts at the root (AppWorld's default "/"), whose only child is /home/.
    expect(body<string[]>(s.callTool('file_system__show_directory', { access_token: t, recursive: false }))).toEqual(['/home/']);
    expect(body<string[]>(s.callTool('file_system__show_directory', { access_token: t, directory_path: '/home/', recursive: false }))).toEqual([home]);
    expect(body<string[]>(s.callTool('file_system__show_directory', { access_token: t }))).toContain(`${home}documents/`);
    const top = body<string[]>(s.callTool('file_system__show_directory', { access_token: t, directory_path: '~/', recursive: false }));
    expect(top).toContain(`${home}documents/`);
    expect(s.callTool('file_system__create_directory', { access_token: t, directory_path: '~/tmp' }).ok).toBe(true);
    expect(s.callTool('file_system__create_file', { access_token: t, file_path: '~/tmp/a.txt', content: 'hi' }).ok).toBe(true);
    expect(s.callTool('file_system__create_file', { access_token: t, file_path: '~/tmp/a.txt' }).status).toBe(422);
    expect(s.callTool('file_system__move_file', { access_token: t, source_file_path: '~/tmp/a.txt', destination_file_path: '~/' }).body).toEqual({
      message: 'File moved.',
      destination_file_path: `${home}a.txt`,
    });
    expect(body<{ content: string }>(s.callTool('file_system__show_file', { access_token: t, file_path: `${home}a.txt` })).content).toBe('hi');
    expect(s.callTool('file_system__show_file', { access_token: t, file_path: '/home/someoneelse/a.txt' }).status).toBe(401);
    expect(s.callTool('file_system__show_file', { access_token: t, file_path: '~/../x' }).status).toBe(422);
    expect(s.callTool('file_system__delete_directory', { access_token: t, directory_path: '~/tmp/' }).ok).toBe(true);
    expect(s.callTool('file_system__directory_exists', { access_token: t, directory_path: '~/tmp/' }).body).toEqual({ exists: false });
    s.close();
  });

  it('phone, simple_note, spotify and api_docs happy paths', () => {
    const { s, token } = session();
    const p = token('phone');
    expect(s.callTool('phone__get_current_date_and_time', {}).body).toEqual({ date: 'Thursday, May 18, 2023', time: '12:00 PM' });
    const c = body<{ contact_id: number; phone_number: string }[]>(s.callTool('phone__search_contacts', { access_token: p }))[0]!;
    expect(s.callTool('phone__send_text_message', { access_token: p, phone_number: c.phone_number, message: 'hi' }).ok).toBe(true);
    expect(s.callTool('phone__create_alarm', { access_token: p, time: '25:00' }).status).toBe(422);
    const n = token('simple_note');
    const created = body<{ note_id: number }>(s.callTool('simple_note__create_note', { access_token: n, title: 'T', content: 'c', tags: ['x'], pinned: true }));
    expect(body<{ note_id: number }[]>(s.callTool('simple_note__search_notes', { access_token: n, tags: ['x'] })).map((r) => r.note_id)).toEqual([created.note_id]);
    const sp = token('spotify');
    const pl = body<{ playlist_id: number }>(s.callTool('spotify__create_playlist', { access_token: sp, title: 'New' }));
    expect(s.callTool('spotify__add_song_to_playlist', { access_token: sp, playlist_id: pl.playlist_id, song_id: 1 }).ok).toBe(true);
    expect(s.callTool('spotify__add_song_to_playlist', { access_token: sp, playlist_id: pl.playlist_id, song_id: 1 }).status).toBe(422);
    expect(s.callTool('spotify__show_song', { song_id: 999999 }).body).toEqual({ message: 'The song does not exist.' });
    expect(s.callTool('api_docs__show_api_descriptions', { app_name: 'nope' }).status).toBe(422);
    expect(s.callTool('api_docs__show_api_doc', { app_name: 'spotify', api_name: 'nope' }).body).toEqual({
      message: 'No APIs with name nope found for the spotify app. Check the api and app name again.',
    });
    expect(s.callTool('spotify__search_tracks', {}).body).toEqual({ message: "No API named 'search_tracks' found in the spotify app." });
    expect(s.callTool('netflix__login', {}).body).toEqual({ message: "No app named 'netflix' found." });
    s.close();
  });
});
