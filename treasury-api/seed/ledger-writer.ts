/**
 * Streams the generated demo ledger into the database:
 * transactions, closing / interim balance snapshots, coverage days and
 * intraday points, account by account and day by day, through
 * {@link BulkWriter}s, so memory stays flat whatever the scale.
 */
import type { Database } from "../db/client";
import { BulkWriter, sqlText, sqlTextOrNull } from "./bulk-insert";
import { formatMinor, generateAccountLedger, type GeneratedDay, type LedgerOptions } from "./ledger";
import type { SeedAccount, SeedOrganization } from "./organization";

/** Row counts written per table. */
export interface LedgerCounts {
  transactions: number;
  balanceSnapshots: number;
  coverageDays: number;
  intradayPoints: number;
}

/** The four bulk writers of the ledger, one per table. */
interface LedgerWriters {
  tx: BulkWriter;
  balances: BulkWriter;
  coverage: BulkWriter;
  intraday: BulkWriter;
}

/**
 * One {@link BulkWriter} per ledger table, with its columns in the order {@link addDay} renders the rows. On
 * PostgreSQL the transactions writer runs two statements at once (both CPU cores of a small machine busy).
 */
function ledgerWriters(database: Database): LedgerWriters {
  const concurrency = database.kind === "postgres" ? 2 : 1;
  const owner = ["id", "tenant_id", "company_id", "account_id"];
  return {
    tx: new BulkWriter(
      database,
      "transactions",
      [
        ...owner,
        "amount",
        "currency",
        "direction",
        "booked_date",
        "booked_at",
        "value_date",
        "value_at",
        "counterparty_name",
        "remittance",
        "end_to_end_id",
        "source",
      ],
      4000,
      concurrency,
    ),
    balances: new BulkWriter(database, "balance_snapshots", [
      ...owner,
      "balance_type",
      "as_of_date",
      "balance",
      "currency",
      "source",
    ]),
    coverage: new BulkWriter(database, "coverage_days", [...owner, "date", "source", "completeness"]),
    intraday: new BulkWriter(database, "intraday_points", [
      ...owner,
      "timestamp",
      "balance",
      "currency",
      "balance_type",
    ]),
  };
}

/**
 * Queues the rows of one generated day of `account`: its transactions, the booked and available balance (closing,
 * or interim today), the coverage day and the intraday points. Amounts as decimal strings ({@link formatMinor}).
 */
function addDay(w: LedgerWriters, account: SeedAccount, day: GeneratedDay): void {
  // The constant part of every row of this account.
  const owner = `'${account.tenantId}','${account.companyId}','${account.id}'`;
  const cur = `'${account.currency}'`;
  const source = `'${account.coverageSource}'`;
  for (const t of day.transactions) {
    w.tx.add(
      `('${t.id}',${owner},'${formatMinor(t.amountMinor)}',${cur},'${t.direction}',` +
        `'${t.bookedDate}','${t.bookedAt}','${t.valueDate}','${t.valueAt}',` +
        `${sqlText(t.counterpartyName)},${sqlText(t.remittance)},${sqlTextOrNull(t.endToEndId)},${source})`,
    );
  }
  const [bookedType, availableType] = day.isToday
    ? ["interim_booked", "interim_available"]
    : ["closing_booked", "closing_available"];
  w.balances.add(
    `('${day.bookedBalanceId}',${owner},'${bookedType}',` +
      `'${day.date}','${formatMinor(day.bookedMinor)}',${cur},${source})`,
  );
  w.balances.add(
    `('${day.availableBalanceId}',${owner},'${availableType}',` +
      `'${day.date}','${formatMinor(day.availableMinor)}',${cur},${source})`,
  );
  w.coverage.add(
    `('${day.coverage.id}',${owner},'${day.date}','${day.coverage.source}','${day.coverage.completeness}')`,
  );
  for (const p of day.intraday)
    w.intraday.add(`('${p.id}',${owner},'${p.timestamp}','${formatMinor(p.balanceMinor)}',${cur},'interim_booked')`);
}

/**
 * Writes the ledger of every account of `org`.
 * @param onProgress called after each account with the transactions written so far
 * @throws the first database error
 */
export async function writeDemoLedger(
  database: Database,
  org: SeedOrganization,
  opts: LedgerOptions,
  onProgress?: (transactions: number, accountKey: string) => void,
): Promise<LedgerCounts> {
  const w = ledgerWriters(database);
  const all = [w.tx, w.balances, w.coverage, w.intraday];
  // PGlite has one connection: one transaction around the bulk load saves a
  // WAL flush per statement, which dominates its time on a data folder.
  const single = database.kind === "pglite";
  if (single) await database.exec("BEGIN");
  try {
    for (const account of org.accounts) {
      for (const day of generateAccountLedger(org, account, opts)) {
        addDay(w, account, day);
        for (const writer of all) await writer.maybeFlush();
      }
      onProgress?.(w.tx.written, account.key);
    }
    for (const writer of all) await writer.close();
    if (single) await database.exec("COMMIT");
  } catch (err) {
    if (single) await database.exec("ROLLBACK").catch(() => undefined);
    throw err;
  }
  return {
    transactions: w.tx.written,
    balanceSnapshots: w.balances.written,
    coverageDays: w.coverage.written,
    intradayPoints: w.intraday.written,
  };
}
