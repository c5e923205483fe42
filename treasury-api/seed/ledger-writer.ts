/**
 * Streams the generated demo ledger into the database:
 * transactions, closing / interim balance snapshots, coverage days and
 * intraday points, account by account and day by day, through
 * {@link BulkWriter}s, so memory stays flat whatever the scale.
 */
import type { Database } from "../db/client";
import { BulkWriter, sqlText, sqlTextOrNull } from "./bulk-insert";
import { formatMinor, generateAccountLedger, type LedgerOptions } from "./ledger";
import type { SeedOrganization } from "./organization";

/** Row counts written per table. */
export interface LedgerCounts {
  transactions: number;
  balanceSnapshots: number;
  coverageDays: number;
  intradayPoints: number;
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
  // PostgreSQL: two statements at once keep both CPU cores of a small machine busy.
  const concurrency = database.kind === "postgres" ? 2 : 1;
  const tx = new BulkWriter(
    database,
    "transactions",
    [
      "id",
      "tenant_id",
      "company_id",
      "account_id",
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
  );
  const balances = new BulkWriter(database, "balance_snapshots", [
    "id",
    "tenant_id",
    "company_id",
    "account_id",
    "balance_type",
    "as_of_date",
    "balance",
    "currency",
    "source",
  ]);
  const coverage = new BulkWriter(database, "coverage_days", [
    "id",
    "tenant_id",
    "company_id",
    "account_id",
    "date",
    "source",
    "completeness",
  ]);
  const intraday = new BulkWriter(database, "intraday_points", [
    "id",
    "tenant_id",
    "company_id",
    "account_id",
    "timestamp",
    "balance",
    "currency",
    "balance_type",
  ]);

  // PGlite has one connection: one transaction around the bulk load saves a
  // WAL flush per statement, which dominates its time on a data folder.
  const single = database.kind === "pglite";
  if (single) await database.exec("BEGIN");
  try {
    for (const account of org.accounts) {
      // The constant part of every row of this account, rendered once.
      const owner = `'${account.tenantId}','${account.companyId}','${account.id}'`;
      const cur = `'${account.currency}'`;
      const source = `'${account.coverageSource}'`;
      for (const day of generateAccountLedger(org, account, opts)) {
        for (const t of day.transactions) {
          tx.add(
            `('${t.id}',${owner},'${formatMinor(t.amountMinor)}',${cur},'${t.direction}',` +
              `'${t.bookedDate}','${t.bookedAt}','${t.valueDate}','${t.valueAt}',` +
              `${sqlText(t.counterpartyName)},${sqlText(t.remittance)},${sqlTextOrNull(t.endToEndId)},${source})`,
          );
        }
        const [bookedType, availableType] = day.isToday
          ? ["interim_booked", "interim_available"]
          : ["closing_booked", "closing_available"];
        balances.add(
          `('${day.bookedBalanceId}',${owner},'${bookedType}',` +
            `'${day.date}','${formatMinor(day.bookedMinor)}',${cur},${source})`,
        );
        balances.add(
          `('${day.availableBalanceId}',${owner},'${availableType}',` +
            `'${day.date}','${formatMinor(day.availableMinor)}',${cur},${source})`,
        );
        coverage.add(
          `('${day.coverage.id}',${owner},'${day.date}','${day.coverage.source}','${day.coverage.completeness}')`,
        );
        for (const p of day.intraday)
          intraday.add(
            `('${p.id}',${owner},'${p.timestamp}','${formatMinor(p.balanceMinor)}',${cur},'interim_booked')`,
          );
        await tx.maybeFlush();
        await balances.maybeFlush();
        await coverage.maybeFlush();
        await intraday.maybeFlush();
      }
      onProgress?.(tx.written, account.key);
    }
    await tx.close();
    await balances.close();
    await coverage.close();
    await intraday.close();
    if (single) await database.exec("COMMIT");
  } catch (err) {
    if (single) await database.exec("ROLLBACK").catch(() => undefined);
    throw err;
  }
  return {
    transactions: tx.written,
    balanceSnapshots: balances.written,
    coverageDays: coverage.written,
    intradayPoints: intraday.written,
  };
}
