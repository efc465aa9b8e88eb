import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { CLOCK_OFFSET_HEADER } from '../../src/server/http/request-clock-offset.js';
import { newAccount, type Account } from './accounts.js';
import { imagePath, type ImageName } from './images.js';
import { readCode } from './mail.js';

export interface ApiProduct {
  id: string;
  name: string;
  price: number;
  stock: number;
  description: string;
  image: string;
  thumbnail?: string;
}

export interface NewProduct {
  name: string;
  price: number;
  stock: number;
  description: string;
  image?: ImageName;
  sku?: string;
  /** Dollars, like price; may be 0. */
  cost?: number;
  tags?: string[];
}

const MIME_TYPES: Record<string, string> = { '.png': 'image/png', '.gif': 'image/gif' };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The API, for setting up what a test does not exercise itself (an account to log in with, products
 * to look at). Codes come from the received mail, never from the database.
 */
export class Api {
  constructor(private readonly request: APIRequestContext) {}

  /** `msAgo`: the server takes the sign-up as made that long ago (request-clock-offset.ts). */
  async signUp(account: Account, { msAgo = 0 } = {}): Promise<void> {
    const response = await this.request.post('/api/auth/signup', {
      data: { ...account, confirmPassword: account.password },
      headers: msAgo ? { [CLOCK_OFFSET_HEADER]: String(-msAgo) } : {},
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  async confirm(email: string): Promise<void> {
    const token = await readCode(email, { subject: /confirm/i });
    const response = await this.request.post('/api/auth/confirm-account', {
      data: { token, email },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  async login(account: Pick<Account, 'email' | 'password'>): Promise<string> {
    const response = await this.request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }

  /** A confirmed account, ready to log in: sign-up, code from the mail, confirmation. */
  async signUpAndConfirm(account: Account = newAccount()): Promise<Account> {
    await this.signUp(account);
    await this.confirm(account.email);
    return account;
  }

  /** POST /api/catalogues {name}: a catalogue the user owns; its id. */
  async createCatalogue(token: string, name: string): Promise<string> {
    const response = await this.request.post('/api/catalogues', {
      headers: bearer(token),
      data: { name },
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { catalogue: { id: string } }).catalogue.id;
  }

  /** POST /api/catalogues/{catalogueId}/invitations {email, role}. */
  async invite(token: string, catalogueId: string, email: string, role: string): Promise<void> {
    const response = await this.request.post(`/api/catalogues/${catalogueId}/invitations`, {
      headers: bearer(token),
      data: { email, role },
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  /** Accepts the newest invitation waiting for the user of this token. */
  async acceptInvitation(token: string): Promise<void> {
    const list = await this.request.get('/api/invitations', { headers: bearer(token) });
    expect(list.status(), await list.text()).toBe(200);
    const [invitation] = ((await list.json()) as { invitations: { id: string }[] }).invitations;
    expect(invitation, 'an invitation waits').toBeDefined();
    const response = await this.request.post(`/api/invitations/${invitation!.id}/accept`, {
      headers: bearer(token),
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  /** In the personal catalogue, or in the shared one `catalogueId` names. */
  async createProduct(
    token: string,
    product: NewProduct,
    { catalogueId }: { catalogueId?: string } = {},
  ): Promise<ApiProduct> {
    const { image, ...fields } = product;
    const multipart = new FormData();
    multipart.set('name', fields.name);
    multipart.set('price', String(fields.price));
    multipart.set('stock', String(fields.stock));
    multipart.set('description', fields.description);
    if (fields.sku !== undefined) multipart.set('sku', fields.sku);
    if (fields.cost !== undefined) multipart.set('cost', String(fields.cost));
    // One `tags` field per tag, as the form sends them.
    for (const tag of fields.tags ?? []) multipart.append('tags', tag);
    if (image) {
      const file = imagePath(image);
      const type = MIME_TYPES[path.extname(file)] ?? 'image/jpeg';
      multipart.set('image', new Blob([readFileSync(file)], { type }), path.basename(file));
    }
    const url = catalogueId ? `/api/catalogues/${catalogueId}/products` : '/api/products';
    const response = await this.request.post(url, { headers: bearer(token), multipart });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { product: ApiProduct }).product;
  }

  /** GET /api/products/{id}: the product, or the HTTP status when there is none. */
  async getProduct(token: string, id: string): Promise<ApiProduct | number> {
    const response = await this.request.get(`/api/products/${id}`, { headers: bearer(token) });
    if (!response.ok()) return response.status();
    return ((await response.json()) as { product: ApiProduct }).product;
  }

  /** POST /api/products/{id}/stock: changes the stock as another device would. */
  async adjustStock(
    token: string,
    id: string,
    delta: number,
    reason?: string,
  ): Promise<ApiProduct> {
    const response = await this.request.post(`/api/products/${id}/stock`, {
      headers: bearer(token),
      data: { delta, reason },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { product: ApiProduct }).product;
  }

  /** GET /api/products/{id}/movements: the product's last stock movements, newest first. */
  async movements(
    token: string,
    id: string,
  ): Promise<{ delta: number; newStock: number; note: string | null }[]> {
    const response = await this.request.get(`/api/products/${id}/movements?limit=50`, {
      headers: bearer(token),
    });
    expect(response.status(), await response.text()).toBe(200);
    return (
      (await response.json()) as {
        movements: { delta: number; newStock: number; note: string | null }[];
      }
    ).movements;
  }

  /** DELETE /api/products/{id}: as another device would. */
  async deleteProduct(token: string, id: string): Promise<void> {
    const response = await this.request.delete(`/api/products/${id}`, { headers: bearer(token) });
    expect(response.status(), await response.text()).toBe(200);
  }

  /** GET /api/products (newest first, the first page): the user's products. */
  async listProducts(token: string): Promise<ApiProduct[]> {
    const response = await this.request.get('/api/products?limit=100', { headers: bearer(token) });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { products: ApiProduct[] }).products;
  }

  /** The status of GET /api/auth/user with this token: 200 while the session lives. */
  async sessionStatus(token: string): Promise<number> {
    const response = await this.request.get('/api/auth/user', { headers: bearer(token) });
    return response.status();
  }

  /** POST /api/auth/logout: revokes the token, as a logout in another browser would. */
  async logout(token: string): Promise<void> {
    const response = await this.request.post('/api/auth/logout', { headers: bearer(token) });
    expect(response.status(), await response.text()).toBe(200);
  }
}
