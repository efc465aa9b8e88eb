import { describe, expect, it } from 'vitest';
import { M } from '../../../../src/shared/messages.js';
import {
  accountSteps,
  expectMessage,
  httpClient,
  NEW_PASSWORD,
  PASSWORD,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { LocalInbox } from '../../support/inbox.js';

/**
 * A client written to the spec alone, over real HTTP: it keeps the token login gave it and ignores
 * any other an answer may carry. After a password change it goes on to '/' signed in, so it reads
 * the current user and the product list with the token it has.
 */
describe('a client written to the spec changes the password', async () => {
  const server = await build();
  const steps = accountSteps(
    httpClient(await server.app.listen({ port: 0, host: '127.0.0.1' })),
    new LocalInbox(server),
  );

  it('goes on signed in with its token, while every other session of the account ends', async () => {
    const account = await steps.signedIn({ name: 'Spec Client' });
    const otherDevice = await steps.login(account.email, PASSWORD);

    const changed = await steps.changePassword(account.token, PASSWORD, NEW_PASSWORD);
    expect({ status: changed.status, body: changed.body }).toEqual({
      status: 200,
      body: { message: M.passwordChanged },
    });

    const user = await steps.user(account.token);
    expect({ status: user.status, body: user.body }).toEqual({
      status: 200,
      body: { user: { id: expect.any(String), name: 'Spec Client', email: account.email } },
    });
    const products = await steps.api({ method: 'GET', url: '/api/products', token: account.token });
    expect(products.status).toBe(200);
    expect(JSON.parse(products.text)).toMatchObject({ products: [] });

    expectMessage(await steps.user(otherDevice), 401, M.unauthorized);
    expectMessage(await steps.loginWith(account.email, PASSWORD), 400, M.badCredentials);
  });
});
