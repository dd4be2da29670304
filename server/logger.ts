/**
 * One line per event, `key=value` pairs after the message. Callers pass only values that are safe
 * to log: no passwords, tokens or invite codes (the request log redacts them before they get here).
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogSink = (line: string) => void;

function format(level: string, message: string, fields: LogFields | undefined): string {
  const parts = [new Date().toISOString(), level, message];
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined) continue;
    const text = String(value);
    parts.push(`${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`);
  }
  return parts.join(' ');
}

export function createLogger(sink: LogSink = (line) => process.stdout.write(line + '\n')): Logger {
  return {
    info: (message, fields) => sink(format('INFO', message, fields)),
    warn: (message, fields) => sink(format('WARN', message, fields)),
    error: (message, fields) => sink(format('ERROR', message, fields)),
  };
}

/** A logger that keeps its lines in memory; for tests that assert on what was (not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    createLogger((line) => lines.push(line)),
    { lines },
  );
}
