// Routes are data checked against the APIs they describe: every app carries AppWorld's methods and paths
// (api_docs shows them; api-doc-facts.test.ts holds all 457 to AppWorld's docs), and a route naming a
// missing API or parameter is refused.
import { describe, expect, it } from 'vitest';
import { declarer } from './define.js';
import { req } from './params.js';
import { API_REGISTRY, APPS } from './registry.js';
import { routed, sharedRoutes } from './routes.js';
import { sharedTemplate } from './world.js';

describe('routes', () => {
  it("splitwise and todoist APIs answer api_docs with AppWorld's method and path", () => {
    const s = sharedTemplate().open({ supervisorId: 1 });
    const doc = (app: string, api: string) => s.callTool('api_docs__show_api_doc', { app_name: app, api_name: api }).body as { method: string; path: string };
    expect(doc('splitwise', 'show_person_balance')).toMatchObject({ method: 'POST', path: '/splitwise/balance/person/' });
    expect(doc('splitwise', 'remove_member_from_group')).toMatchObject({ method: 'DELETE', path: '/splitwise/groups/{group_id}/members/{user_email}' });
    expect(doc('todoist', 'download_attachment')).toMatchObject({ method: 'GET', path: '/todoist/task_comments/{task_comment_id}/attachments/{attachment_file_name}' });
    expect(doc('todoist', 'logout')).toMatchObject({ method: 'POST', path: '/todoist/auth/logout' });
    for (const api of API_REGISTRY.values()) if (api.app === 'splitwise' || api.app === 'todoist') expect(api.path, `${api.app}__${api.name}`).toMatch(new RegExp(`^/${api.app}/`));
    s.close();
  });

  it("gmail, simple_note, spotify and api_docs APIs answer api_docs with AppWorld's method and path; no app keeps a generated /<app>/<api> path", () => {
    const s = sharedTemplate().open({ supervisorId: 1 });
    const doc = (app: string, api: string) => s.callTool('api_docs__show_api_doc', { app_name: app, api_name: api }).body as { method: string; path: string };
    expect(doc('gmail', 'show_inbox_threads')).toMatchObject({ method: 'GET', path: '/gmail/email_threads/category/inbox' });
    expect(doc('gmail', 'reply_to_email')).toMatchObject({ method: 'POST', path: '/gmail/email_threads/{email_thread_id}/emails/{email_id}/reply' });
    expect(doc('gmail', 'update_draft')).toMatchObject({ method: 'PATCH', path: '/gmail/drafts/{draft_id}' });
    expect(doc('gmail', 'remove_attachment_from_draft')).toMatchObject({ method: 'DELETE', path: '/gmail/drafts/{draft_id}/attachments/{attachment_id}' });
    expect(doc('gmail', 'login')).toMatchObject({ method: 'POST', path: '/gmail/auth/token' });
    expect(doc('api_docs', 'show_api_doc')).toMatchObject({ method: 'GET', path: '/api_docs/api_doc' });
    expect(doc('simple_note', 'add_content_to_note')).toMatchObject({ method: 'PATCH', path: '/simple_note/notes/{note_id}/{append_or_prepend}' });
    expect(doc('simple_note', 'verify_account')).toMatchObject({ method: 'POST', path: '/simple_note/verify_account' });
    expect(doc('spotify', 'show_song_library')).toMatchObject({ method: 'GET', path: '/spotify/library/songs' });
    expect(doc('spotify', 'remove_song_from_queue')).toMatchObject({ method: 'DELETE', path: '/spotify/music_player/song_queue/{position}' });
    expect(doc('spotify', 'update_song_review')).toMatchObject({ method: 'PATCH', path: '/spotify/song_reviews/{review_id}' });
    const routedApps = new Set(APPS as readonly string[]);
    const byApp = new Map<string, number>();
    for (const api of API_REGISTRY.values())
      if (routedApps.has(api.app)) {
        expect(api.path, `${api.app}__${api.name}`).toMatch(new RegExp(`^/${api.app}/`));
        byApp.set(api.app, (byApp.get(api.app) ?? 0) + 1);
      }
    expect([...byApp.values()].reduce((a, b) => a + b, 0)).toBe(457);
    // A generated path uses the API's name with dashes; a routed app's paths never do (routed() replaced them all).
    for (const api of API_REGISTRY.values()) if (routedApps.has(api.app)) expect(api.path, `${api.app}__${api.name}`).not.toBe(`/${api.app}/${api.name.replace(/_/g, '-')}`);
    s.close();
  });

  it('refuses a route for an unknown API, a missing route, and a placeholder that is no parameter', () => {
    const def = declarer('demo');
    const apis = [def('show_thing', { description: 'x', params: [req.int('thing_id')] }, () => null)];
    expect(routed(apis, { show_thing: 'GET /demo/things/{thing_id}' })[0]).toMatchObject({ method: 'GET', path: '/demo/things/{thing_id}' });
    expect(() => routed(apis, { show_thing: 'GET /demo/things/{other_id}' })).toThrow('route of demo__show_thing names {other_id}, not a parameter');
    expect(() => routed(apis, {})).toThrow('no route for demo__show_thing');
    expect(() => routed(apis, { show_thing: 'GET /demo/x', nope: 'GET /demo/y' })).toThrow('routes for unknown APIs: nope');
    expect(Object.keys(sharedRoutes('demo', { verification: false, notifications: false }))).toHaveLength(9);
  });
});
