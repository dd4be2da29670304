/**
 * Where each common Subsonic app asks for a server, in a line. Every one of them takes the three
 * fields of the Apps view; the app password goes where the app says "password" (token sign-in, the
 * default of most apps, works with an app password).
 */
export interface AppSteps {
  app: string;
  platforms: string;
  steps: string;
}

export const APP_STEPS: readonly AppSteps[] = [
  {
    app: 'Symfonium',
    platforms: 'Android',
    steps: 'Settings → Media providers → Add → Subsonic. Server address, username, and the app password.',
  },
  {
    app: 'DSub',
    platforms: 'Android',
    steps: 'Settings → Servers → Add server. Server address, username, and the app password as the password.',
  },
  {
    app: 'Ultrasonic',
    platforms: 'Android',
    steps: 'Settings → Server settings → Add server. Server address, username, and the app password.',
  },
  {
    app: 'Substreamer',
    platforms: 'Android, iPhone',
    steps: 'Add server → Subsonic. Server address, username, and the app password.',
  },
  {
    app: 'Tempo',
    platforms: 'Android',
    steps: 'On the login screen: any server name, the server address, username, and the app password.',
  },
  {
    app: 'Feishin',
    platforms: 'Windows, macOS, Linux',
    steps: 'Add server → Subsonic. The server address as the URL, username, and the app password.',
  },
  {
    app: 'play:Sub',
    platforms: 'iPhone, iPad',
    steps: 'Settings → Servers → +. The server address as the host, username, and the app password.',
  },
  {
    app: 'Amperfy',
    platforms: 'iPhone, iPad, Mac',
    steps: 'On the login screen: the server address, username, and the app password (API: Subsonic).',
  },
];
