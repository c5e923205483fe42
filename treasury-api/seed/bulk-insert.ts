/**
 * Fast bulk inserts for seeding (a million
 * transactions within two minutes): rows are rendered as SQL literal tuples and sent as one
 * multi-row `INSERT … VALUES` per few thousand rows through `Database.exec`,
 * which works the same on PGlite and PostgreSQL and has no bind-parameter
 * limit. Up to `concurrency` statements are in flight while the next batch is
 * generated (PostgreSQL runs them on separate pool connections; PGlite queues
 * them). Callers flush only at day boundaries, so concurrent statements never
 * touch the same `account_day_flows` keys (no lock waits, no deadlocks). The
 * STATEMENT-level trigger on `transactions` (migration 0001) then runs once
 * per batch, not once per row.
 *
 * Only seed-generated values go through here; {@link sqlText} still quotes
 * every string so an apostrophe in a name cannot break the statement.
 */
import type { Database } from "../db/client";

/** A SQL string literal: single quotes doubled (standard_conforming_strings is on in both engines). */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A SQL string literal, or NULL. */
export function sqlTextOrNull(value: string | null): string {
  return value === null ? "NULL" : sqlText(value);
}

/** Buffers rendered rows of one table and writes them in large statements. */
export class BulkWriter {
  private rows: string[] = [];
  private inFlight = new Set<Promise<void>>();
  private failure: unknown = null;
  /** Rows handed to the database so far. */
  written = 0;

  /**
   * @param table table name
   * @param columns column names, in the order of each tuple
   * @param rowsPerStatement rows per INSERT statement
   * @param concurrency statements in flight at once (1 on PGlite, which runs one at a time anyway)
   */
  constructor(
    private readonly database: Database,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly rowsPerStatement = 4000,
    private readonly concurrency = 1,
  ) {}

  /** Adds one rendered tuple `(v1, v2, …)`; call {@link maybeFlush} regularly. */
  add(tuple: string): void {
    this.rows.push(tuple);
  }

  /** Sends a statement when a full batch is buffered (waits for the previous one first). */
  async maybeFlush(): Promise<void> {
    if (this.rows.length >= this.rowsPerStatement) await this.flush();
  }

  /** Sends whatever is buffered. @throws the error of a failed earlier statement. */
  async flush(): Promise<void> {
    while (this.inFlight.size >= this.concurrency) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
    if (!this.rows.length) return;
    const text = `INSERT INTO ${this.table} (${this.columns.join(", ")}) VALUES ${this.rows.join(",")}`;
    this.written += this.rows.length;
    this.rows = [];
    // Kept as a promise so that generating the next batch overlaps with this
    // statement; the error is remembered and rethrown at the next flush.
    const p: Promise<void> = this.database
      .exec(text)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Flushes the rest and waits for every statement. @throws the first statement error. */
  async close(): Promise<void> {
    await this.flush();
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
  }
}
