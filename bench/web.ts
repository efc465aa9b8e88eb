/**
 * `npm run bench:web`: Lighthouse on the built app and real server, with an account and 20 products
 * with photos, auditing /auth/login, / and a detail page (mobile and desktop, cold cache,
 * BENCH_WEB_RUNS times, default 3); medians go to bench/results-web.md. Debian's Chromium (or
 * CHROMIUM_PATH). BENCH_WEB_REPORTS=<folder> keeps the JSON reports; BENCH_WEB_PAGES=login,details
 * audits only those pages (login, products, details), BENCH_WEB_PRESETS=mobile only that preset
 * (mobile, desktop). BENCH_WEB_BASELINE=<checkout> audits the build
 * in that checkout's dist/ too (e.g. an earlier version), in the same run, page by page in turns.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest } from '@playwright/test';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { newAccount } from '../e2e/support/accounts.js';
import { Api } from '../e2e/support/api.js';
import { ENV } from '../e2e/support/env.js';
import { buildTheApp, startBuiltServer, type RunningServer } from '../e2e/support/server.js';
import { capturingSmtpServer } from '../e2e/support/smtp.js';
import { photo } from './seed.js';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/chromium.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const PRODUCTS = 20;
const KB = 1000;

/** The targets: mobile performance, accessibility, CLS, blocking time and JS on the wire. */
const TARGETS = { performance: 95, accessibility: 100, cls: 0.01, mobileTbtMs: 150 };
const JS_BUDGET: Record<PageName, number | undefined> = {
  login: 130 * KB,
  products: 200 * KB,
  details: undefined,
};

/** The browser suite's Chromium and flags (e2e/support/chromium.ts), headless. */
const CHROME_FLAGS = ['--headless', ...CHROMIUM_ARGS];

type PageName = 'login' | 'products' | 'details';
type Preset = 'mobile' | 'desktop';

interface Figures {
  performance: number;
  accessibility: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsBytes: number;
}

let lighthouseVersion = '';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** What one Lighthouse report says, in the units of the results table. */
function figuresOf(lhr: Result): Figures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests =
    (
      lhr.audits['network-requests']?.details as
        { items: { resourceType?: string; transferSize?: number }[] } | undefined
    )?.items ?? [];
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    jsBytes: requests
      .filter((item) => item.resourceType === 'Script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

/**
 * One Lighthouse run on a fresh tab: the browser cache emptied, the session (or none) put into
 * local storage on the origin first, then the audit with Lighthouse's own storage reset off, so
 * that the token stays (the cache stays empty: nothing was loaded since it was cleared).
 */
/**
 * Lighthouse now and then fails a run of its own accord (NO_NAVSTART, a page that did not settle):
 * that run is done again, at most twice, rather than losing the whole benchmark.
 */
async function withRetries<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`[bench:web] ${(error as Error).message}: running it again`);
    }
  }
}

async function audit(
  browser: Browser,
  origin: string,
  url: string,
  preset: Preset,
  token?: string,
) {
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    // A cold visit: no service worker of an earlier run answering from its caches, no saved data.
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'service_workers,cache_storage,indexeddb',
    });
    await page.goto(`${origin}/api/health`);
    await page.evaluate((value) => {
      localStorage.clear();
      if (value) localStorage.setItem('AccessToken', value);
    }, token ?? null);
    const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: true,
        // The JavaScript profiler's samples in the kept traces (BENCH_WEB_REPORTS), to look into.
        ...(process.env.BENCH_WEB_REPORTS && {
          additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler',
        }),
      },
      config,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) {
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} on ${url}`);
    }
    lighthouseVersion = result.lhr.lighthouseVersion;
    if (process.env.BENCH_WEB_REPORTS) {
      // Every report in full, to look into (e.g. with the Lighthouse viewer).
      const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${preset}-${Date.now()}.json`;
      await writeFile(path.join(process.env.BENCH_WEB_REPORTS, name), JSON.stringify(result.lhr));
      // And the page's trace, for the DevTools performance panel.
      const trace = (result.artifacts as { Trace?: unknown }).Trace;
      if (trace) {
        const traceName = name.replace(/\.json$/, '.trace.json');
        await writeFile(path.join(process.env.BENCH_WEB_REPORTS, traceName), JSON.stringify(trace));
      }
    }
    return figuresOf(result.lhr);
  } finally {
    await page.close();
  }
}

/** Creates a confirmed account with PRODUCTS products, each with its own photo, via the API. */
async function seed(baseUrl: string) {
  const context = await playwrightRequest.newContext({ baseURL: baseUrl });
  try {
    const api = new Api(context);
    const account = await api.signUpAndConfirm(newAccount('bench'));
    const token = await api.login(account);
    let firstId = '';
    for (let i = 0; i < PRODUCTS; i += 1) {
      const image = await photo(1155 - i * 17, 866 - i * 9);
      const response = await context.post('/api/products', {
        headers: { authorization: `Bearer ${token}` },
        multipart: {
          name: `Bench product ${i + 1}`,
          price: String(10 + i),
          stock: String((i * 7) % 30),
          description: `A product of the web benchmark, number ${i + 1}, with a photo.`,
          image: { name: `photo-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: image },
        },
      });
      if (response.status() !== 201) {
        throw new Error(`product ${i + 1}: ${response.status()} ${await response.text()}`);
      }
      const { product } = (await response.json()) as { product: { id: string } };
      firstId ||= product.id;
    }
    return { token, productId: firstId };
  } finally {
    await context.dispose();
  }
}

const format = {
  ms: (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`,
  cls: (value: number) => value.toFixed(3),
  kb: (bytes: number) => `${(bytes / KB).toFixed(1)} KB`,
};

interface Row {
  build: string;
  page: PageName;
  path: string;
  preset: Preset;
  figures: Figures;
}

function report(rows: Row[]) {
  const misses: string[] = [];
  // The targets are this build's; a baseline's figures are there to compare with.
  for (const { page, path: where, preset, figures } of rows.filter((row) => row.build === THIS)) {
    const label = `${where} (${preset})`;
    if (preset === 'mobile' && figures.tbtMs > TARGETS.mobileTbtMs) {
      misses.push(`${label}: TBT ${format.ms(figures.tbtMs)} > ${TARGETS.mobileTbtMs} ms`);
    }
    if (preset === 'mobile' && figures.performance < TARGETS.performance) {
      misses.push(`${label}: performance ${figures.performance} < ${TARGETS.performance}`);
    }
    if (figures.accessibility < TARGETS.accessibility) {
      misses.push(`${label}: accessibility ${figures.accessibility} < ${TARGETS.accessibility}`);
    }
    if (figures.cls > TARGETS.cls) {
      misses.push(`${label}: CLS ${format.cls(figures.cls)} > ${TARGETS.cls}`);
    }
    const budget = JS_BUDGET[page];
    if (budget !== undefined && figures.jsBytes > budget) {
      misses.push(`${label}: JavaScript ${format.kb(figures.jsBytes)} > ${format.kb(budget)}`);
    }
  }
  const table = [
    '| page | preset | build | performance | accessibility | LCP | CLS | TBT | JS on the wire |',
    '| ---- | ------ | ----- | ----------: | ------------: | --: | --: | --: | -------------: |',
    ...rows.map(
      ({ build, path: where, preset, figures: f }) =>
        `| \`${where}\` | ${preset} | ${build} | ${f.performance} | ${f.accessibility} | ${format.ms(f.lcpMs)} | ${format.cls(f.cls)} | ${format.ms(f.tbtMs)} | ${format.kb(f.jsBytes)} |`,
    ),
  ].join('\n');
  return { table, misses };
}

/** The build of this checkout, and its label in the results. */
const THIS = 'this build';
const BASELINE = process.env.BENCH_WEB_BASELINE;

interface Target {
  build: string;
  baseUrl: string;
  token: string;
  productId: string;
}

async function main() {
  const chromePath = chromiumPath();
  console.log(`[bench:web] ${await buildTheApp()}`);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-web-'));
  const mailDir = path.join(tmp, 'mail');
  mkdirSync(mailDir);
  // The e2e mail reader (used by Api.signUpAndConfirm) finds the received mails here.
  process.env[ENV.mailDir] = mailDir;
  const smtp = await capturingSmtpServer(mailDir).start();
  const servers: RunningServer[] = [];
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    const targets: Target[] = [];
    const builds: [string, string | undefined][] = [[THIS, undefined]];
    if (BASELINE) builds.push([`baseline (${path.basename(path.resolve(BASELINE))})`, BASELINE]);
    for (const [build, checkout] of builds) {
      const dataDir = path.join(tmp, `data-${targets.length}`);
      mkdirSync(dataDir);
      const server = await startBuiltServer(
        {
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          DATA_DIR: dataDir,
          SMTP_URL: smtp.url,
          APP_SECRET: randomBytes(48).toString('base64url'),
          DATABASE_URL: undefined,
        },
        path.join(tmp, `server-${targets.length}.log`),
        checkout && path.resolve(checkout),
      );
      servers.push(server);
      targets.push({ build, baseUrl: server.baseUrl, ...(await seed(server.baseUrl)) });
    }
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const pages: {
      page: PageName;
      label: string;
      pathOf: (target: Target) => string;
      signedIn: boolean;
    }[] = [
      { page: 'login', label: '/auth/login', pathOf: () => '/auth/login', signedIn: false },
      { page: 'products', label: '/', pathOf: () => '/', signedIn: true },
      {
        page: 'details',
        label: '/details/product/{id}',
        pathOf: (target) => `/details/product/${target.productId}`,
        signedIn: true,
      },
    ];
    const only = process.env.BENCH_WEB_PAGES?.split(',');
    const presets = (['mobile', 'desktop'] as const).filter(
      (preset) => process.env.BENCH_WEB_PRESETS?.split(',').includes(preset) ?? true,
    );
    /** The performance score of every run, to show how much they vary. */
    const scoresOfRuns: string[] = [];
    const rows: Row[] = [];
    for (const { page, label, pathOf, signedIn } of pages) {
      if (only && !only.includes(page)) continue;
      for (const preset of presets) {
        // The builds in turns, run by run, so that both see the machine as it was.
        const runs = new Map<Target, Figures[]>(targets.map((target) => [target, []]));
        for (let run = 0; run < RUNS; run += 1) {
          for (const target of targets) {
            const url = target.baseUrl + pathOf(target);
            const session = signedIn ? target.token : undefined;
            runs
              .get(target)!
              .push(await withRetries(() => audit(browser, target.baseUrl, url, preset, session)));
          }
        }
        for (const [target, figuresOfRuns] of runs) {
          const figures = Object.fromEntries(
            (Object.keys(figuresOfRuns[0]!) as (keyof Figures)[]).map((key) => [
              key,
              median(figuresOfRuns.map((r) => r[key])),
            ]),
          ) as unknown as Figures;
          const scores = figuresOfRuns.map((r) => r.performance).join(', ');
          console.log(`[bench:web] ${label} ${preset} ${target.build}: performance ${scores}`);
          rows.push({ build: target.build, page, path: label, preset, figures });
          scoresOfRuns.push(`\`${label}\` ${preset} ${target.build}: ${scores}`);
        }
      }
    }
    await browser.disconnect();

    const { table, misses } = report(rows);
    const load = os.loadavg()[0]!.toFixed(1);
    const text = `# Web benchmark (Lighthouse ${lighthouseVersion})

\`npm run bench:web\`: the built app served by the real server on loopback, audited by Lighthouse's
mobile (simulated slow 4G, 4x CPU slowdown) and desktop presets, cold cache, with Debian's
Chromium. Medians of ${RUNS} runs each. The signed-in pages are of an account with ${PRODUCTS} products,
each with its own photo; the session is put into local storage before the audited load. "JS on the
wire" is the transfer size of every script response (brotli, headers included).${
      BASELINE
        ? ` The baseline is the build in another checkout's dist/ (\`BENCH_WEB_BASELINE\`), audited in
the same run, in turns with this one.`
        : ''
    } Run ${new Date().toISOString()}, ${os.cpus().length} cores, load average ${load} at the end.

${table}

Performance score of each run: ${scoresOfRuns.join('; ')}.

Targets (this build): mobile performance at least ${TARGETS.performance}, accessibility
${TARGETS.accessibility}, CLS at most ${TARGETS.cls}, mobile TBT at most ${TARGETS.mobileTbtMs} ms,
JavaScript at most ${format.kb(JS_BUDGET.login!)} on \`/auth/login\` and ${format.kb(JS_BUDGET.products!)} on \`/\`.
${misses.length ? `Missed:\n\n${misses.map((miss) => `- ${miss}`).join('\n')}` : 'All met.'}
`;
    await writeFile(path.join(here, 'results-web.md'), text);
    console.log(
      `\n${table}\n\n${misses.length ? `Missed:\n${misses.join('\n')}` : 'All targets met.'}`,
    );
  } finally {
    await chrome.kill();
    for (const server of servers) await server.stop();
    await smtp.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
