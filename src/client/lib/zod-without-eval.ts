/**
 * zod compiles object parsers with `new Function` where it may. The app's Content-Security-Policy
 * has no 'unsafe-eval', and even zod's probe for it (a caught `new Function`) is reported as a
 * violation, so the client parses without it. app/root.tsx imports this first: zod decides when a
 * schema is built, and the schemas load later, on demand. zod keeps its settings on
 * `globalThis.__zod_globalConfig` and takes one that is already there, so setting it needs none of
 * zod's code on a page that parses nothing yet (its `config()` would bring 4 KB along).
 */
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };
