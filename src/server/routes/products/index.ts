import type { FastifyInstance } from 'fastify';

/** Products API: built in the products issue. */
export async function productRoutes(_fastify: FastifyInstance) {}
