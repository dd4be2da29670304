import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { AuthService } from './auth-service.js';
import { InviteService } from './invite-service.js';
import { TokenSigner } from './tokens.js';
import { UserService } from './user-service.js';

/** Every service, wired to the store once. Routes get this; services never see Koa. */
export interface Services {
  version: string;
  auth: AuthService;
  invites: InviteService;
  users: UserService;
}

export function createServices(config: Config, store: Store, clock: Clock, logger: Logger): Services {
  const signer = new TokenSigner(store.jwtSecret, clock);
  return {
    version: config.version,
    auth: new AuthService(store.users, signer, clock, config.tokenTtlSeconds),
    invites: new InviteService(store.users, signer, clock, logger),
    users: new UserService(store.users, clock),
  };
}
