let handler: (() => void) | undefined;

/** Called when a request that carried a token gets a 401: the token expired or was revoked. */
export function setUnauthorizedHandler(next: (() => void) | undefined) {
  handler = next;
}

export const notifyUnauthorized = () => handler?.();
