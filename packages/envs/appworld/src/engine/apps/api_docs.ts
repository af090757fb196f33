// api_docs: documentation of every implemented API, generated from the same definitions the
// dispatcher validates against, so docs and behaviour cannot drift.
import { declarer, str } from '../define.js';
import { pageOf } from '../listing.js';
import { rankByQuery } from '../ranked.js';
import { opt, PAGING, req } from '../params.js';
import { routed } from '../routes.js';
import { allParams } from '../validate.js';
import { constraintTexts } from '../constraint-text.js';
import { ApiError, type ApiDef, type Json, type ParamDef } from '../types.js';

export const APP_DESCRIPTIONS: Readonly<Record<string, string>> = {
  api_docs: 'An app to search and explore API documentation.',
  supervisor: "An app to access supervisor's personal information, account credentials, addresses, payment cards, and manage the assigned task.",
  amazon: 'An online shopping app to buy products and manage orders, returns, etc.',
  phone: 'An app to find and manage contact information for friends, family members, etc., send and receive messages, and manage alarms.',
  file_system: 'A file system app to create and manage files and folders.',
  spotify: 'A music streaming app to stream songs and manage song, album and playlist libraries.',
  venmo: 'A social payment app to send, receive and request money to and from others.',
  gmail: 'An email app to draft, send, receive, and manage emails.',
  splitwise: 'A bill splitting app to track and split expenses with people.',
  simple_note: 'A note-taking app to create and manage notes',
  todoist: 'A task management app to manage todo lists and collaborate on them with others.',
};

// AppWorld's order: required first; within each group others, then file_system_access_token, page_index,
// page_limit, sort_by, access_token (api-doc-facts.test.ts holds it to AppWorld's docs).
const TAIL = ['file_system_access_token', 'page_index', 'page_limit', 'sort_by', 'access_token'];
const rank = (p: ParamDef) => (p.required ? 0 : 10) + (TAIL.indexOf(p.name) + 1);

/** The shape of one API doc (AppWorld's ApiDocResponse); a parameter's default and the success schema can be anything (null: any). */
const API_DOC: Json = {
  app_name: 'string',
  api_name: 'string',
  path: 'string',
  method: 'string',
  description: 'string',
  parameters: [{ name: 'string', type: 'string', required: true, description: 'string', default: null, constraints: ['string'] }],
  response_schemas: { success: null, failure: { message: 'string' } },
};

export function apiDoc(api: ApiDef): Json {
  const params = allParams(api).sort((a, b) => rank(a) - rank(b));
  return {
    app_name: api.app,
    api_name: api.name,
    path: api.path,
    method: api.method,
    description: api.description,
    parameters: params.map((p) => ({
      name: p.name,
      type: p.type,
      required: p.required,
      description: p.description,
      default: p.required ? null : (p.default ?? null),
      constraints: constraintTexts(p.constraints),
    })),
    // The declared success shape of the same ApiDef the dispatcher runs (engine/response-schema.ts checks bodies against it).
    response_schemas: { success: api.response ?? {}, failure: { message: 'string' } },
  };
}

export function apiDocsApis(registry: () => ReadonlyMap<string, ApiDef>, apps: () => readonly string[]): ApiDef[] {
  const def = declarer('api_docs');
  const appApis = (app: string) => [...registry().values()].filter((a) => a.app === app);
  return routed(
    [
      def('show_app_descriptions', { response: [{ name: 'string', description: 'string' }], auth: false, description: 'Show the list of apps and their descriptions.' }, () =>
        apps().map((name) => ({ name, description: APP_DESCRIPTIONS[name] ?? '' })),
      ),
      def(
        'show_api_descriptions',
        { response: [{ name: 'string', description: 'string' }], auth: false, description: 'Show the list of APIs of an app and their descriptions.', params: [req.str('app_name')] },
        (_ctx, a) => {
          const list = appApis(str(a, 'app_name'));
          if (!list.length)
            throw new ApiError(
              422,
              `No APIs found for the app name ${str(a, 'app_name')}. Following apps have APIs: [${apps()
                .map((x) => `'${x}'`)
                .join(', ')}]`,
            );
          return list.map((x) => ({ name: x.name, description: x.description }));
        },
      ),
      def('show_api_doc', { response: API_DOC, auth: false, description: 'Show the detailed documentation of an API.', params: [req.str('app_name'), req.str('api_name')] }, (_ctx, a) => {
        const api = registry().get(`${str(a, 'app_name')}__${str(a, 'api_name')}`);
        if (!api) throw new ApiError(422, `No APIs with name ${str(a, 'api_name')} found for the ${str(a, 'app_name')} app. Check the api and app name again.`);
        return apiDoc(api);
      }),
      def('search_api_docs', { response: [API_DOC], auth: false, description: 'Search API documentation by a query.', params: [opt.str('query', { default: '' }), ...PAGING] }, (_ctx, a) => {
        const all = rankByQuery([...registry().values()], a.query, (x) => [x.app, x.name.replace(/_/g, ' '), x.description]);
        return pageOf(
          all.map((x) => apiDoc(x) as { [k: string]: Json }),
          a,
          [],
        );
      }),
    ],
    {
      // AppWorld's routes of the api_docs app.
      show_app_descriptions: 'GET /api_docs/app_descriptions',
      show_api_descriptions: 'GET /api_docs/api_descriptions',
      show_api_doc: 'GET /api_docs/api_doc',
      search_api_docs: 'GET /api_docs/api_docs',
    },
  );
}
