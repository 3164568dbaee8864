import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Compile = ReturnType<ReturnType<typeof SerializerSelector>>;
type RouteSerializerInput = Parameters<Compile>[0];
type Serialize = (data: unknown) => string;

/**
 * Fastify's own serializer compiler (fast-json-stringify, as by default), each serializer compiled
 * on the first answer that needs it instead of when its route is registered. Fastify builds one
 * for every status of every route's response schema: 437 here, ~13 MB of V8 heap and ~26 MB of
 * the server's resident memory at start, most of them for back-office answers and errors a
 * public server seldom or never sends. The compiled function is the same, so the same fields are
 * written and any other property is still left out.
 *
 * A schema fast-json-stringify cannot compile no longer stops the start; compileAll() compiles
 * every one now (the tests call it on the whole app, so a broken schema still fails them).
 */
export class LazySerializers {
  private readonly builders: Array<() => Serialize> = [];
  /** How many serializers have been compiled so far. */
  compiled = 0;

  /** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
  readonly factory = (externalSchemas: unknown, options: unknown) => {
    const compile = SerializerSelector()(externalSchemas as never, options as never);
    return (input: RouteSerializerInput): Serialize => {
      let serialize: Serialize | undefined;
      const build = () => {
        if (!serialize) {
          serialize = compile(input) as Serialize;
          this.compiled++;
        }
        return serialize;
      };
      this.builders.push(build);
      return (data) => (serialize ?? build())(data);
    };
  };

  /** Compiles every serializer not compiled yet; returns how many there are in all. */
  compileAll(): number {
    for (const build of this.builders) build();
    return this.builders.length;
  }
}
