import { sql } from 'kysely';
import type { TestServer } from '../support/build.js';
import {
  createProductIn,
  uniqueName,
  freshEmail,
  must,
  productExists,
  randomUuid,
  roleOf,
  send,
  setMember,
  type Person,
} from './catalogue-world.js';

let skuSequence = 0;

/**
 * Whether a row with this id is in `table`, read straight from the database: what a fixture's
 * target being there comes to, without a request of the owner's for each look (the role matrix
 * made hundreds).
 */
async function exists(server: TestServer, table: string, id: string, where = sql`true`) {
  const { rows } =
    await sql`select 1 from ${sql.table(table)} where id = ${id} and ${where}`.execute(
      server.database.db,
    );
  return rows.length > 0;
}

/**
 * What the requests of one catalogue aim at, made on first use by its owner through the API and
 * made again only once a request used it up (a product deleted, an invitation revoked, a member
 * removed), so a refused request always finds its target as the allowed one would.
 */
export class Fixtures {
  private productId?: string;
  private victimId?: string;
  private invitationId?: string;
  private webhookId?: string;
  readonly sku = `SKU-${++skuSequence}`;
  private locationFixtures?: LocationFixtures;
  private supplierId?: string;
  private spareSupplierId?: string;
  private countFixtures?: CountFixtures;

  constructor(
    private readonly server: TestServer,
    readonly catalogueId: string,
    readonly owner: Person,
    readonly personal: boolean,
    /** A member other requests may change or remove; on a personal catalogue, its owner. */
    private readonly bystanderId: string,
  ) {}

  /** The catalogue's locations that requests aim at. */
  get locations(): LocationFixtures {
    this.locationFixtures ??= new LocationFixtures(this.server, this);
    return this.locationFixtures;
  }

  /** A supplier that stays: what reads and edits aim at. */
  async supplier(): Promise<string> {
    this.supplierId ??= await this.makeSupplier('Acme');
    return this.supplierId;
  }

  /** A supplier a delete may take; a new one once it is gone. */
  async spareSupplier(): Promise<string> {
    const there =
      this.spareSupplierId !== undefined &&
      (await exists(this.server, 'suppliers', this.spareSupplierId));
    if (!there) this.spareSupplierId = await this.makeSupplier('Spare');
    return this.spareSupplierId!;
  }

  private draftId?: string;
  private spareDraftId?: string;
  private orderedId?: string;

  /** A draft purchase order that stays: what reads and edits aim at. */
  async draftOrder(): Promise<string> {
    this.draftId ??= await this.makeOrder(false);
    return this.draftId;
  }

  /** A draft a delete may take; a new one once it is gone. */
  async spareDraft(): Promise<string> {
    const there =
      this.spareDraftId !== undefined &&
      (await exists(this.server, 'purchase_orders', this.spareDraftId));
    if (!there) this.spareDraftId = await this.makeOrder(false);
    return this.spareDraftId!;
  }

  /** An ordered purchase order of far more than any test receives: it stays receivable. */
  async orderedOrder(): Promise<string> {
    this.orderedId ??= await this.makeOrder(true);
    return this.orderedId;
  }

  private sendableId?: string;

  /**
   * An ordered purchase order not sent yet, to a supplier of its own with an address: a send
   * takes it (and the address's mail budget), so a new one once it was sent.
   */
  async sendableOrder(): Promise<string> {
    const unsent = sql`status = 'ordered' and sent_at is null`;
    if (
      this.sendableId &&
      (await exists(this.server, 'purchase_orders', this.sendableId, unsent))
    ) {
      return this.sendableId;
    }
    const supplierId = await this.makeSupplier('Mailed', freshEmail('supplier'));
    this.sendableId = await this.makeOrder(true, supplierId);
    return this.sendableId;
  }

  private async makeOrder(ordered: boolean, supplierId?: string): Promise<string> {
    const url = `/api/catalogues/${this.catalogueId}/purchase-orders`;
    const made = await must(
      this.server,
      this.owner,
      {
        method: 'POST',
        url,
        json: {
          supplierId: supplierId ?? (await this.supplier()),
          lines: [{ productId: await this.product(), quantity: 1_000_000, unitCost: 1 }],
        },
      },
      201,
    );
    const id = (made.body as { purchaseOrder: { id: string } }).purchaseOrder.id;
    if (ordered) {
      const json = { status: 'ordered' };
      await must(this.server, this.owner, { method: 'PATCH', url: `${url}/${id}`, json }, 200);
    }
    return id;
  }

  private async makeSupplier(name: string, email?: string): Promise<string> {
    const made = await must(
      this.server,
      this.owner,
      {
        method: 'POST',
        url: `/api/catalogues/${this.catalogueId}/suppliers`,
        json: { name: uniqueName(name), ...(email ? { email } : {}) },
      },
      201,
    );
    return (made.body as { supplier: { id: string } }).supplier.id;
  }

  /** The catalogue's stock counts that requests aim at. */
  get counts(): CountFixtures {
    this.countFixtures ??= new CountFixtures(this.server, this);
    return this.countFixtures;
  }

  /** A product that stays: what reads, edits and stock changes aim at. */
  async product(): Promise<string> {
    this.productId ??= await createProductIn(this.server, this.owner, this.catalogueId, {
      sku: this.sku,
    });
    return this.productId;
  }

  private moveEntryId?: number;

  /**
   * The activity entry of a stock movement of the product, made by the owner, that no undo has
   * taken yet: what an undo aims at; a new movement once one was undone.
   */
  async stockMoveEntry(): Promise<number> {
    if (this.moveEntryId !== undefined) {
      const { rows } =
        await sql`select 1 from activity_entries where undoes = ${this.moveEntryId}`.execute(
          this.server.database.db,
        );
      if (rows.length === 0) return this.moveEntryId;
    }
    const url = `/api/catalogues/${this.catalogueId}/products/${await this.product()}/stock`;
    await must(this.server, this.owner, { method: 'POST', url, json: { delta: 1 } }, 200);
    const entry = await this.server.database.db
      .selectFrom('activity_entries')
      .select('id')
      .where('catalogue_id', '=', this.catalogueId)
      .where('kind', '=', 'stock.moved')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    this.moveEntryId = entry.id;
    return entry.id;
  }

  /** A product a delete may take; a new one once it is gone. */
  async victim(): Promise<string> {
    if (!this.victimId || !(await productExists(this.server, this.victimId))) {
      this.victimId = await createProductIn(this.server, this.owner, this.catalogueId);
    }
    return this.victimId;
  }

  /** The member a role change or a removal aims at, a member again if one removed them. */
  async bystander(): Promise<string> {
    if (!this.personal && !(await roleOf(this.server, this.catalogueId, this.bystanderId))) {
      await setMember(this.server, this.catalogueId, this.bystanderId, 'viewer');
    }
    return this.bystanderId;
  }

  /**
   * A pending invitation, sent by the owner; a well-formed unknown id where the owner cannot
   * send one (what a refusal aims at then is the catalogue, not the invitation).
   */
  async invitation(): Promise<string> {
    const url = `/api/catalogues/${this.catalogueId}/invitations`;
    // Pending and unexpired: what the catalogue's list of invitations shows.
    const pending = sql`status = 'pending' and expires_at > ${this.server.clock.now()}`;
    if (
      this.invitationId &&
      (await exists(this.server, 'catalogue_invitations', this.invitationId, pending))
    ) {
      return this.invitationId;
    }
    const sent = await send(this.server, this.owner, {
      method: 'POST',
      url,
      json: { email: freshEmail('invitee'), role: 'viewer' },
    });
    if (sent.status !== 201) return randomUuid();
    this.invitationId = (sent.body as { invitation: { id: string } }).invitation.id;
    return this.invitationId;
  }

  /**
   * A webhook endpoint registered by the owner (at a name that never resolves, so nothing is
   * called); a well-formed unknown id where the owner cannot register one.
   */
  async webhook(): Promise<string> {
    const url = `/api/catalogues/${this.catalogueId}/webhooks`;
    if (this.webhookId && (await exists(this.server, 'webhooks', this.webhookId))) {
      return this.webhookId;
    }
    const added = await send(this.server, this.owner, {
      method: 'POST',
      url,
      json: { url: 'https://hooks.invalid/in', events: ['import.done'] },
    });
    if (added.status !== 201) return randomUuid();
    this.webhookId = (added.body as { webhook: { id: string } }).webhook.id;
    return this.webhookId;
  }
}

/** The catalogue's locations, made by the owner and made again once a delete took one. */
export class LocationFixtures {
  private locationId?: string;
  private emptyId?: string;

  constructor(
    private readonly server: TestServer,
    private readonly fixtures: Fixtures,
  ) {}

  private async make(name: string): Promise<string> {
    const { server, fixtures } = this;
    const made = await must(
      server,
      fixtures.owner,
      {
        method: 'POST',
        url: `/api/catalogues/${fixtures.catalogueId}/locations`,
        json: { name: uniqueName(name) },
      },
      201,
    );
    return (made.body as { location: { id: string } }).location.id;
  }

  private async exists(id: string) {
    const row = await this.server.database.db
      .selectFrom('locations')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A location that stays: what reads, renames and labels aim at. */
  async location(): Promise<string> {
    this.locationId ??= await this.make('Shelf');
    return this.locationId;
  }

  /** An empty location a delete may take; a new one once it is gone. */
  async empty(): Promise<string> {
    if (!this.emptyId || !(await this.exists(this.emptyId))) this.emptyId = await this.make('Bin');
    return this.emptyId;
  }
}

let tagSequence = 0;

/** A tag no count has aimed at: a scope of its own. */
export const freshTag = () => `t${++tagSequence}-${Math.random().toString(36).slice(2, 10)}`;

/** The catalogue's stock counts, started by the owner. */
export class CountFixtures {
  private openId?: string;
  private freshId?: string;

  constructor(
    private readonly server: TestServer,
    private readonly fixtures: Fixtures,
  ) {}

  private async start(scope: object): Promise<string> {
    const { server, fixtures } = this;
    const made = await must(
      server,
      fixtures.owner,
      { method: 'POST', url: `/api/catalogues/${fixtures.catalogueId}/counts`, json: { scope } },
      201,
    );
    return (made.body as { count: { id: string } }).count.id;
  }

  /** An open count over the fixtures' location, that stays: what reads and lines aim at. */
  async open(): Promise<string> {
    if (this.openId) {
      const row = await this.server.database.db
        .selectFrom('counts')
        .select('status')
        .where('id', '=', this.openId)
        .executeTakeFirst();
      if (row?.status === 'open') return this.openId;
    }
    const locationId = await this.fixtures.locations.location();
    this.openId = await this.start({ kind: 'location', locationId });
    return this.openId;
  }

  /**
   * An open count of a tag of its own: what a review, a posting or a cancel uses up; a new one
   * once one did.
   */
  async fresh(): Promise<string> {
    const open = sql`status = 'open'`;
    if (this.freshId && (await exists(this.server, 'counts', this.freshId, open))) {
      return this.freshId;
    }
    this.freshId = await this.start({ kind: 'tag', tag: freshTag() });
    return this.freshId;
  }
}

/** A new catalogue of the owner with the given members, for requests that use one up. */
export async function catalogueWith(
  server: TestServer,
  owner: Person,
  name: string,
  members: [Person, 'admin' | 'editor' | 'stock' | 'viewer'][],
) {
  const answer = await must(
    server,
    owner,
    { method: 'POST', url: '/api/catalogues', json: { name } },
    201,
  );
  const id = (answer.body as { catalogue: { id: string } }).catalogue.id;
  for (const [member, role] of members) await setMember(server, id, member.id, role);
  return id;
}
