import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StoredMail } from './local-mailbox.js';

/** The local mailbox's mails, newest first: what the development mailbox page lists. */
export async function listLocalMail(dir: string): Promise<StoredMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const mails = await Promise.all(
    names.map(
      async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as StoredMail,
    ),
  );
  return mails.sort((a, b) => b.sentAt.localeCompare(a.sentAt));
}
