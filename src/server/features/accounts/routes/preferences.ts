import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { A } from '../../../../shared/account-messages.js';
import {
  preferencesResponseSchema,
  preferencesSavedSchema,
  preferencesUpdateSchema,
  type Preferences,
} from '../../../../shared/schemas/preferences.js';
import type { DB } from '../../../infra/db/handle.js';
import { currentSession } from '../../../http/authenticate.js';
import { rateLimit } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

async function readPreferences(db: DB, userId: string): Promise<Preferences> {
  const row = await db
    .selectFrom('users')
    .select('low_stock_digest')
    .where('id', '=', userId)
    .executeTakeFirst();
  return { lowStockDigest: row?.low_stock_digest === 1 };
}

/**
 * The signed-in user's preferences (`/api/auth/preferences`): apart from the current user's
 * answer, which stays the spec's id, name and e-mail.
 */
export const preferenceRoutes = named('preference-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, rateLimits } = app;

  app.get(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'getPreferences',
        tags: ['profile'],
        summary: "The signed-in user's preferences",
        description:
          '`lowStockDigest`: whether the user gets the daily e-mail of the products that reached their reorder point.',
        response: { 200: preferencesResponseSchema },
      },
    },
    async (request) => ({
      preferences: await readPreferences(db, currentSession(request).user.id),
    }),
  );

  app.patch(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'updatePreferences',
        tags: ['profile'],
        summary: 'Change preferences',
        description:
          'Sets the preferences sent; those left out stay as they are. Answers with all of them.',
        body: preferencesUpdateSchema,
        response: { 200: preferencesSavedSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { lowStockDigest } = request.body;
      if (lowStockDigest !== undefined) {
        await db
          .updateTable('users')
          .set({ low_stock_digest: lowStockDigest ? 1 : 0, updated_at: clock.now() })
          .where('id', '=', user.id)
          .execute();
      }
      return { message: A.preferencesSaved, preferences: await readPreferences(db, user.id) };
    },
  );
});
