import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

const foldersIn = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/**
 * The names a line of the architecture map gives after `label` (`features/ a, b (note), c: …`),
 * continued on the lines indented under it, up to the first colon.
 */
function namesAfter(map: string, label: string): string[] {
  const lines = map.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(label));
  expect(start, `the architecture map has a "${label}" line`).toBeGreaterThanOrEqual(0);
  const indent = lines[start]!.indexOf(label) + label.length;
  let text = lines[start]!.slice(indent);
  for (const line of lines.slice(start + 1)) {
    // A continuation is indented past the label; the next entry is not.
    if (line.slice(0, indent).trim() !== '') break;
    text += ` ${line.trim()}`;
  }
  return text
    .split(':')[0]!
    .replace(/\([^)]*\)/g, '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
}

describe('README.md', () => {
  it('opens with the two commands and stays short', () => {
    const blocks = [...readme.matchAll(/```sh\n([^`]*)```/g)].map((match) => match[1]!.trim());
    expect(blocks.slice(0, 2)).toEqual(['npm install && npm start', 'npm test']);
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it("names in its architecture map exactly the features' folders, on both sides", () => {
    const map = readme.split('## Architecture')[1]!.split('```')[1]!;
    const [server, client] = map.split('\n  client/');
    expect(namesAfter(server!, 'features/')).toEqual(foldersIn('src/server/features'));
    expect(namesAfter(server!, 'infra/')).toEqual(foldersIn('src/server/infra'));
    expect(namesAfter(client!, 'features/')).toEqual(foldersIn('src/client/features'));
  });
});
