-- A transaction as the API's Transaction JSON, written once when the row is written (a stored generated column),
-- so a list page of 1,000 transactions concatenates stored text instead of formatting every row on every request
-- (docs/architecture.md#list-responses). Keys in the Transaction's order; the amount rounded to the currency's
-- minor units with any extra stored digits kept (formatAmount's rule; the currencies whose minor units are not 2
-- are the literal below, minorUnitsExceptionsJson() when this was written, checked by a test); timestamps ISO 8601
-- UTC with milliseconds; dates YYYY-MM-DD; free text escaped by to_json. Marked IMMUTABLE because its output
-- depends on its arguments only (the patterns name no locale-dependent field and the zone is fixed), which a
-- generated column requires. A change to the Transaction's shape redefines the function and recomputes the column.
CREATE OR REPLACE FUNCTION transaction_json(
  id uuid, account_id uuid, amount numeric, currency text, direction text, booked_at timestamptz,
  value_at timestamptz, counterparty_name text, remittance text, end_to_end_id text, booked_date date, value_date date
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '{"id":"' || id::text || '","account_id":"' || account_id::text
    || '","amount":"' || round(amount, greatest(min_scale(amount),
         coalesce(('{"AFN":0,"ALL":0,"BHD":3,"BIF":0,"CLP":0,"COP":0,"DJF":0,"GNF":0,"HUF":0,"IDR":0,"IQD":0,"IRR":0,"ISK":0,"JOD":3,"JPY":0,"KMF":0,"KPW":0,"KRW":0,"KWD":3,"LAK":0,"LBP":0,"LYD":3,"MGA":0,"MMK":0,"OMR":3,"PKR":0,"PYG":0,"RWF":0,"SLL":0,"SOS":0,"SYP":0,"TND":3,"UGX":0,"VND":0,"VUV":0,"XAF":0,"XOF":0,"XPF":0,"YER":0}'::jsonb ->> currency)::int, 2)))::text
    || '","currency":' || to_json(currency)::text
    || ',"direction":' || to_json(direction)::text
    || ',"booked_at":"' || to_char(booked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","value_at":"' || to_char(value_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","counterparty_name":' || coalesce(to_json(counterparty_name)::text, 'null')
    || ',"remittance":' || coalesce(to_json(remittance)::text, 'null')
    || ',"end_to_end_id":' || coalesce(to_json(end_to_end_id)::text, 'null')
    || ',"booked_date":"' || to_char(booked_date::timestamp, 'YYYY-MM-DD')
    || '","value_date":"' || to_char(value_date::timestamp, 'YYYY-MM-DD') || '"}'
$$;
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "json" text GENERATED ALWAYS AS (transaction_json(id, account_id, amount, currency, direction, booked_at, value_at, counterparty_name, remittance, end_to_end_id, booked_date, value_date)) STORED;
