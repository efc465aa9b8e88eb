/**
 * Preloaded into a server process (`--import` after tsx) to record every module it loads: each
 * URL that Node's ES module loader loads (CommonJS packages imported from ES modules included)
 * is appended to the file named by MODULE_TRACE_FILE, as it happens.
 */
import { register } from 'node:module';

register(new URL('./module-trace-hooks.ts', import.meta.url));
