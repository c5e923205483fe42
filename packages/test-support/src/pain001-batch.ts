/**
 * One payment batch and its debtor for building pain.001 files in tests and the pain.001 benchmark: a EUR batch of
 * Nordlys Holding AS, executed 2026-12-01 (a `YYYY-MM-DD` date), created 2026-11-23T08:00:00.000Z, debited from a DNB
 * IBAN with its 11-character BIC.
 */
export const PAIN001_BATCH = {
  id: "0b7f3c2e-4a1d-4e5f-9a8b-1c2d3e4f5a6b",
  currency: "EUR",
  requested_execution_date: "2026-12-01",
  created_at: "2026-11-23T08:00:00.000Z",
};

/** The debtor of {@link PAIN001_BATCH}: name, IBAN and BIC as the pain.001 writer takes them. */
export const PAIN001_DEBTOR = { name: "Nordlys Holding AS", iban: "NO9386011117947", bic: "DNBANOKKXXX" };
