import { config } from 'zod/v4/core';

/**
 * zod compiles object parsers with `new Function` where it may. The app's Content-Security-Policy
 * has no 'unsafe-eval', and even zod's probe for it (a caught `new Function`) is reported as a
 * violation, so the client parses without it. app/root.tsx imports this first: zod decides when a
 * schema is built, and the schemas load later, on demand.
 */
config({ jitless: true });
