-- Keep account_day_flows in step with transactions. Statement-level with a
-- transition table, so a bulk insert of thousands of rows costs one grouped
-- upsert instead of one per row. Transactions are append-only (never updated
-- or deleted), so INSERT is the only event that changes the aggregate.
CREATE OR REPLACE FUNCTION account_day_flows_on_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_day_flows AS f (account_id, booked_date, direction, tenant_id, company_id, currency, tx_count, amount_sum)
  SELECT account_id, booked_date, direction, min(tenant_id::text)::uuid, min(company_id::text)::uuid, min(currency), count(*), sum(amount)
  FROM new_rows
  GROUP BY account_id, booked_date, direction
  ON CONFLICT (account_id, booked_date, direction)
  DO UPDATE SET tx_count = f.tx_count + EXCLUDED.tx_count, amount_sum = f.amount_sum + EXCLUDED.amount_sum;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_account_day_flows
AFTER INSERT ON transactions
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION account_day_flows_on_insert();
