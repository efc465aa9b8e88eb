import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { CsvError, parse, type InfoRecord, type Options, type Parser } from 'csv-parse';
import { IMPORT_MAX_RECORD_BYTES, IMPORT_MAX_ROWS } from '../../../shared/constants.js';
import { M, T } from '../../../shared/messages.js';
import type { ImportError } from '../../../shared/schemas/catalogue.js';
import { CsvBounds, type BoundsBreach } from './csv-bounds.js';
import { Utf8Check } from './utf8-check.js';

/**
 * Why a file cannot be imported at all, whatever its rows: too large (413), or not a catalogue
 * (400: no header, a missing or repeated column, malformed CSV, too many rows).
 */
export class ImportRefused extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    readonly errors: ImportError[],
  ) {
    super(errors[0]!.message);
    this.name = 'ImportRefused';
  }
}

const refused = (line: number, path: string, message: string) =>
  new ImportRefused(400, [{ line, path, message }]);

/** Line breaks as a spreadsheet counts them: CRLF, LF or CR. */
const BREAKS = /\r\n|\r|\n/g;
const breaks = (text: string) => text.match(BREAKS)?.length ?? 0;
const LEADING_BREAKS = /^[\r\n]*/;

/** Bytes of the file parsed in one turn of the event loop: a few dozen records at most. */
const SLICE_BYTES = 8 * 1024;

/** Resolves once the parser takes more input, or is gone. */
const drained = (parser: Parser) =>
  new Promise<void>((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });

/** A record and the line it starts on (the header is line 1). */
export interface LineRecord {
  line: number;
  cells: string[];
}

/**
 * Parses CSV as it streams in with csv-parse (RFC 4180: quoted fields with commas, quotes and line
 * breaks; a BOM; CRLF, LF or CR; blank lines skipped; rows shorter or longer than the header
 * kept). Each record is numbered by the line it starts on, counted from its raw text: csv-parse's
 * own counter counts a CRLF inside a quoted field twice. Counting happens as records are parsed,
 * in order, so a malformed record is placed exactly even when the records before it were parsed
 * in the same chunk.
 */
function csvRecords(file: Readable) {
  let consumed = 0;
  const parser = parse({
    bom: true,
    raw: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // CsvBounds refuses a record past its bounds first; this is the parser's own guard.
    max_record_size: IMPORT_MAX_RECORD_BYTES,
    // With `raw`, each record comes as {record, raw}; it leaves the parser as a LineRecord.
    on_record: ((parsed: { record: string[] }, { raw = '' }: InfoRecord): LineRecord => {
      // Blank lines skipped before a record come at the start of its raw text.
      const line = 1 + consumed + breaks(LEADING_BREAKS.exec(raw)![0]);
      consumed += breaks(raw);
      return { line, cells: parsed.record };
    }) as unknown as Options['on_record'],
  });
  // Errors reach the reader through its iteration; one raised after it stopped reading (a write
  // into a parser it gave up on) needs no one.
  parser.on('error', () => undefined);
  // Text that is not UTF-8 (a spreadsheet's "CSV" in Windows-1252, UTF-16) would come in with
  // U+FFFD in place of its accents: refused instead, at the line of the first such byte.
  const utf8 = new Utf8Check();
  const notUtf8 = (line: number | undefined) => {
    if (line !== undefined) parser.destroy(refused(line, 'file', M.importNotUtf8));
  };
  // A record past its bounds is refused before the parser holds more than a chunk of it.
  const bounds = new CsvBounds();
  const outOfBounds = (breach: BoundsBreach | undefined) => {
    if (breach) parser.destroy(tooLarge(breach.line, breach.reason));
  };
  // The file is fed to the checks and the parser a slice at a time, a turn of the event loop
  // after each: a parser handed what arrived at once (a socket's backlog, several uploads side by
  // side) would parse megabytes in one go while every other request waits.
  let stopped = false;
  const feed = async (chunk: Buffer) => {
    for (let at = 0; at < chunk.length && !stopped && !parser.destroyed; at += SLICE_BYTES) {
      const slice = chunk.subarray(at, at + SLICE_BYTES);
      notUtf8(utf8.push(slice));
      outOfBounds(bounds.push(slice));
      if (parser.destroyed) return;
      if (!parser.write(slice)) await drained(parser);
      await setImmediate();
    }
  };
  // Chunks are fed in order, the file paused meanwhile; its end may come before the last is fed.
  let fed = Promise.resolve();
  const then = (next: () => Promise<void> | void) => {
    fed = fed.then(next).catch((error: unknown) => {
      parser.destroy(error as Error);
    });
  };
  file.on('data', (chunk: Buffer) => {
    if (stopped) return;
    file.pause();
    then(async () => {
      await feed(chunk);
      if (!stopped) file.resume();
    });
  });
  file.on('end', () =>
    then(() => {
      if (stopped || parser.destroyed) return;
      notUtf8(utf8.end());
      parser.end();
    }),
  );
  /** Stops feeding the parser: what else arrives is dropped. */
  const stop = () => {
    stopped = true;
  };
  /** Where a parse error is: the line its record starts on, and the line it was found on. */
  const placeOf = (error: CsvError) => {
    const raw = String((error as CsvError & { raw?: unknown }).raw ?? '');
    const start = 1 + consumed + breaks(LEADING_BREAKS.exec(raw)![0]);
    return { start, at: start + breaks(raw.replace(LEADING_BREAKS, '')) };
  };
  return { parser, placeOf, stop };
}

/** A record past its bounds (cells or bytes), at the line it starts on. */
const tooLarge = (line: number, reason: BoundsBreach['reason']) =>
  refused(
    line,
    'file',
    reason === 'cells' ? T.importTooManyCells(line) : T.importRecordTooLong(line),
  );

/** A parse error as the import reports it, at the line a person would look at. */
function malformed(error: CsvError, place: { start: number; at: number }) {
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return tooLarge(place.start, 'bytes');
    case 'CSV_QUOTE_NOT_CLOSED':
      return refused(place.start, 'file', M.importUnclosedQuote);
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'INVALID_OPENING_QUOTE':
      return refused(place.at, 'file', M.importBadQuote);
    default:
      return refused(place.at, 'file', M.importMalformed);
  }
}

/**
 * Reads a CSV file with `check` over its records, a row at a time as it arrives. Throws
 * ImportRefused for a file that cannot be read at all. Whatever was found, the rest of the file is
 * read (and dropped) up to the size limit, so that one over it is refused as such (413) whatever
 * else is wrong with it; `truncated` says whether it was.
 */
export async function readCsvFile<T>(
  file: Readable,
  truncated: () => boolean,
  check: (records: AsyncIterable<LineRecord>) => Promise<T>,
): Promise<T> {
  const { parser, placeOf, stop } = csvRecords(file);
  let outcome: T | ImportRefused;
  try {
    outcome = await check(parser);
  } catch (error) {
    if (error instanceof ImportRefused) outcome = error;
    else if (error instanceof CsvError) outcome = malformed(error, placeOf(error));
    else throw error;
  }
  stop();
  file.resume();
  await finished(file).catch(() => undefined);
  if (truncated())
    throw new ImportRefused(413, [{ line: 1, path: 'file', message: M.importTooLarge }]);
  if (outcome instanceof ImportRefused) throw outcome;
  return outcome;
}

/** How long the checks run before others get a turn of the event loop. */
const TURN_MS = 5;

/**
 * A file's rows under its header, each with the columns `readHeader` made of it: a row without
 * any value (",,,", as spreadsheets leave at the end) is no row, and more than IMPORT_MAX_ROWS,
 * none, or no header at all (`empty`: what names the import's columns) refuse the file. The parser hands over a slice's records at once:
 * others get a turn of the event loop now and then, the checks of the rows included.
 */
export async function* csvRows<C>(
  records: AsyncIterable<LineRecord>,
  readHeader: (record: LineRecord) => C,
  empty: string,
): AsyncGenerator<{ record: LineRecord; columns: C }> {
  let columns: C | undefined;
  let lastLine = 1;
  let rows = 0;
  let turn = performance.now();
  for await (const record of records) {
    if (performance.now() - turn > TURN_MS) {
      await setImmediate();
      turn = performance.now();
    }
    lastLine = record.line;
    if (record.cells.every((cell) => cell.trim() === '')) continue;
    if (columns === undefined) {
      columns = readHeader(record);
      continue;
    }
    rows += 1;
    if (rows > IMPORT_MAX_ROWS) throw refused(record.line, 'file', M.importTooManyRows);
    yield { record, columns };
  }
  if (columns === undefined) throw refused(1, 'file', empty);
  if (rows === 0) throw refused(lastLine + 1, 'file', M.importNoRows);
}
