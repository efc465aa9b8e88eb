import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../src/server/infra/db/open.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database that build() clones, or '' on SQLite. */
    postgresTemplate: string;
  }
}

/** `baseUrl` with another database name. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdminConnection(baseUrl: string, query: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/**
 * Global setup of the server projects on PostgreSQL: every server a test file builds starts on a
 * copy of one database migrated here (CREATE DATABASE … TEMPLATE), rather than migrating an empty
 * one itself, which took several times as long as the copy. Migrating from empty stays tested: here
 * for every run, and by the tests of migrations, which ask for empty databases. Named per run, as
 * several runs may share the PostgreSQL server; nothing may stay connected to it, or copies fail.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    project.provide('postgresTemplate', '');
    return;
  }
  const name = `stockroom_template_${randomBytes(6).toString('hex')}`;
  await onAdminConnection(baseUrl, `create database ${name}`);
  const migrated = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), dataDir: '' });
  await migrated.close();
  project.provide('postgresTemplate', name);
  return () => onAdminConnection(baseUrl, `drop database if exists ${name} with (force)`);
}
