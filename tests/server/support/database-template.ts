import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../src/server/infra/db/open.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database that build() clones, or '' on SQLite. */
    postgresTemplate: string;
    /** A migrated SQLite file that build() copies into its DATA_DIR, or '' on PostgreSQL. */
    sqliteTemplate: string;
  }
}

/** The file name of SQLite's database in DATA_DIR (src/server/infra/db/sqlite.ts). */
export const SQLITE_FILE = 'stockroom.db';

/** `baseUrl` with another database name. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on a connection of its own (databases made and dropped). */
export async function onAdminConnection(baseUrl: string, query: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/**
 * Global setup of the server projects: every server a test file builds starts on a copy of one
 * database migrated here, rather than migrating an empty one itself, which took several times as
 * long as the copy (on SQLite, half a second to open and migrate and as much again to close,
 * against a few milliseconds). PostgreSQL copies with CREATE DATABASE … TEMPLATE, SQLite copies
 * the closed file. Migrating from empty stays tested: here for every run, and by the tests of
 * migrations, which ask for empty databases. Named per run, as several runs may share the
 * PostgreSQL server; nothing may stay connected to it, or copies fail.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-template-'));
    // Closing the last connection checkpoints the log into the file and removes it.
    await (await openDatabase({ dataDir })).close();
    project.provide('postgresTemplate', '');
    project.provide('sqliteTemplate', path.join(dataDir, SQLITE_FILE));
    return () => rm(dataDir, { recursive: true, force: true });
  }
  const name = `stockroom_template_${randomBytes(6).toString('hex')}`;
  await onAdminConnection(baseUrl, `create database ${name}`);
  const migrated = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), dataDir: '' });
  await migrated.close();
  project.provide('postgresTemplate', name);
  project.provide('sqliteTemplate', '');
  return () => onAdminConnection(baseUrl, `drop database if exists ${name} with (force)`);
}
