import { buildTheApp } from './support/server.js';

// The browser suite's build on its own: `npm test` (scripts/test.sh) runs it beside the unit
// suites, and the suite's global setup then finds it current.
console.log(`[e2e] ${await buildTheApp()}`);
