/** Said when a write that cannot wait for the connection is tried offline. */
export class OfflineRefusal extends Error {
  constructor(action: string) {
    super(`You are offline. ${action} needs a connection.`);
    this.name = 'OfflineRefusal';
  }
}

/**
 * A request that is refused at once while the browser is offline, with what it was for, rather
 * than tried and reported as a lost connection. Only stock changes are kept to send later
 * (lib/stock-change): a product's fields, picture or deletion need the server's answer there and
 * then (a name taken, a code in use, an image to upload).
 */
export const needsConnection =
  <A extends unknown[], R>(action: string, request: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> =>
    navigator.onLine ? request(...args) : Promise.reject(new OfflineRefusal(action));
