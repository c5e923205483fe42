/**
 * The prose part of the OpenAPI description: every decision (docs/architecture.md#decisions-the-spec-leaves-open)
 * this implementation takes where the spec says "not shown", and every
 * extension. Keep it in step with the code.
 */
export const OPENAPI_DESCRIPTION = (
  `
Local implementation of the Treasury Public API (interface version 2026-01-10), with a simulated bank.
All paths are relative to the base address, which ends in /public. Every path answers with and without a trailing slash.

## Forms
A token remembers the form it was issued in. /auth/tenant-token issues Form A tokens (bound to one tenant);
/auth/token/ issues Form B tokens (bound to the client's linked companies). A client is registered for one form;
asking the other token endpoint gives 400 unauthorized_client. Every response follows the form of the token:
Form A lists are bare arrays cut at \`limit\` (default 100, max 1000; \`page\`/\`page_size\` are refused with 400);
Form B lists use the pagination envelope with \`page\` (1-indexed) / \`page_size\` (default 100, max 1000), \`count\`,
\`total_pages\` and absolute \`next\` / \`previous\` URLs (null when absent). Form B also accepts \`limit\` as
\`page_size\` when \`page_size\` is absent. Unknown query parameters are refused with 400 naming them.
The \`next\` / \`previous\` URLs use the request's own scheme, host and port. X-Forwarded-Proto / X-Forwarded-Host are
ignored unless the server runs with TRUST_PROXY=1 (behind a reverse proxy that sets them); then the first value of
each replaces the request's scheme and host, and the internal port is dropped (a port is kept only when
X-Forwarded-Host names one).

## Headers and isolation
- Form A: X-Tenant-ID is required on every protected call (missing: 400 validation_error; not the token's tenant: 403).
  An optional X-Company-ID must name a company of that tenant (else 403) and narrows company-scoped data to it.
- Form B: X-Company-ID is required on company-scoped calls (bank data, reporting, ` +
  `payments; missing: 400; not linked: 403).
  On approvals and reconciliation it is optional: absent means every linked company. An X-Tenant-ID, if sent,
  must be the tenant that owns the client's companies (else 403).
- Objects outside the caller's scope are 404, never 403, so existence does not leak.
- When a body or query carries company_id it must equal X-Company-ID (400 naming company_id).
- Writes (POST, PATCH, PUT, DELETE) by a client whose write access is not approved: 403 permission_denied.

## Tokens
Opaque random bearer tokens (stored hashed), expires_in 3600, no refresh tokens. Client credentials by HTTP Basic
or (Form B) form fields client_id / client_secret. Token errors carry RFC 6749 §5.2 fields (error: invalid_request,
invalid_client, unauthorized_client, unsupported_grant_type, invalid_scope; error_description) plus message and details;
401 for bad client credentials, 400 for the rest; responses carry Cache-Control: no-store. A scope outside the client's
allowed set is invalid_scope; no scope requested means every allowed scope. Form A: a tenant the partner client is not
allowed for is 403 permission_denied.

## Errors
Body { "error": "<code>", "message": "<human text>", "details": {...} }. error carries the code name of spec §7.
Validation errors put field messages in details.errors keyed by field path (e.g. instructions[3].creditor_iban).
Also: 405 method_not_allowed (with Allow), 413 payload_too_large ` +
  `(body over 1 MiB; 8 MiB for POST /payments/batches), 415 unsupported_media_type
(a write body that is not JSON), 500 internal_error, 503 service_unavailable; never a stack trace.
Every response carries X-Request-ID (accepted from the caller when well-formed, else generated).

## Idempotency
Every write needs Idempotency-Key (1–255 visible ASCII characters; missing: 400). Retention 24 hours. Keys are per
OAuth client. The fingerprint is method, path without trailing slash, X-Company-ID and the canonical JSON body
(object key order does not matter). Same key and fingerprint: the stored status and body are replayed with
Idempotent-Replayed: true. Same key, other fingerprint: 409 conflict (details.reason = "payload_mismatch").
Same key while the first request is still running: 409 conflict (details.reason = "in_progress"). A 5xx outcome is
not stored, so a retry runs again. Keys live in the database, shared by every instance. The stored response is
written in the same database transaction as the request's changes: once a write has committed its key is done, so a
retry after a crash replays it and never runs it twice; a key left in_progress by a crash before the commit (nothing
was written) can be used again after 60 seconds. A 4xx answer undoes whatever the request had changed.

## Rate limits
Per OAuth client, fixed window, default 600 requests per 60 s. A token request counts against the client it
authenticates as, in the same window as that client's calls. Requests that are not authenticated (no or a bad bearer
token, token requests whose client credentials fail or that fail before them) count in a separate window per remote
address, five times larger by default; it never counts or blocks a token request that authenticates, so failures
from a shared egress address cannot stop token issuance. Every response carries X-RateLimit-Limit,
X-RateLimit-Remaining and X-RateLimit-Reset (Unix epoch seconds when the window resets) of the window it counted in.
429 throttled adds Retry-After (seconds); from the token endpoints also Cache-Control: no-store.

## Data decisions
- Transaction.amount is the absolute amount as a decimal string; direction (credit/debit) gives the sign.
- from_date / to_date filter on the bank's booking date (inclusive) for transactions, on as_of_date for balances,
  on date for coverage, on the UTC date of timestamp for intraday points. from_date after to_date is 400.
- Lists are sorted stably: transactions newest booking first (booked_date, booked_at, id descending); balances,
  coverage and intraday points oldest first; accounts and companies by name then id.
- balance_type: closing_booked, closing_available, interim_booked, interim_available (ISO 20022 CLBD, CLAV, ITBD, ITAV).
- coverage source: camt.053, mt940, api; completeness: complete, partial, missing.
- external_ref_type: IBAN (statement import also stores OTHER for non-IBAN account ids); account status: active, closed.
- iban_masked: first four characters, then *, then the last four.
- Company upsert (POST /companies): keyed on orgnr within the API client. 201 with the Company when created,
  200 when updated. A new company is linked to the calling Form B client. An orgnr held by a company the client may
  not access is 403 permission_denied with exactly the body of any other company the client may not access
  ("The company is not accessible to this client", details {}), so the answer does not tell whether it exists.
- Account upsert (POST /accounts): identity (tenant, bank_id, external_ref). 201 with the Account when created, 200 when
  updated; the same identity never duplicates. An identity held by another company the client can see is 409 conflict
  (details { field: "external_ref", account_id, company_id }); one held by a company the client cannot see is the same
  403 as above. The currency of an account that has transactions, balances, intraday points or coverage days cannot
  change: 409 conflict with details { field: "currency", currency: <the current one> }, nothing changed. An account
  without any of them may change its currency.
- Koncern breakdown: { koncern_id, companies: [{ company_id, name, balances: [{ currency, balance }] }], totals:
  [{ currency, balance }] } from each account's latest closing_booked balance, per currency, exact decimal.

## Reports
- All report figures are exact decimals computed in SQL (numeric), per currency, sorted by date then currency, and
  returned as lists in the token's form (Form A array with limit, Form B envelope). Optional filter currency.
- /reporting/cashflow/daily (alias /reporting/cashflow): per booking date and currency, inflow = sum of credits,
  outflow = sum of debits (positive), net = inflow − outflow. Days without bookings have no row.
- /reporting/positions/daily (alias /reporting/positions): per date and currency, the sum of the closing_booked
  balances of that date. Dates without snapshots have no row.
- Range defaults for both: to_date = today (UTC), from_date = to_date − 29 days (30 days).
- /reporting/forecast: per future date and currency, amount = latest position (each account's newest closing_booked
  balance) + for each day after that position the average net flow of the same ISO weekday over the 90 days before
  today (total net of those weekdays / number of those weekdays in the window, kept to 6 decimals) − open outgoing
  batches (created, pending_approval, approved, processing; total_amount) on their requested_execution_date (creation
  date when absent; an overdue open batch counts on the first projected day). Rounded half-even to the currency's
  minor units. Default range: tomorrow to 30 days ahead; days (1–366) gives the length from from_date; from_date
  must not be before today; at most 366 days.

## Payments and approvals
- Batch status: created → (submit, 202) pending_approval → (all approvals) approved → (bank) processing →
  completed (every instruction settled) / partially_completed (some) / failed (none); a rejection → rejected.
  Instruction status (ISO 20022 pain.002): pending (PDNG) → accepted (ACCP) → settled (ACSC) ` +
  `or rejected (RJCT, with a
  reason code); pending → cancelled when its batch is rejected. Approval request state: pending → partially_approved
  (below required_count) → approved; pending / partially_approved → rejected. An operation that does not fit the
  current state is 409 conflict with details { state, allowed } (allowed: the states it may start from).
- required_count is 1, or 2 when total_amount is at or above the four-eyes threshold of the batch currency (compared
  in that currency; configurable per currency, defaults EUR 100000.00, USD 100000.00, NOK 1000000.00, SEK 1000000.00,
  DKK 750000.00, any other currency 100000.00). Each approve counts one approver once; approve / reject take an optional body { approver?,
  reason? } (approver defaults to the client_id); a second decision by the same approver is 409
  (details.reason already_decided). GET /approvals/pending lists pending and partially_approved, oldest first.
- Four-eyes at API level (extension). POST /payments/batches takes an optional initiator (1–200 characters: the person
  who creates the batch, e.g. a user id); without it the initiator is the creating client's client_id. The batch
  stores it and returns it as initiator. Approve is refused with 403 permission_denied, details { reason: "four_eyes",
  rule } when:
  (rule "initiator") the approver equals the batch's initiator, compared ignoring case — so a client that creates
  and approves without naming anyone cannot approve its own batch;
  (rule "client_as_itself") required_count > 1 and the approver is the client's own client_id (no approver in the
  body, or the client_id named) while the same client has already approved this request under any name, or the same
  client has already approved it as itself and now names someone. One client alone thus never supplies two approvals
  without naming two people. Names are the client's assertion: the API cannot tell two people behind one client
  apart, so a client that names people is trusted for them (the dashboard names its signed-in users and keeps its own
  check). Reject is not restricted (an initiator may reject their own batch). The four-eyes checks come after the
  state check (a closed request answers 409 with its state) and before already_decided.
- Batch creation checks every rule at once and names each bad field (instructions[3].creditor_iban); nothing is
  created on a 400. requested_execution_date must not be before today in the company's time zone (its country's zone:
  Europe/Oslo for NO, Europe/Stockholm for SE, likewise DK, FI, DE, NL, GB; UTC for another country), the day the
  simulated bank executes it on: at 23:30 UTC a Norwegian company's today is already the next date. IBANs are stored
  in electronic format.
  POST /payments/batches accepts bodies up to 8 MiB (10,000 instructions need about 1.6 MB of JSON, more at the field
  maxima); every other route keeps 1 MiB.
- Lists: batches newest first (filters status, from_date / to_date on the UTC creation date); a batch's instructions in
  batch order (filter status); status events oldest first (occurred_at, id; filters status, from_date / to_date on the
  UTC date of occurred_at, batch_id, instruction_id). A status event is written for each change (accepted, settled,
  rejected, cancelled), none for the initial pending, each also sent as a payment.status.updated webhook.
- Simulated bank: takes approved batches (instructions accepted), then settles them, not before the requested
  execution date: a debit transaction per settled instruction on the company's first active account of the batch
  currency (by name), end_to_end_id in remittance and end_to_end_id, counterparty_name = creditor_name, booked today
  (UTC); the day's closing_booked balance and an interim_booked intraday point are updated; transaction.created
  webhooks; a reconciliation match is proposed for each booking. Rejections are deterministic: AC02 when the company
  has no active account in the currency (the batch fails), AC04 when creditor_name contains "REJECT" (any case), else
  by the first byte b of SHA-256(end_to_end_id): b < 5 AC04, 5 ≤ b < 8 AM04 (about 3 %). Pace (--bank-speed):
  instant (every due step at once), fast (2 s to take, 5 s to settle), realistic (1 min, 5 min), manual (no worker).

## Reconciliation
- Match states: proposed, confirmed, rejected. Confirm / reject only from proposed (else 409 conflict with
  details { state, allowed }). A transaction or an instruction is confirmed in at most one match: confirming a
  match whose transaction (instruction) is already confirmed elsewhere is 409 with details.reason
  transaction_already_matched (instruction_already_matched) and details.match_id.
- The matcher scores each pair 0–100 = 35 % amount + 35 % reference + 15 % date + 15 % name (score_breakdown):
  amount 100 when equal, 95→50 within 1 %, 50→0 within 5 %; reference 100 when the instruction's end_to_end_id is
  the transaction's end_to_end_id or appears in its remittance (90 ignoring spaces and punctuation); date 100 on the
  requested execution date (else submission date), 20 less per day apart; name: normalized Levenshtein similarity of
  creditor_name and counterparty_name (case, diacritics, punctuation and legal forms ignored). Proposed from score 60,
  at most 3 proposals per transaction, only for debits against settled / accepted instructions of the same company
  and currency that are not confirmed elsewhere.
- GET /reconciliation/matches: newest first; filters state, transaction_id, payment_instruction_id.
- POST /reconciliation/matches/{id}/reopen (extension): confirmed → proposed within 24 hours of the confirmation
  (decided_at), the decision cleared and kept in the API's reopen audit; another state 409 { state, allowed }, past
  24 hours 409 details.reason reopen_window_passed. Optional body { reviewer?, reason? }; Idempotency-Key required.

## Webhooks
- Endpoints belong to the calling OAuth client (and the tenant of its token); other clients get 404.
- Targets: url must be https on a public address. Refused at create and PATCH (400 validation_error on url, nothing
  stored) and again at connect time: http; the names localhost and *.localhost; addresses, literal or resolved, in
  loopback (127.0.0.0/8, ::1), private (10/8, 172.16/12, 192.168/16), shared (100.64/10), link-local (169.254/16
  including 169.254.169.254, fe80::/10), unique-local (fc00::/7), unspecified (0.0.0.0/8, ::), multicast (224/4,
  ff00::/8) and other special-purpose ranges (240/4, documentation, benchmarking, IETF assignments, NAT64, 6to4,
  Teredo, IPv4-compatible), IPv4-mapped IPv6 forms (::ffff:127.0.0.1) included. A name is refused when any address it
  resolves to is; at connect time the name is resolved once and the connection goes to the checked address (pinned,
  so DNS rebinding cannot switch it). A delivery or test to a refused target sends nothing and records only the
  error "target not allowed" (no connection detail). Development servers (demo mode, --allow-private-webhooks,
  TREASURY_API_ALLOW_PRIVATE_WEBHOOKS=1) allow http and every address, for receivers on the same machine.
- An event is delivered to the active endpoints subscribed to its type whose client can see the event's company
  (Form B: a linked company; Form A: the endpoint's tenant).
- Delivery: POST of { id, type, created_at, data } (data is the resource as the API returns it) with
  Content-Type: application/json, X-Service-Event-Id: <event id> and
  X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")> — one v1= per valid secret
  (two during the 24 h after a rotation). The key is the whole secret string, whsec_ prefix included. Receivers
  should reject timestamps more than 5 minutes away and compare in constant time.
- Success is a 2xx within 10 s. Redirects are never followed (a 3xx is a failure). Retries after 1 min, 5 min,
  30 min, 2 h, 6 h, 12 h and 24 h (±20 % jitter); after 8 attempts the delivery is failed. Every attempt is recorded
  (GET /webhooks/{id}/deliveries). Events are written to an outbox in the same transaction as the change; delivery is
  at least once, so receivers should de-duplicate by event id.

## Extensions (additive; the spec's fields stay as they are)
- Account: company_id, bank_id, status. AccountUpsert: optional name, bank_name.
- Transaction: end_to_end_id, booked_date, value_date.
- ApprovalRequest: approved_count, object_type (payment_batch), created_at, company_id. GET /approvals/{id}.
  Approve / reject accept an optional body { approver?, reason? }.
- ReconciliationMatch: score_breakdown { amount, date, reference, name } (each 0–100), created_at, company_id,
  decided_at, reviewer, reason. GET /reconciliation/matches/{id}. ` +
  `Confirm / reject accept an optional body { reviewer?, reason? }. ReconciliationMatch.origin: matcher or manual.
- GET /reconciliation/unmatched?kind=instruction|transaction: settled instructions or booked debit transactions that
  no confirmed match names, oldest first, with date (settlement / value date), account and proposed_matches; filters
  from_date, to_date, account_id, currency, min_amount, max_amount, q; sort date, -date, amount, -amount.
- POST /reconciliation/matches { instruction_id, transaction_id, note?, reviewer? } (write:reconciliation,
  Idempotency-Key): a match created confirmed by hand (origin manual), same company and currency, the transaction a
  debit; 409 when either side is already confirmed in a match.
- PaymentBatch: instruction_count, requested_execution_date, initiator; list filter status. PaymentBatchCreate: optional
  initiator (four-eyes, see Payments and approvals). PaymentInstruction: batch_id, status.
  GET /payments/batches/{id}/instructions.
- PaymentStatusEvent: batch_id, reason (ISO 20022 code on rejection); list filters batch_id, instruction_id.
- Webhook endpoint: secret only in the create / rotate response; PATCH accepts rotate_secret: true, after which the
  old secret stays valid for 24 hours and deliveries carry a v1= signature for each valid secret. Secrets are
  encrypted at rest (AES-256-GCM), also inside the stored response an idempotent replay returns.
  GET /webhooks/{id}/deliveries (delivery log) and POST /webhooks/{id}/test (signed test event).
- GET /ping: trivial authenticated JSON route (benchmark floor). GET /healthz and /readyz outside /public.
- POST /statements (scope write:ledger, X-Company-ID, Idempotency-Key): multipart/form-data upload of one or more
  ISO 20022 camt.052 / camt.053 / camt.054 files (001.02-001.12) in the part "files"; all files in one transaction,
  importing a file again adds nothing. 200 { company_id, files: [StatementFileSummary] }; a file that cannot be read
  is a 400 validation_error with details { file, path } (the element) and nothing is stored. Bodies up to 100 MB.
  Entries the bank has not booked (no booking date, status PDNG, every camt.052 entry) are kept as pending apart from
  the transactions: Transaction, the transaction lists, balances and reports carry booked entries only, so the
  Transaction resource needs no status field. camt.052 ITBD / ITAV balances are intraday points until the day's
  camt.053 arrives.
`
).trim();
