/**
 * A catalogue's reorder point raised past every product's stock, then set back
 * (`npm run bench:scale`): the products that follow it all cross the new point, then all cross
 * back, each way in one transaction (products/point-change.ts). The wall and server CPU of each,
 * and the waits of another user's stock changes sent meanwhile: on SQLite they wait for the one
 * writer.
 */
import { changesBeside, waitsOf, type Waits } from './scale-catalogue.js';
import { costOf, send, type Client, type Cost } from './scale-requests.js';

/** Above every seeded stock (at most 60 in bench:scale's catalogues). */
const PAST_EVERY_STOCK = 1_000;

export interface PointChangeCost {
  /** Products to reorder before the change, and after it. */
  toReorder: { before: number; after: number };
  raise: Cost;
  lower: Cost;
  /** Another user's stock changes during both. */
  bystander: Waits;
}

const toReorder = async (client: Client) =>
  ((await send(client, 'GET', '/api/products/summary')) as { toReorder: number }).toReorder;

export async function measurePointChange(
  client: Client,
  bystander: Client,
  catalogueId: string,
): Promise<PointChangeCost> {
  console.log("  the catalogue's reorder point raised past every stock, then back…");
  const path = `/api/catalogues/${catalogueId}`;
  const { catalogue } = (await send(client, 'GET', path)) as {
    catalogue: { reorderPoint: number };
  };
  const before = await toReorder(client);
  let done = false;
  const beside = changesBeside(bystander, () => done);
  const setPoint = (reorderPoint: number) =>
    costOf(client, () => send(client, 'PATCH', path, { reorderPoint }));
  const measured = async () => {
    const raise = await setPoint(PAST_EVERY_STOCK);
    const after = await toReorder(client);
    return { toReorder: { before, after }, raise, lower: await setPoint(catalogue.reorderPoint) };
  };
  const costs = await measured().finally(() => (done = true));
  return { ...costs, bystander: waitsOf(await beside) };
}
