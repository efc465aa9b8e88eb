/**
 * How every product route appears in the OpenAPI document (its token, rate limit and body errors
 * are documented from its config and scope: http/route-responses.ts, http/authenticate.ts).
 */
export const productDocs = { tags: ['products'] };
