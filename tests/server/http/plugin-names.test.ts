import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { build } from '../support/build.js';

/**
 * Fastify's own module: every registration asks it for the plugin's name, through its exports.
 * A plugin without a name (fastify-plugin's, or `named()`'s) sends it through the exports of
 * every loaded CommonJS module, twice, which cost about a tenth of a second of every build().
 */
const pluginUtils = createRequire(import.meta.url)('fastify/lib/plugin-utils.js') as {
  getPluginName: (plugin: unknown) => string | null;
  getDisplayName: (plugin: unknown) => string | undefined;
};

it('names every plugin the app registers', async () => {
  const unnamed: string[] = [];
  let asked = 0;
  const getPluginName = pluginUtils.getPluginName;
  pluginUtils.getPluginName = (plugin) => {
    asked += 1;
    const name = getPluginName(plugin);
    if (!pluginUtils.getDisplayName(plugin)) unnamed.push(name ?? String(plugin).slice(0, 80));
    return name;
  };
  try {
    await build();
  } finally {
    pluginUtils.getPluginName = getPluginName;
  }
  // Fastify still asks here: were it to stop, this test would check nothing.
  expect(asked).toBeGreaterThan(50);
  // The API docs' UI registers a module of its own unnamed, found by its file: not ours to name.
  expect(unnamed.filter((name) => !name.includes('/node_modules/'))).toEqual([]);
});
