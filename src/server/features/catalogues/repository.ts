import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CatalogueRole } from '../../../shared/catalogue-roles.js';
import { T } from '../../../shared/messages.js';
import { REORDER_POINT_DEFAULT } from '../../../shared/reorder.js';
import type { Catalogue, Member } from '../../../shared/schemas/catalogues.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { HttpError } from '../../lib/http-error.js';
import { nextTurn } from '../../lib/turns.js';
import { membershipTurn } from './membership.js';

/** Orders by role (the owner first), then by name: how members are listed. */
const ownerFirst = (a: Member, b: Member) =>
  Number(b.role === 'owner') - Number(a.role === 'owner') ||
  a.user.name.localeCompare(b.user.name) ||
  a.user.id.localeCompare(b.user.id);

const iso = (time: number | string) => new Date(Number(time)).toISOString();

/** Catalogues and their members: every statement the catalogue routes run. */
export class CatalogueRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /** The catalogues a user belongs to, as they see them: their own personal one first, then by name. */
  async listFor(userId: string): Promise<Catalogue[]> {
    const rows = await this.catalogueQuery(userId).execute();
    return rows
      .map((row) => this.toCatalogue(row, userId))
      .sort(
        (a, b) =>
          Number(b.personal) - Number(a.personal) ||
          a.name.localeCompare(b.name) ||
          a.id.localeCompare(b.id),
      );
  }

  /** One catalogue as a member sees it; undefined when they are not one. */
  async findFor(catalogueId: string, userId: string, db: DB = this.db) {
    const row = await this.catalogueQuery(userId, db)
      .where('catalogues.id', '=', catalogueId)
      .executeTakeFirst();
    return row && this.toCatalogue(row, userId);
  }

  private catalogueQuery(userId: string, db: DB = this.db) {
    return db
      .selectFrom('catalogue_members as mine')
      .innerJoin('catalogues', 'catalogues.id', 'mine.catalogue_id')
      .select((eb) => [
        'catalogues.id',
        'catalogues.name',
        'catalogues.created_at',
        'catalogues.reorder_point',
        'mine.role',
        eb
          .selectFrom('catalogue_members as all')
          .select((count) => count.fn.countAll<number>().as('n'))
          .whereRef('all.catalogue_id', '=', 'catalogues.id')
          .as('members'),
      ])
      .where('mine.user_id', '=', userId);
  }

  private toCatalogue(
    row: {
      id: string;
      name: string;
      created_at: number;
      reorder_point: number;
      role: CatalogueRole;
      members: unknown;
    },
    userId: string,
  ): Catalogue {
    return {
      id: row.id,
      name: row.name,
      // The caller's own: the one `/api/products` addresses (its id is theirs).
      personal: row.id === userId,
      role: row.role,
      members: Number(row.members),
      createdAt: iso(row.created_at),
      reorderPoint: Number(row.reorder_point),
    };
  }

  /**
   * A new shared catalogue, the caller its owner, unless they own `most` already (their personal
   * one aside): 409. The count and the insert take turns per user (an advisory lock on
   * PostgreSQL; SQLite runs one write transaction at a time), so parallel creations stop there.
   */
  async create(userId: string, name: string, now: number, most: number): Promise<Catalogue> {
    const id = randomUUID();
    await this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`catalogues-of:${userId}`}, 0))`.execute(
          trx,
        );
      }
      const { owned } = await trx
        .selectFrom('catalogue_members as m')
        .innerJoin('catalogues as c', 'c.id', 'm.catalogue_id')
        .select((eb) => eb.fn.countAll<number>().as('owned'))
        .where('m.user_id', '=', userId)
        .where('m.role', '=', 'owner')
        .where('c.personal', '=', 0)
        .executeTakeFirstOrThrow();
      if (Number(owned) >= most) throw new HttpError(409, T.cataloguesPerAccount(most));
      await trx
        .insertInto('catalogues')
        .values({ id, name, personal: 0, created_at: now, updated_at: now })
        .execute();
      await trx
        .insertInto('catalogue_members')
        .values({ catalogue_id: id, user_id: userId, role: 'owner', created_at: now })
        .execute();
    });
    return {
      id,
      name,
      personal: false,
      role: 'owner',
      members: 1,
      createdAt: iso(now),
      reorderPoint: REORDER_POINT_DEFAULT,
    };
  }

  async rename(trx: DB, catalogueId: string, name: string, now: number) {
    await trx
      .updateTable('catalogues')
      .set({ name, updated_at: now })
      .where('id', '=', catalogueId)
      .execute();
  }

  /**
   * Runs `work` in a transaction that first locks every membership row of the catalogue (on
   * PostgreSQL; SQLite runs one write transaction at a time): a product write holds its writer's
   * row from its start, so this waits for writes under way, and writes that start meanwhile wait
   * for this one and then see what it did. Rows are locked in one order, before anything else,
   * so two of these, or one and a write, never deadlock. `role` is the caller's role now
   * (undefined when they are no longer a member, or the catalogue is gone).
   */
  async locked<T>(
    catalogueId: string,
    userId: string,
    work: (trx: DB, role: CatalogueRole | undefined, personal: boolean) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await membershipTurn(trx, catalogueId, 'exclusive');
      const members = await trx
        .selectFrom('catalogue_members')
        .select(['user_id', 'role'])
        .where('catalogue_id', '=', catalogueId)
        .orderBy('user_id')
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .execute();
      const catalogue = await trx
        .selectFrom('catalogues')
        .select('personal')
        .where('id', '=', catalogueId)
        .executeTakeFirst();
      const role = members.find((member) => member.user_id === userId)?.role;
      return work(trx, catalogue && role, catalogue?.personal === 1);
    });
  }

  /** The image keys of a catalogue's products: their files go once the catalogue is deleted. */
  async imageKeys(trx: DB, catalogueId: string): Promise<string[]> {
    const rows = await trx
      .selectFrom('products')
      .select('image_key')
      .where('catalogue_id', '=', catalogueId)
      .where('image_key', 'is not', null)
      .execute();
    return rows.map((row) => row.image_key!);
  }

  /**
   * Deletes the catalogue; its members, activity and the rest go with it (its products went first,
   * in batches: deleteCatalogueProducts). Then a turn: the commit's cost grows with all the
   * deletion wrote (40 ms at 10,000 products, 70-110 at 20,000), this statement's cascade aside.
   */
  async delete(trx: DB, catalogueId: string) {
    await trx.deleteFrom('catalogues').where('id', '=', catalogueId).execute();
    await nextTurn();
  }

  async members(catalogueId: string, db: DB = this.db): Promise<Member[]> {
    const rows = await membersOf(db, catalogueId).execute();
    return rows.map(toMember).sort(ownerFirst);
  }

  async member(trx: DB, catalogueId: string, userId: string): Promise<Member | undefined> {
    const row = await membersOf(trx, catalogueId)
      .where('catalogue_members.user_id', '=', userId)
      .executeTakeFirst();
    return row && toMember(row);
  }

  async setRole(trx: DB, catalogueId: string, userId: string, role: CatalogueRole) {
    await trx
      .updateTable('catalogue_members')
      .set({ role })
      .where('catalogue_id', '=', catalogueId)
      .where('user_id', '=', userId)
      .execute();
  }

  async remove(trx: DB, catalogueId: string, userId: string) {
    await trx
      .deleteFrom('catalogue_members')
      .where('catalogue_id', '=', catalogueId)
      .where('user_id', '=', userId)
      .execute();
  }
}

const toMember = (row: {
  id: string;
  name: string;
  email: string;
  role: CatalogueRole;
  created_at: number;
}): Member => ({
  user: { id: row.id, name: row.name, email: row.email },
  role: row.role,
  joinedAt: iso(row.created_at),
});

/** A catalogue's members with the people they are, as the member answers show them. */
const membersOf = (db: DB, catalogueId: string) =>
  db
    .selectFrom('catalogue_members')
    .innerJoin('users', 'users.id', 'catalogue_members.user_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'catalogue_members.role',
      'catalogue_members.created_at',
    ])
    .where('catalogue_members.catalogue_id', '=', catalogueId);
