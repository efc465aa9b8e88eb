/** The loader hooks of module-trace.ts: they run on the loader's thread, apart from the app. */
import { appendFileSync } from 'node:fs';

type Load = (url: string, context: object) => Promise<unknown>;

export async function load(url: string, context: object, nextLoad: Load) {
  const result = await nextLoad(url, context);
  appendFileSync(process.env.MODULE_TRACE_FILE!, `${url}\n`);
  return result;
}
