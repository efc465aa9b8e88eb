import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginOptions,
  FastifyRegisterOptions,
} from 'fastify';

/** Where Fastify looks first for the name of a plugin that fastify-plugin did not wrap. */
const displayName = Symbol.for('fastify.display-name');

/**
 * Names an encapsulated plugin (a feature's routes, a scope) the way Fastify's docs offer. Without
 * a name Fastify looks for the function among the exports of every loaded CommonJS module, twice
 * for each registration: about a tenth of a second of every app built in a test process.
 */
export function named<Options extends FastifyPluginOptions = Record<never, never>>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, { [displayName]: name });
}

/**
 * Registers a scope written in place under `name` (`named`), its options before its body: how
 * app.ts nests the scopes that protect the routes and find their catalogue.
 */
export function registerScope(
  parent: FastifyInstance,
  name: string,
  options: FastifyRegisterOptions<Record<never, never>>,
  plugin: FastifyPluginAsync,
) {
  return parent.register(named(name, plugin), options);
}
