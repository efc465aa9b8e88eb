import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { catalogueWrite, type Stage } from '../../../src/server/features/writes/index.js';
import { build } from '../support/build.js';

/**
 * A request's write whose work was staged before its transaction (an image stored, an import's
 * rows) discards it when the write fails before its commit, and only then: once committed, the
 * staged work is the write's, and a failure after the commit (its afterCommit) must not take away
 * what committed. No route stages and also runs work after its commit, so the pipeline is called
 * as a route would call it.
 */
describe('a staged write that fails', async () => {
  const server = await build();
  const { db } = server.database;
  const catalogueId = await insertUser(
    db,
    { name: 'Stager', email: 'stager@example.com', passwordHash: 'x' },
    0,
  );
  const request = {
    server: server.app,
    catalogue: {
      id: catalogueId,
      role: 'owner',
      personal: true,
      version: 0,
      actorId: catalogueId,
      source: 'api',
    },
  } as unknown as FastifyRequest;
  const http = { request, reply: {} as FastifyReply };

  /** A stage that keeps what it prepared until it is discarded. */
  const kept = new Set<string>();
  const stage: Stage<string> = {
    prepare: async (now) => {
      const staged = `staged at ${now} #${kept.size}`;
      kept.add(staged);
      return staged;
    },
    discard: async (staged) => {
      kept.delete(staged);
    },
  };
  const version = async () =>
    Number(
      (
        await db
          .selectFrom('catalogues')
          .select('version')
          .where('id', '=', catalogueId)
          .executeTakeFirstOrThrow()
      ).version,
    );

  it('keeps what it staged when it fails after its commit', async () => {
    const before = await version();
    let staged: string | undefined;
    const failing = catalogueWrite(http, { stage }, async (_w, prepared) => {
      staged = prepared;
      return {
        answer: { status: 200, body: {} },
        afterCommit: async () => {
          throw new Error('After the commit');
        },
      };
    });
    await expect(failing).rejects.toThrow('After the commit');
    // Committed (the catalogue's version moved on), and what it staged is still there.
    expect(await version()).toBe(before + 1);
    expect(kept.has(staged!)).toBe(true);
  });

  it('discards what it staged when it fails before its commit', async () => {
    const before = await version();
    let staged: string | undefined;
    const failing = catalogueWrite(http, { stage }, async (_w, prepared) => {
      staged = prepared;
      throw new Error('Before the commit');
    });
    await expect(failing).rejects.toThrow('Before the commit');
    expect(await version()).toBe(before);
    expect(staged).toBeDefined();
    expect(kept.has(staged!)).toBe(false);
  });
});
