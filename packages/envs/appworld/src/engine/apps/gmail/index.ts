// gmail: per-person threads (inbox, outbox, archived, spam; labels, stars, read marks), sending,
// replying and forwarding (every recipient gets their own copy in their own thread of the
// conversation), drafts with scheduling, and attachments to and from the file system. The APIs
// keep AppWorld's listing order.
import { routed } from '../../routes.js';
import type { ApiDef } from '../../types.js';
import { accountApis } from '../shared/accounts.js';
import { draftApis } from './drafts.js';
import { GMAIL_ROUTES } from './routes.js';
import { sendApis } from './send.js';
import { threadApis } from './threads.js';

const apis: ApiDef[] = [...accountApis('gmail', { verification: false }), ...threadApis, ...sendApis, ...draftApis];

export const gmailApis: ApiDef[] = routed(apis, GMAIL_ROUTES);
