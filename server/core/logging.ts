import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
/** What pino's loggers have beyond Fastify's base type. */
type Pino = FastifyBaseLogger & { isLevelEnabled(level: string): boolean; bindings(): Bindings };

/**
 * A request's logger, made when the request first logs something at an enabled level. Fastify
 * gives every request a pino child bound to its id; pino builds it (bindings serialized, a new
 * object on the parent's prototype) whether or not anything is logged, and at the default level
 * almost no request logs. The line written is the same as the eager child's: the parent's child
 * with the same bindings, made on the first enabled call.
 */
class LazyChild {
  readonly #parent: Pino;
  readonly #bindings: Bindings;
  #made: Pino | null = null;

  constructor(parent: Pino, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  get #child(): Pino {
    return (this.#made ??= this.#parent.child(this.#bindings) as Pino);
  }

  #log(level: Level, args: unknown[]): void {
    if (!this.#made && !this.#parent.isLevelEnabled(level)) return;
    (this.#child[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.#made ?? this.#parent).level;
  }
  set level(level: string) {
    this.#child.level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.#made ?? this.#parent).isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.#made ? this.#made.bindings() : { ...this.#parent.bindings(), ...this.#bindings };
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#child.child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}
}

/** Fastify's childLoggerFactory: a lazy child, or the logger's own when the route sets a level or serializers of its own. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  // Fastify's null logger (logger: false) has no levels: its child is itself.
  if (options.level || options.serializers || typeof (logger as Partial<Pino>).isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new LazyChild(logger as Pino, bindings) as unknown as FastifyBaseLogger;
}
