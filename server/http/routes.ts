import type { Services } from '../services/index.js';
import { authHandlers, userHandlers } from './handlers/auth.js';
import { ok, type Access, type Handler, type RouteDef } from './types.js';

const PUBLIC: Access = 'public';
const ADMIN: Access = ['Admin'];
const READERS: Access = ['Admin', 'User', 'Pass'];
const ADMIN_OR_INVITED: Access = ['Admin', 'Server'];

const get = (path: string, access: Access, handler: Handler): RouteDef => ({
  method: 'GET',
  path,
  access,
  handler,
});
const post = (path: string, access: Access, handler: Handler, body: RouteDef['body'] = 'form'): RouteDef => ({
  method: 'POST',
  path,
  access,
  handler,
  body,
});

/**
 * Every endpoint, its method and who may call it, in one list. The auth middleware enforces the
 * access column; test/api/route-access.test.ts walks this table.
 */
export function routeTable(services: Services): RouteDef[] {
  const auth = authHandlers(services.auth, services.invites);
  const users = userHandlers(services.users);
  return [
    get('/api/health', PUBLIC, () => ok({ status: 'ok', version: services.version })),

    // Authentication (interface §4.2, contract §2)
    get('/auth/login', PUBLIC, auth.login),
    post('/auth/login', PUBLIC, auth.login),
    get('/auth/invite', ADMIN, auth.invite),
    get('/auth/invites', ADMIN, auth.listInvites),
    get('/auth/code-authenticate', PUBLIC, auth.codeAuthenticate),
    get('/auth/check', READERS, auth.check),

    // Users (contract §3)
    post('/api/users/create', ADMIN_OR_INVITED, users.create),
    get('/api/users', ADMIN, users.list),
    post('/api/users/settings', READERS, users.settings),
    post('/api/users/change-password', READERS, users.changePassword),
    post('/api/users/delete', ADMIN, users.delete),
  ];
}
