import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshPostgresDatabase } from '../server/support/build.js';
import { freePort, startEntry, waitForOk, type Entry } from '../server/support/processes.js';
import { RoundRobinProxy } from '../support/round-robin-proxy.js';
import { TestS3Server } from '../support/s3.js';
import { TestSmtpServer } from '../support/smtp.js';

export interface Instance {
  /** Its own address, for a request that must reach this instance and no other. */
  url: string;
  entry: Entry;
}

export interface Cluster {
  proxy: RoundRobinProxy;
  instances: Instance[];
  databaseUrl: string;
  s3: TestS3Server;
  smtp: TestSmtpServer;
  /** Sends SIGTERM to every instance still running and resolves with their exit codes. */
  terminate(): Promise<(number | null)[]>;
  /**
   * Stops every instance (SIGTERM) and starts each again on its port and DATA_DIR, resolving once
   * all are ready: a deployment restarted.
   */
  restart(): Promise<void>;
  /** Stops everything and removes the database, the bucket and the data folders. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  size: number;
  /** The PostgreSQL server to make the cluster's empty database on. */
  postgresUrl: string;
  redisUrl: string;
  /** Variables every instance gets besides the cluster's own. */
  env?: Record<string, string>;
}

/**
 * Several real server processes (the production entry, NODE_ENV=production) on one empty
 * PostgreSQL database, one Redis, one S3-compatible bucket and one SMTP server, behind a
 * round-robin proxy: a deployment on one machine. They share only what the README says they must;
 * each has a DATA_DIR of its own, as it would on a machine of its own. They are started at the
 * same moment, so they run the migrations at the same moment.
 */
export async function startCluster({ size, postgresUrl, redisUrl, env = {} }: ClusterOptions) {
  const cleanups: (() => Promise<unknown>)[] = [];
  const instances: Instance[] = [];
  const terminate = async () => {
    for (const { entry } of instances) {
      if (entry.child.exitCode === null && entry.child.signalCode === null) {
        entry.child.kill('SIGTERM');
      }
    }
    return Promise.all(instances.map(({ entry }) => entry.exited));
  };
  const stop = async () => {
    for (const { entry } of instances) {
      const killer = setTimeout(() => entry.child.kill('SIGKILL'), 15_000);
      void entry.exited.finally(() => clearTimeout(killer));
    }
    await terminate();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };

  try {
    const database = await freshPostgresDatabase(postgresUrl);
    cleanups.push(database.drop);
    const s3 = await new TestS3Server().start();
    cleanups.push(() => s3.stop());
    const smtp = await new TestSmtpServer().start();
    cleanups.push(() => smtp.stop());
    const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
    const proxy = await new RoundRobinProxy(ports).start();
    cleanups.push(() => proxy.stop());

    const shared = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      APP_SECRET: randomBytes(32).toString('base64url'),
      PUBLIC_URL: proxy.url,
      SMTP_URL: smtp.url,
      REDIS_URL: redisUrl,
      S3_BUCKET: s3.options.bucket,
      S3_ENDPOINT: s3.options.endpoint,
      S3_REGION: s3.options.region,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
      // One proxy in front: the client's address is the last one it adds to X-Forwarded-For.
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      ...env,
    };
    const dataDirs = await Promise.all(
      ports.map(() => mkdtemp(path.join(tmpdir(), 'stockroom-cluster-'))),
    );
    cleanups.push(() =>
      Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))),
    );
    // All in one synchronous loop: the processes start within milliseconds of each other.
    const startAll = async () => {
      ports.forEach((port, i) => {
        const entry = startEntry({ ...shared, PORT: String(port), DATA_DIR: dataDirs[i]! });
        instances[i] = { url: `http://127.0.0.1:${port}`, entry };
      });
      const outcomes = await Promise.allSettled(
        instances.map(({ url, entry }) => waitForOk(`${url}/api/ready`, 60_000, entry)),
      );
      const failures = outcomes.flatMap((outcome, i) =>
        outcome.status === 'rejected' ? [`instance ${i}: ${String(outcome.reason)}`] : [],
      );
      if (failures.length > 0) throw new Error(failures.join('\n'));
    };
    await startAll();

    const cluster: Cluster = {
      proxy,
      instances,
      databaseUrl: database.url,
      s3,
      smtp,
      terminate,
      restart: async () => {
        await terminate();
        await startAll();
      },
      stop,
    };
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}
