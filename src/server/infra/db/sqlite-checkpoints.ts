import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The checkpointer's code: its own connection to the file, a PASSIVE checkpoint on each message
 * (it copies what it can from the write-ahead log into the database without taking the write
 * lock, so neither readers nor writers wait for it). Plain CommonJS, so the worker needs no build.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing now: the next commit asks again.
  }
  parentPort.postMessage('done');
});
`;

/** How long the checkpointer stays after its last checkpoint before it ends (its memory goes). */
const IDLE_MS = 10_000;

/**
 * Checkpoints of an SQLite file in WAL mode, off the event loop. SQLite's own checkpoint runs in
 * the connection that commits, on the event loop: after a large transaction (an import of 50,000
 * rows leaves some 30 MB in the log) it copies the whole log back at once, holding every other
 * request for a few hundred milliseconds. The app's connections therefore turn it off, and each
 * commit asks this worker thread, started when first needed, to checkpoint instead.
 */
export class SqliteCheckpoints {
  private worker: Worker | undefined;
  private running = false;
  private again = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly file: string) {}

  /** A commit happened: checkpoint soon (requests while one runs make one more afterwards). */
  request() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    clearTimeout(this.idleTimer);
    this.start().postMessage('checkpoint');
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { file: this.file, driver } });
    worker.unref();
    worker.on('message', () => {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.request();
      } else {
        this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
      }
    });
    worker.on('error', () => {
      this.worker = undefined;
      this.running = false;
    });
    this.worker = worker;
    return worker;
  }

  /** Ends the worker, its connection closed (wait for it before the last connection closes). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.running = false;
    this.again = false;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Unreferenced while it works, so that it never keeps a process alive; referenced while it is
    // awaited, or a process with nothing else to do would end before the exit arrives.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }
}
