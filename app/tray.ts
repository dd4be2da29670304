import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import {
  buildMenuModel,
  trayTooltip,
  type MenuAction,
  type MenuItemModel,
  type TrayState,
} from './menu-model.js';

export interface TrayDeps {
  icon: string;
  state: () => TrayState;
  /** Once the app quits, the invite countdown stops. */
  quitting: () => boolean;
  onAction: (action: MenuAction) => Promise<void>;
  onClick: () => void;
}

/** The tray icon and its menu, drawn from menu-model's answer for the current state. */
export class DesktopTray {
  private readonly tray: Tray;
  private countdown: NodeJS.Timeout | null = null;

  constructor(private readonly deps: TrayDeps) {
    this.tray = new Tray(nativeImage.createFromPath(deps.icon));
    this.tray.on('click', deps.onClick);
  }

  refresh(): void {
    const state = this.deps.state();
    this.tray.setToolTip(trayTooltip(state));
    this.tray.setContextMenu(
      Menu.buildFromTemplate(buildMenuModel(state).map((item) => this.toElectron(item))),
    );
    // Count active invite codes down in the menu once a second, and stop when none is left.
    const counting = state.invites.length > 0 && !this.deps.quitting();
    if (counting && !this.countdown) this.countdown = setInterval(() => this.refresh(), 1000);
    if (!counting && this.countdown) {
      clearInterval(this.countdown);
      this.countdown = null;
    }
  }

  private toElectron(model: MenuItemModel): MenuItemConstructorOptions {
    if (model.type === 'separator') return { type: 'separator' };
    const action = model.action;
    return {
      type: model.type,
      label: model.label,
      enabled: model.enabled,
      ...(model.type === 'checkbox' ? { checked: model.checked } : {}),
      ...(action ? { click: () => void this.deps.onAction(action) } : {}),
    };
  }
}
