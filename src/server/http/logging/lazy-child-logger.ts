import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

/** Fastify's logger is pino's, which also tells whether a level is on. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
type Line = Parameters<FastifyBaseLogger['info']>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes pino's child logger (which serialises its bindings, the request
 * id) only when it first writes a line at a level that is on. Fastify gives every request one,
 * and at the production level (warn) most requests write nothing: they no longer pay for it.
 */
class LazyChildLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: NonNullable<ChildLoggerOptions>,
  ) {}

  private get made(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.options) as Logger;
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }

  fatal(...line: Line) {
    this.write('fatal', line);
  }
  error(...line: Line) {
    this.write('error', line);
  }
  warn(...line: Line) {
    this.write('warn', line);
  }
  info(...line: Line) {
    this.write('info', line);
  }
  debug(...line: Line) {
    this.write('debug', line);
  }
  trace(...line: Line) {
    this.write('trace', line);
  }
  silent() {}

  private write(level: Level, line: Line) {
    if (this.isLevelEnabled(level)) this.made[level](...line);
  }
}

/** Fastify's childLoggerFactory option: each request's logger made lazily (above). */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> =
  function (logger, bindings, options) {
    return new LazyChildLogger(
      logger as unknown as Logger,
      bindings,
      options,
    ) as unknown as FastifyBaseLogger;
  };
