/**
 * The simulated bank behind a `folder` channel (docs/bank-channels.md "The simulated bank behind a channel"): the
 * bank's side of the exchange. It never touches our database; the API learns everything through its pull.
 *
 * Each run (`runFolderBankOnce`), per desk (one customer's inbox and outbox):
 * 1. receive: every pain.001 in the inbox (bare names only, at most 25 MB, hostile-file guard kept) is parsed and
 *    recorded under its message id in the bank's state folder, then moved out of the inbox into `received/`. A file
 *    it cannot read is moved to `refused/` with a `.reason.txt` beside it; a message id it has seen is dropped.
 * 2. take (BANK_PACE take delay after receipt): a pain.002 accepting every transfer (ACCP).
 * 3. settle (settle delay after the take, and not before the start of the requested execution date where the debtor
 *    account is — its IBAN's country): each transfer gets the direct simulator's verdict (`bankVerdict`: AC02 when the
 *    bank keeps no account of that IBAN and currency for the customer, AC04 / AM04 by the deterministic rule, else
 *    settled); a camt.054 books every settled payment, then a pain.002 gives the final status per transfer (ACSC or
 *    RJCT with the reason).
 * 4. day end: for each ended day (UTC) on which it booked payments from an account whose opening balance it knows,
 *    a camt.053 with the opening balance, that day's bookings and the closing balance.
 *
 * Exactly once across kill -9: every step first records its decision (time, verdicts) in the message's state file
 * (written to a temporary name and renamed), then writes its answer — whose bytes depend only on that state — to the
 * outbox through a temporary dot-name and a rename unless a file of that name is there already, then records the file
 * as written. A crash anywhere repeats at most the write of the same bytes under the same name: the file is found in
 * the outbox, or — if the API had pulled and removed it meanwhile — written again identically, which the API's
 * import-once by SHA-256 recognises (docs/bank-channels.md "Pull"). A lock file with the owner's process id keeps two
 * processes from running the bank at once; a lock whose process is gone (or older than ten minutes) is taken over.
 *
 * Answer file names: `<step time, UTC, compact>-<message id>-<n>-<kind>.xml` (n: 1 ack, 2 debit, 3 status), and
 * `<next day>T000000000Z-EOD-<IBAN>-<day>.xml` for statements, so that listing the outbox by name returns them in the
 * order they must be imported (a camt.054 before the pain.002 that follows it, a day's statement after its
 * notifications).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import { startOfBusinessDate } from "@treasury/contract/business-date";
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import type { BankSpeed } from "../config";
import { BANK_PACE, REJECTION_REASONS, bankVerdict, type RejectionReason } from "../domain/bank-simulator";
import { safeBankFileName } from "../channels/transport";
import {
  buildDebitNotification,
  buildEndOfDayStatement,
  buildStatusReport,
  parsePain001,
  type BankBooking,
  type ReceivedPain001,
} from "./bank-messages";

/** An account the bank keeps for a customer, with the booked balance its books open with. */
export interface FolderBankAccount {
  iban: string;
  currency: string;
  /** The booked balance at the end of `date` (decimal string); without it the bank writes no camt.053. */
  opening?: { date: string; balance: string };
}

/** One customer's desk: the two folders of its `folder` connection, seen from the bank. */
export interface FolderBankDesk {
  /** A bare name (letters, digits, `-`, `_`): the desk's folder in the bank's state. */
  name: string;
  /** Where the customer drops payment files (the connection's `inbox_dir`). */
  inboxDir: string;
  /** Where the bank writes its answers (the connection's `outbox_dir`). */
  outboxDir: string;
  accounts: FolderBankAccount[];
}

/** The bank: its own state folder and its desks. */
export interface FolderBank {
  stateDir: string;
  desks: FolderBankDesk[];
}

/** The bank's record of one received payment file (its state file, `<state>/<desk>/messages/<key>.json`). */
interface MessageState {
  fileName: string;
  receivedAt: string;
  message: ReceivedPain001;
  take?: { at: string };
  settle?: {
    at: string;
    /** Per `paymentInformationId|endToEndId`: settled, or rejected with the reason. */
    verdicts: Record<string, { status: "settled" } | { status: "rejected"; reason: RejectionReason }>;
  };
  /** Answer files written (names). */
  written: string[];
}

export interface FolderBankRunOptions {
  /** The bank's pace (BANK_PACE); `manual`: no delays. */
  speed: BankSpeed;
  /** The clock (default: the real time at each step). */
  now?: () => Date;
  /** Checked between steps: stop at a safe point when true. */
  shouldStop?: () => boolean;
  /** Test hook: runs after an answer file is in the outbox and before the bank records it; throwing ends the run. */
  afterWrite?: (fileName: string) => Promise<void> | void;
}

/** What one run did: the answer files written (names, in order), files refused, and whether another process ran. */
export interface FolderBankRunResult {
  received: string[];
  written: string[];
  refused: string[];
  /** Another live process holds the bank's lock: nothing was done. */
  busy: boolean;
}

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A file-safe key for a message id: the id itself when it is letters, digits and dashes, else its hash. */
function messageKey(messageId: string): string {
  return /^[A-Za-z0-9-]{1,35}$/.test(messageId) ? messageId : `H${sha(messageId).slice(0, 32)}`;
}

/** `2026-03-02T10:00:00.123Z` → `20260302T100000123Z` (sorts like the instant). */
function stamp(iso: string): string {
  return iso.replace(/[-:.]/g, "");
}

/** ISO 8601 with an explicit offset (`+00:00`), seconds precision. */
function withOffset(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Writes `data` to `file` atomically: a temporary name in the same folder, then a rename. */
async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** Reads at most `max` bytes of a file. @returns null when it is larger */
async function readBounded(file: string, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  let tooLarge = false;
  await new Promise<void>((resolve, reject) => {
    const src = createReadStream(file);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (total > max) {
          tooLarge = true;
          src.destroy();
          resolve();
          return done();
        }
        chunks.push(chunk);
        done();
      },
    });
    src.on("error", reject);
    sink.on("finish", resolve);
    src.pipe(sink);
  });
  return tooLarge ? null : Buffer.concat(chunks);
}

/** Age after which a lock file is taken over whoever holds it (a run takes seconds). */
const LOCK_STALE_MS = 10 * 60_000;

/**
 * Takes the bank's lock file (`<state>/bank.lock`, holding the owner's process id) unless a live process other than
 * this one holds it (a lock older than ten minutes is taken over too). @returns a release function, or null when
 * another process runs the bank
 */
async function takeLock(stateDir: string): Promise<(() => Promise<void>) | null> {
  const file = path.join(stateDir, "bank.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(file, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => fs.rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number((await fs.readFile(file, "utf8").catch(() => "")).trim());
      // A run takes seconds: a lock older than LOCK_STALE_MS is left over even if its process id was reused since.
      const age = Date.now() - ((await fs.stat(file).catch(() => null))?.mtimeMs ?? 0);
      let alive = false;
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && age < LOCK_STALE_MS) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      if (alive) return null;
      // Left by a process that died (kill -9), or by this one after a crash inside a run: taken over.
      await fs.rm(file, { force: true });
    }
  }
  return null;
}

interface DeskDirs {
  root: string;
  messages: string;
  received: string;
  refused: string;
  statements: string;
}

async function deskDirs(bank: FolderBank, desk: FolderBankDesk): Promise<DeskDirs> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(desk.name)) throw new Error(`folder bank desk name ${desk.name} is not bare`);
  const root = path.join(bank.stateDir, desk.name);
  const dirs = {
    root,
    messages: path.join(root, "messages"),
    received: path.join(root, "received"),
    refused: path.join(root, "refused"),
    statements: path.join(root, "statements"),
  };
  for (const d of [dirs.messages, dirs.received, dirs.refused, dirs.statements, desk.outboxDir, desk.inboxDir])
    await fs.mkdir(d, { recursive: true });
  return dirs;
}

async function saveState(dirs: DeskDirs, state: MessageState): Promise<void> {
  await writeAtomic(path.join(dirs.messages, `${messageKey(state.message.messageId)}.json`), JSON.stringify(state));
}

async function loadStates(dirs: DeskDirs): Promise<MessageState[]> {
  const names = (await fs.readdir(dirs.messages)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  const out: MessageState[] = [];
  for (const n of names.sort())
    out.push(JSON.parse(await fs.readFile(path.join(dirs.messages, n), "utf8")) as MessageState);
  return out;
}

/** Step 1: every new pain.001 of the inbox is recorded (see the module comment), then moved out of the inbox. */
async function receive(desk: FolderBankDesk, dirs: DeskDirs, now: Date, result: FolderBankRunResult): Promise<void> {
  const entries = await fs.readdir(desk.inboxDir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // Temporary upload names start with a dot; anything that is not a bare file name is never opened.
    if (!e.isFile() || e.name.startsWith(".")) continue;
    const source = path.join(desk.inboxDir, e.name);
    const name = safeBankFileName(e.name);
    const refuse = async (reason: string) => {
      const kept = `${stamp(now.toISOString())}-${name ?? sha(e.name).slice(0, 16)}`;
      await writeAtomic(path.join(dirs.refused, `${kept}.reason.txt`), `${reason}\n`);
      await fs.rename(source, path.join(dirs.refused, kept));
      result.refused.push(e.name);
    };
    if (name === null) {
      await refuse("refused file name (not a bare file name)");
      continue;
    }
    const bytes = await readBounded(source, STATEMENT_MAX_FILE_BYTES);
    if (bytes === null) {
      await refuse(`larger than ${STATEMENT_MAX_FILE_BYTES} bytes`);
      continue;
    }
    let message: ReceivedPain001;
    try {
      message = parsePain001(bytes.toString("utf8"), name);
    } catch (err) {
      await refuse(err instanceof Error ? err.message : String(err));
      continue;
    }
    const stateFile = path.join(dirs.messages, `${messageKey(message.messageId)}.json`);
    // A message id seen before (the customer sent the file again) is not processed twice.
    if (!(await exists(stateFile)))
      await saveState(dirs, { fileName: name, receivedAt: now.toISOString(), message, written: [] });
    await fs.rename(source, path.join(dirs.received, name));
    result.received.push(name);
  }
}

/** Writes one answer file unless it is in the outbox already, then records it in the message's state. */
async function answer(
  desk: FolderBankDesk,
  dirs: DeskDirs,
  state: MessageState,
  fileName: string,
  content: () => string,
  opts: FolderBankRunOptions,
  result: FolderBankRunResult,
): Promise<void> {
  if (state.written.includes(fileName)) return;
  const target = path.join(desk.outboxDir, fileName);
  if (!(await exists(target))) {
    await writeAtomic(target, content());
    result.written.push(fileName);
  }
  await opts.afterWrite?.(fileName);
  state.written.push(fileName);
  await saveState(dirs, state);
}

const verdictKey = (pmtInfId: string, e2e: string) => `${pmtInfId}|${e2e}`;

/** The bank's bookings of one message (settled transfers), with their references. */
function bookingsOf(state: MessageState): { iban: string; currency: string; booking: BankBooking }[] {
  const settle = state.settle;
  if (!settle) return [];
  const bookedAt = withOffset(new Date(settle.at));
  return state.message.payments.flatMap((p) =>
    p.transfers
      .filter((t) => settle.verdicts[verdictKey(p.paymentInformationId, t.endToEndId)]?.status === "settled")
      .map((t) => ({
        iban: p.debtorIban,
        currency: p.currency,
        booking: {
          reference: `B${sha(`${state.message.messageId}|${p.paymentInformationId}|${t.endToEndId}`).slice(0, 30)}`,
          endToEndId: t.endToEndId,
          amount: t.amount,
          creditorName: t.creditorName,
          remittance: t.remittance,
          creditorReference: t.creditorReference,
          bookedAt,
        },
      })),
  );
}

/**
 * The settle decision of a taken message when it is due — `pace.settle` after the take and not before the
 * requested execution date (midnight where the debtor account is) —: its time (strictly after the take's) and a
 * verdict per transfer. Null while not due. Pure: the caller saves it.
 */
function settleDecision(
  desk: FolderBankDesk,
  state: MessageState,
  takeAt: string,
  now: Date,
  settleAfterMs: number,
): NonNullable<MessageState["settle"]> | null {
  const due = Date.parse(takeAt) + settleAfterMs;
  const execution = Math.max(
    ...state.message.payments.map((p) => startOfBusinessDate(p.debtorIban.slice(0, 2), p.executionDate).getTime()),
  );
  if (now.getTime() < Math.max(due, execution)) return null;
  // Events of the settle step come strictly after the take's, even within one millisecond.
  const at = new Date(Math.max(now.getTime(), Date.parse(takeAt) + 1)).toISOString();
  const verdicts: NonNullable<MessageState["settle"]>["verdicts"] = {};
  for (const p of state.message.payments) {
    const hasAccount = desk.accounts.some((a) => a.iban === p.debtorIban && a.currency === p.currency);
    for (const t of p.transfers)
      verdicts[verdictKey(p.paymentInformationId, t.endToEndId)] = bankVerdict(
        { endToEndId: t.endToEndId, creditorName: t.creditorName },
        hasAccount,
      );
  }
  return { at, verdicts };
}

/**
 * Step 3's answers of a settled message, each written once ({@link answer}): per debtor account one debit
 * notification (camt.054; a pain.001 may carry several payment information blocks), then the final status report
 * (pain.002, ACSC or RJCT with its reason per transfer).
 */
async function answerSettlement(
  desk: FolderBankDesk,
  dirs: DeskDirs,
  state: MessageState,
  settle: NonNullable<MessageState["settle"]>,
  opts: FolderBankRunOptions,
  result: FolderBankRunResult,
): Promise<void> {
  const key = messageKey(state.message.messageId);
  const created = withOffset(new Date(settle.at));
  const bookings = bookingsOf(state);
  const accounts = [...new Set(bookings.map((b) => `${b.iban}|${b.currency}`))];
  for (const [i, acct] of accounts.entries()) {
    const [iban = "", currency = ""] = acct.split("|");
    const suffix = accounts.length > 1 ? `-${i + 1}` : "";
    await answer(
      desk,
      dirs,
      state,
      `${stamp(settle.at)}-${key}-2-debit${suffix}.xml`,
      () =>
        buildDebitNotification(
          `NTF${sha(`${key}|debit|${acct}`).slice(0, 32)}`,
          created,
          { iban, currency },
          bookings.filter((b) => `${b.iban}|${b.currency}` === acct).map((b) => b.booking),
        ),
      opts,
      result,
    );
  }
  await answer(
    desk,
    dirs,
    state,
    `${stamp(settle.at)}-${key}-3-status.xml`,
    () =>
      buildStatusReport(state.message, `STS${sha(`${key}|status`).slice(0, 32)}`, created, (pmtInfId, t) => {
        const v = settle.verdicts[verdictKey(pmtInfId, t.endToEndId)];
        return v?.status === "rejected"
          ? { endToEndId: t.endToEndId, code: "RJCT", reason: v.reason, info: REJECTION_REASONS[v.reason] }
          : { endToEndId: t.endToEndId, code: "ACSC" };
      }),
    opts,
    result,
  );
}

/**
 * Steps 2 and 3 for one message, as far as they are due: the take (saved before its acknowledgement is written),
 * then the settle decision (saved before any of its answers). Errors: the file system's.
 */
async function advance(
  desk: FolderBankDesk,
  dirs: DeskDirs,
  state: MessageState,
  now: Date,
  opts: FolderBankRunOptions,
  result: FolderBankRunResult,
): Promise<void> {
  const pace = BANK_PACE[opts.speed];
  const key = messageKey(state.message.messageId);
  if (!state.take) {
    if (now.getTime() < Date.parse(state.receivedAt) + pace.take) return;
    state.take = { at: now.toISOString() };
    await saveState(dirs, state);
  }
  const take = state.take;
  await answer(
    desk,
    dirs,
    state,
    `${stamp(take.at)}-${key}-1-ack.xml`,
    () =>
      buildStatusReport(
        state.message,
        `ACK${sha(`${key}|ack`).slice(0, 32)}`,
        withOffset(new Date(take.at)),
        (_, t) => ({
          endToEndId: t.endToEndId,
          code: "ACCP",
        }),
      ),
    opts,
    result,
  );
  if (!state.settle) {
    const settle = settleDecision(desk, state, take.at, now, pace.settle);
    if (!settle) return;
    state.settle = settle;
    await saveState(dirs, state);
  }
  await answerSettlement(desk, dirs, state, state.settle, opts, result);
}

/** Step 4: the camt.053 of every ended day with bookings, per account whose opening balance the bank knows. */
async function dayEnd(
  desk: FolderBankDesk,
  dirs: DeskDirs,
  states: MessageState[],
  today: string,
  result: FolderBankRunResult,
): Promise<void> {
  const all = states.flatMap(bookingsOf);
  for (const account of desk.accounts) {
    const opening = account.opening;
    if (!opening) continue;
    const mine = all
      .filter((b) => b.iban === account.iban && b.currency === account.currency)
      .map((b) => b.booking)
      .filter((b) => b.bookedAt.slice(0, 10) > opening.date)
      .sort((a, b) => a.bookedAt.localeCompare(b.bookedAt) || a.reference.localeCompare(b.reference));
    const days = [...new Set(mine.map((b) => b.bookedAt.slice(0, 10)))].filter((d) => d < today).sort();
    for (const day of days) {
      const marker = path.join(dirs.statements, `${account.iban}-${day}`);
      if (await exists(marker)) continue;
      // The booked balance at the start of the day: the opening books minus every payment booked since.
      const before = mine.filter((b) => b.bookedAt.slice(0, 10) < day);
      const start = before.reduce((sum, b) => sum.minus(b.amount), new Decimal(opening.balance)).toFixed();
      const name = `${stamp(`${nextDay(day)}T00:00:00.000Z`)}-EOD-${account.iban}-${day}.xml`;
      const target = path.join(desk.outboxDir, name);
      if (!(await exists(target))) {
        await writeAtomic(
          target,
          buildEndOfDayStatement(
            `EOD${sha(`${account.iban}|${day}`).slice(0, 32)}`,
            `${nextDay(day)}T00:00:00+00:00`,
            { iban: account.iban, currency: account.currency },
            day,
            start,
            mine.filter((b) => b.bookedAt.slice(0, 10) === day),
          ),
        );
        result.written.push(name);
      }
      await writeAtomic(marker, `${name}\n`);
    }
  }
}

/**
 * One run of the simulated bank over all its desks (see the module comment): receive, take, settle and day end, as
 * far as each is due at `opts.speed`. Safe to repeat after a crash at any point, and to call from several processes
 * (one runs, the others return `busy`).
 * @returns the files received, answers written and files refused in this run
 * @throws on file system errors (the run stops; the next one resumes where it stopped)
 */
export async function runFolderBankOnce(bank: FolderBank, opts: FolderBankRunOptions): Promise<FolderBankRunResult> {
  const result: FolderBankRunResult = { received: [], written: [], refused: [], busy: false };
  const clock = opts.now ?? (() => new Date());
  await fs.mkdir(bank.stateDir, { recursive: true });
  const release = await takeLock(bank.stateDir);
  if (!release) return { ...result, busy: true };
  try {
    for (const desk of bank.desks) {
      const dirs = await deskDirs(bank, desk);
      await receive(desk, dirs, clock(), result);
      const states = await loadStates(dirs);
      for (const state of states) {
        if (opts.shouldStop?.()) return result;
        await advance(desk, dirs, state, clock(), opts, result);
      }
      await dayEnd(desk, dirs, states, clock().toISOString().slice(0, 10), result);
    }
  } finally {
    await release();
  }
  return result;
}

/** The bank's configuration file in its folder (`bank.json`). */
export const FOLDER_BANK_CONFIG = "bank.json";

/**
 * Reads the bank kept in `dir` (`dir/bank.json`: its desks; its state in `dir/state`).
 * @returns the bank, or null when `dir` holds none
 */
export async function readFolderBank(dir: string): Promise<FolderBank | null> {
  const text = await fs.readFile(path.join(dir, FOLDER_BANK_CONFIG), "utf8").catch(() => null);
  if (text === null) return null;
  const { desks } = JSON.parse(text) as { desks: FolderBankDesk[] };
  return { stateDir: path.join(dir, "state"), desks };
}

/** Writes the bank's configuration (`dir/bank.json`) atomically. */
export async function writeFolderBank(dir: string, desks: FolderBankDesk[]): Promise<FolderBank> {
  await fs.mkdir(dir, { recursive: true });
  await writeAtomic(path.join(dir, FOLDER_BANK_CONFIG), `${JSON.stringify({ desks }, null, 2)}\n`);
  return { stateDir: path.join(dir, "state"), desks };
}
