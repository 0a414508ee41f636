export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** A logger that writes lines to a sink at or above `level`. */
export function createLogger(sink: (level: LogLevel, line: string) => void, level: LogLevel = 'info'): Logger {
  const at = (l: LogLevel) => (msg: string) => {
    if (ORDER[l] >= ORDER[level]) sink(l, `[${new Date().toISOString()}] ${l.padEnd(5)} ${msg}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const stderrLogger = (level: LogLevel = 'info') => createLogger((_l, line) => process.stderr.write(line + '\n'), level);
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
