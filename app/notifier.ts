import { Notification } from 'electron';
import type { Logger } from '../server/logger.js';

/** Desktop notifications; where the system has none, an ordinary notice goes to the log instead. */
export class Notifier {
  constructor(
    private readonly icon: string,
    private readonly logger: Logger,
  ) {}

  readonly notify = (title: string, body: string): void => {
    if (Notification.isSupported()) new Notification({ title, body, icon: this.icon }).show();
    else this.logger.info(title, { detail: body });
  };

  /** A notice that holds a secret (an invite code): shown, but never written to the log instead. */
  readonly notifySecret = (title: string, body: string): void => {
    if (Notification.isSupported()) new Notification({ title, body, icon: this.icon }).show();
    else this.logger.info('a notification holding a secret was not shown (notifications are unavailable)');
  };
}
