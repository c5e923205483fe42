/**
 * Fetches an ECB reference-rate file over HTTP and imports it, once or on a
 * schedule. Off unless the dashboard is given `FX_RATES_URL` (see
 * lib/server/fx-schedule.ts); nothing here runs by itself. The URL must serve
 * one of the text formats of parse.ts (e.g. the ECB's
 * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml or
 * eurofxref-hist-90d.xml), not a zip. Imported rows carry the URL as source.
 */
import type { DashboardDb } from "../db/client";
import { parseFxFile } from "./parse";
import type { FxFileFormat } from "./rate-file";
import { importRates, type FxImportResult } from "./store";

/** Largest response accepted (the full ECB history as XML is about 7 MB). */
export const MAX_RATE_FILE_BYTES = 32 * 1024 * 1024;

/** A fetch that failed before parsing: HTTP status, size, timeout or network. */
export class FxFetchError extends Error {
  readonly code = "fx_fetch_failed";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FxFetchError";
  }
}

export interface FetchRatesOptions {
  /** Milliseconds for the whole request, body included (default 30 s). */
  timeoutMs?: number;
  /** The fetch implementation (tests); default the global fetch. */
  fetchImpl?: typeof fetch;
}

/** Reads the body up to {@link MAX_RATE_FILE_BYTES}. */
async function readCapped(res: Response, url: string): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_RATE_FILE_BYTES) throw new FxFetchError(`${url}: response of ${declared} bytes is too large`);
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_RATE_FILE_BYTES) throw new FxFetchError(`${url}: response larger than ${MAX_RATE_FILE_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * GETs `url` and returns its text.
 * @throws FxFetchError for a network error, a timeout, a non-2xx status or a body over the size limit.
 */
export async function fetchRateFile(url: string, opts: FetchRatesOptions = {}): Promise<string> {
  const doFetch = opts.fetchImpl ?? fetch;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  let res: Response;
  try {
    res = await doFetch(url, { signal, redirect: "follow", headers: { accept: "application/xml, text/csv, text/*" } });
  } catch (err) {
    throw new FxFetchError(`${url}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new FxFetchError(`${url}: HTTP ${res.status}`);
  }
  try {
    return await readCapped(res, url);
  } catch (err) {
    if (err instanceof FxFetchError) throw err;
    throw new FxFetchError(`${url}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** What one fetch-and-import did. */
export interface FxFetchResult extends FxImportResult {
  url: string;
  format: FxFileFormat;
  dates: number;
}

/**
 * Fetches `url`, parses it and imports it in one transaction (source = the URL).
 * @throws FxFetchError (nothing fetched), FxFileError (malformed; nothing
 *   imported), database errors (nothing imported).
 */
export async function fetchAndImportRates(
  db: DashboardDb,
  url: string,
  opts: FetchRatesOptions = {},
): Promise<FxFetchResult> {
  const parsed = parseFxFile(await fetchRateFile(url, opts));
  const result = await importRates(db, parsed.rates, { source: url });
  return { url, format: parsed.format, dates: parsed.dates, ...result };
}

export interface FxScheduleOptions extends FetchRatesOptions {
  url: string;
  /** Milliseconds between runs. */
  intervalMs: number;
  /** Milliseconds before the first run (default 0). */
  firstDelayMs?: number;
  /** The database to import into (resolved on every run, so a failed open is retried). */
  getDb: () => Promise<DashboardDb>;
  /** Told about each run's outcome; a failed run never stops the schedule. */
  onResult?: (outcome: { ok: true; result: FxFetchResult } | { ok: false; error: unknown }) => void;
}

/** A running schedule: `runNow()` runs (or joins the run in progress); `stop()` ends it. */
export interface FxSchedule {
  runNow(): Promise<void>;
  stop(): void;
}

/**
 * Fetches and imports `url` now (after `firstDelayMs`) and then every
 * `intervalMs`. Runs never overlap; the timers do not keep the process alive.
 */
export function startFxRateSchedule(opts: FxScheduleOptions): FxSchedule {
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const runNow = (): Promise<void> => {
    running ??= (async () => {
      try {
        const result = await fetchAndImportRates(await opts.getDb(), opts.url, opts);
        opts.onResult?.({ ok: true, result });
      } catch (error) {
        opts.onResult?.({ ok: false, error });
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runNow().then(() => schedule(opts.intervalMs));
    }, ms);
    timer.unref();
  };
  schedule(opts.firstDelayMs ?? 0);
  return {
    runNow,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
