// todoist: projects (project 0 is your Inbox) shared with collaborators by invite, ordered sections,
// tasks and sub-tasks, labels, comments with file attachments, and notifications. The APIs keep
// AppWorld's listing order.
import { routed } from '../../routes.js';
import type { ApiDef } from '../../types.js';
import { accountApis } from '../shared/accounts.js';
import { notificationApis } from '../shared/notifications.js';
import { commentApis } from './comments.js';
import { labelApis } from './labels.js';
import { projectApis } from './projects.js';
import { TODOIST_ROUTES } from './routes.js';
import { sectionApis } from './sections.js';
import { taskApis } from './tasks.js';

const apis: ApiDef[] = [
  ...accountApis('todoist', { verification: true }),
  ...projectApis,
  ...sectionApis,
  ...taskApis,
  ...labelApis,
  ...commentApis,
  ...notificationApis('todoist', { type: 'collaborator_added' }),
];

export const todoistApis: ApiDef[] = routed(apis, TODOIST_ROUTES);
