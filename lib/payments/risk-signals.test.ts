import { describe, expect, it } from "vitest";
import {
  amountOutlierSignals,
  bankDetailsChangedSignals,
  computeRiskSignals,
  daysBetween,
  hasHighRisk,
  insufficientFundsSignals,
  median,
  newPayeeSignals,
  nameKey,
  nonBankingDaySignals,
  possibleDuplicateSignals,
  unverifiedCounterpartySignals,
  type BatchInstruction,
  type PastInstruction,
  type ReviewedBatch,
  type RiskContext,
} from "./risk-signals";

const IBAN_A = "NO9386011117947";
const IBAN_A_SPACED = "no93 8601 1117 947";
const IBAN_B = "NO8330001234567";
const IBAN_C = "NO7112345678903";
const TODAY = "2026-03-10"; // a Tuesday

const ins = (over: Partial<BatchInstruction> = {}): BatchInstruction => ({
  amount: "100.00",
  currency: "NOK",
  creditorName: "Nordic Supplies AS",
  creditorIban: IBAN_A,
  endToEndId: "E2E-NEW-1",
  ...over,
});
const batch = (instructions: BatchInstruction[], over: Partial<ReviewedBatch> = {}): ReviewedBatch => ({
  currency: "NOK",
  requestedExecutionDate: TODAY,
  instructions,
  ...over,
});
let n = 0;
const past = (over: Partial<PastInstruction> = {}): PastInstruction => ({
  batchId: `b-${++n}`,
  batchStatus: "completed",
  status: "settled",
  date: "2026-03-01",
  amount: "100.00",
  currency: "NOK",
  creditorName: "Nordic Supplies AS",
  creditorIban: IBAN_A,
  endToEndId: `E2E-OLD-${n}`,
  ...over,
});
/** Intl puts a no-break space between the currency code and the amount. */
const plain = (text: string | undefined) => text?.replaceAll("\u00a0", " ");
const ctx = (over: Partial<RiskContext> = {}): RiskContext => ({
  today: TODAY,
  history: [],
  counterparties: [],
  ...over,
});

describe("helpers", () => {
  it("counts whole calendar days and normalises names", () => {
    expect(daysBetween("2026-02-08", "2026-03-10")).toBe(30);
    expect(daysBetween("2026-03-10", "2026-02-08")).toBe(-30);
    expect(nameKey("  NORDIC  Supplies, A/S. ")).toBe("nordic supplies a s");
    expect(nameKey("Bjørn Ålesund")).toBe(nameKey("BJORN alesund"));
  });
  it("takes the median of decimal strings exactly", () => {
    expect(median(["3", "1", "2"])?.toFixed()).toBe("2");
    expect(median(["0.1", "0.2"])?.toFixed()).toBe("0.15");
    expect(median([])).toBeNull();
  });
});

describe("new payee", () => {
  it("flags an IBAN never paid, not one paid before in another notation", () => {
    const b = batch([ins({ creditorIban: IBAN_A_SPACED }), ins({ creditorIban: IBAN_B })]);
    const s = newPayeeSignals(b, ctx({ history: [past({ creditorIban: IBAN_A })] }));
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ code: "new_payee", severity: "medium", instruction: 1, evidence: { iban: IBAN_B } });
  });
  it("counts settled payments and known payees only, and ignores the batch's own instructions", () => {
    const b = batch([ins()], { id: "self" });
    expect(newPayeeSignals(b, ctx({ history: [past({ status: "pending" })] }))).toHaveLength(1);
    expect(newPayeeSignals(b, ctx({ history: [past({ status: "rejected" })] }))).toHaveLength(1);
    expect(newPayeeSignals(b, ctx({ history: [past({ batchId: "self" })] }))).toHaveLength(1);
    expect(newPayeeSignals(b, ctx({ knownPayees: [{ iban: "NO93 8601 1117 947" }] }))).toHaveLength(0);
  });
});

describe("unverified counterparty", () => {
  const cp = (status: string, iban = IBAN_A) => ({ id: "cp-1", name: "Nordic Supplies AS", iban, status, changes: [] });
  it("flags an ad-hoc creditor, naming a verified counterparty with the same IBAN", () => {
    const s = unverifiedCounterpartySignals(batch([ins()]), ctx({ counterparties: [cp("verified")] }));
    expect(s).toEqual([
      expect.objectContaining({
        code: "unverified_counterparty",
        evidence: { reason: "ad_hoc", iban: IBAN_A, verified_counterparty_with_this_iban: "cp-1" },
      }),
    ]);
  });
  it("flags a pending or rejected counterparty and an IBAN other than the counterparty's", () => {
    const pick = ins({ counterpartyId: "cp-1" });
    expect(
      unverifiedCounterpartySignals(batch([pick]), ctx({ counterparties: [cp("pending_verification")] }))[0]?.evidence,
    ).toMatchObject({ reason: "pending_verification" });
    expect(
      unverifiedCounterpartySignals(batch([pick]), ctx({ counterparties: [cp("rejected")] }))[0]?.evidence,
    ).toMatchObject({ reason: "rejected" });
    expect(
      unverifiedCounterpartySignals(batch([pick]), ctx({ counterparties: [cp("verified", IBAN_B)] }))[0]?.evidence,
    ).toMatchObject({ reason: "iban_differs", counterparty_iban: IBAN_B });
  });
  it("is silent for a verified counterparty whose IBAN is written differently", () => {
    const pick = ins({ counterpartyId: "cp-1", creditorIban: IBAN_A_SPACED });
    expect(unverifiedCounterpartySignals(batch([pick]), ctx({ counterparties: [cp("verified")] }))).toEqual([]);
  });
});

describe("bank details changed", () => {
  it("flags a known name paid to another IBAN before, with the old IBAN as evidence", () => {
    const history = [
      past({ creditorIban: IBAN_B, date: "2026-01-05" }),
      past({ creditorIban: IBAN_B, date: "2026-02-05" }),
    ];
    const s = bankDetailsChangedSignals(batch([ins({ creditorName: "NORDIC  supplies AS." })]), ctx({ history }));
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({
      severity: "high",
      evidence: { reason: "name_paid_to_other_iban", previous_ibans: [{ iban: IBAN_B, last_paid: "2026-02-05" }] },
    });
  });
  it("is silent for the same IBAN in another notation, another name, or a rejected batch", () => {
    const b = batch([ins({ creditorIban: IBAN_A_SPACED })]);
    expect(bankDetailsChangedSignals(b, ctx({ history: [past()] }))).toEqual([]);
    expect(
      bankDetailsChangedSignals(b, ctx({ history: [past({ creditorIban: IBAN_B, creditorName: "Other AS" })] })),
    ).toEqual([]);
    expect(
      bankDetailsChangedSignals(b, ctx({ history: [past({ creditorIban: IBAN_B, batchStatus: "rejected" })] })),
    ).toEqual([]);
  });
  it("flags a counterparty changed exactly 30 days ago, not 31", () => {
    const change = (at: string) => ({
      id: "cp-1",
      name: "Nordic Supplies AS",
      iban: IBAN_A,
      status: "verified",
      changes: [{ at, oldIban: IBAN_B, newIban: IBAN_A, byEmail: "t@example.com", reason: "letter" }],
    });
    const b = batch([ins({ counterpartyId: "cp-1" })]);
    const at30 = bankDetailsChangedSignals(b, ctx({ counterparties: [change("2026-02-08T23:59:00Z")] }));
    expect(at30).toHaveLength(1);
    expect(at30[0]?.evidence).toMatchObject({
      reason: "counterparty_changed_recently",
      changes: [{ old_iban: IBAN_B, new_iban: IBAN_A, by: "t@example.com" }],
    });
    expect(bankDetailsChangedSignals(b, ctx({ counterparties: [change("2026-02-07T12:00:00Z")] }))).toEqual([]);
    // Also found by IBAN when the instruction is ad hoc.
    expect(
      bankDetailsChangedSignals(
        batch([ins({ creditorIban: IBAN_A_SPACED })]),
        ctx({ counterparties: [change("2026-03-01T08:00:00Z")] }),
      ),
    ).toHaveLength(1);
  });
});

describe("possible duplicate", () => {
  it("flags the same IBAN and amount exactly 30 days before the execution date, not 31", () => {
    const b = batch([ins({ creditorIban: IBAN_A_SPACED, amount: "100.0" })]);
    const s = possibleDuplicateSignals(b, ctx({ history: [past({ date: "2026-02-08" })] }));
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ severity: "high", evidence: { matches: [{ why: ["same_iban_and_amount"] }] } });
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ date: "2026-02-07" })] }))).toEqual([]);
    // Within 30 days of the execution date, not of today.
    const later = batch([ins()], { requestedExecutionDate: "2026-04-01" });
    expect(possibleDuplicateSignals(later, ctx({ history: [past({ date: "2026-03-02" })] }))).toHaveLength(1);
    expect(possibleDuplicateSignals(later, ctx({ history: [past({ date: "2026-03-01" })] }))).toEqual([]);
  });
  it("does not match equal amounts in other currencies, other amounts, or money that did not leave", () => {
    const b = batch([ins()]);
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ currency: "SEK" })] }))).toEqual([]);
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ amount: "100.01" })] }))).toEqual([]);
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ batchStatus: "rejected" })] }))).toEqual([]);
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ status: "cancelled" })] }))).toEqual([]);
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ status: "rejected" })] }))).toEqual([]);
    // A pending batch not yet decided still counts.
    expect(
      possibleDuplicateSignals(b, ctx({ history: [past({ batchStatus: "pending_approval", status: "pending" })] })),
    ).toHaveLength(1);
  });
  it("flags the same end-to-end id or remittance text at any date and IBAN", () => {
    const b = batch([ins({ endToEndId: "INV-2026-001", remittanceInformation: "Invoice  4711" })]);
    const old = past({ date: "2025-01-01", creditorIban: IBAN_C, amount: "5.00" });
    expect(
      possibleDuplicateSignals(b, ctx({ history: [{ ...old, endToEndId: "inv-2026-001" }] }))[0]?.evidence,
    ).toMatchObject({
      matches: [{ why: ["same_end_to_end_id"] }],
    });
    expect(
      possibleDuplicateSignals(b, ctx({ history: [{ ...old, remittanceInformation: "invoice 4711" }] }))[0]?.evidence,
    ).toMatchObject({ matches: [{ why: ["same_remittance"] }] });
  });
  it("never matches the batch with itself, nor with batches created after it", () => {
    const b = batch([ins()], { id: "me", createdAt: "2026-03-05T10:00:00Z" });
    // Its own instructions in the history (by id) are skipped.
    expect(possibleDuplicateSignals(b, ctx({ history: [past({ batchId: "me" })] }))).toEqual([]);
    // A later batch paying the same again: the later one carries the signal, not this earlier one.
    const later = past({ batchCreatedAt: "2026-03-06T09:00:00Z", batchStatus: "pending_approval", status: "pending" });
    expect(possibleDuplicateSignals(b, ctx({ history: [later] }))).toEqual([]);
    const earlier = past({ batchCreatedAt: "2026-03-04T09:00:00Z" });
    expect(possibleDuplicateSignals(b, ctx({ history: [earlier] }))).toHaveLength(1);
  });
  it("says nothing about a batch the bank has taken (settled, rejected, processing)", () => {
    const history = [past({ batchCreatedAt: "2026-03-01T09:00:00Z" })];
    for (const status of ["approved", "processing", "completed", "partially_completed", "failed", "rejected"])
      expect(possibleDuplicateSignals(batch([ins()], { id: "x", status }), ctx({ history }))).toEqual([]);
    expect(
      possibleDuplicateSignals(batch([ins()], { id: "x", status: "pending_approval" }), ctx({ history })),
    ).toHaveLength(1);
  });
  it("does not take a repayment of a bank-rejected payment for a duplicate", () => {
    // The bank rejected the first payment (instruction rejected in a partially completed batch); paying it again is right.
    const rejected = past({ batchStatus: "partially_completed", status: "rejected", remittanceInformation: "INV 9" });
    expect(
      possibleDuplicateSignals(batch([ins({ remittanceInformation: "INV 9" })]), ctx({ history: [rejected] })),
    ).toEqual([]);
  });
  it("does not count a shared remittance text inside one batch (salaries), only a line entered twice", () => {
    const salaries = batch([
      ins({ creditorIban: IBAN_A, amount: "100", endToEndId: "s-1", remittanceInformation: "Salary November" }),
      ins({ creditorIban: IBAN_B, amount: "200", endToEndId: "s-2", remittanceInformation: "Salary November" }),
    ]);
    expect(possibleDuplicateSignals(salaries, ctx())).toEqual([]);
    const twice = possibleDuplicateSignals(batch([ins({ endToEndId: "a" }), ins({ endToEndId: "b" })]), ctx());
    expect(plain(twice[0]?.message)).toBe("Nordic Supplies AS: NOK 100.00 is in this batch twice.");
  });
  it("formats its amounts with the app's money formatter and keeps a template for the viewer's locale", () => {
    const s = possibleDuplicateSignals(
      batch([ins({ amount: "12500.00" })]),
      ctx({ history: [past({ amount: "12500" })] }),
    );
    expect(plain(s[0]?.message)).toBe("Nordic Supplies AS: NOK 12,500.00 may have been paid already.");
    expect(s[0]?.message_template).toBe("Nordic Supplies AS: {0} may have been paid already.");
    expect(s[0]?.message_amounts).toEqual([{ amount: "12500.00", currency: "NOK" }]);
  });
  it("flags two equal lines in the same batch", () => {
    const s = possibleDuplicateSignals(
      batch([ins({ endToEndId: "a" }), ins({ endToEndId: "b", amount: "100" })]),
      ctx(),
    );
    expect(s.map((x) => x.instruction)).toEqual([0, 1]);
    expect(s[0]?.evidence).toMatchObject({ matches: [{ same_batch_instruction: 1 }] });
  });
});

describe("one signal per payee and kind", () => {
  it("folds two instructions to the same IBAN into one signal per kind, listing both", () => {
    const s = computeRiskSignals(
      batch([
        ins({ endToEndId: "a", amount: "1" }),
        ins({ endToEndId: "b", amount: "2", creditorIban: IBAN_A_SPACED }),
      ]),
      ctx(),
    );
    expect(s.map((x) => [x.instruction, x.code])).toEqual([
      [0, "unverified_counterparty"],
      [0, "new_payee"],
    ]);
    expect(s[0]?.evidence).toMatchObject({ instructions: [0, 1] });
  });
  it("never says 'never paid' and 'paid to another IBAN' about the same payee", () => {
    const s = computeRiskSignals(batch([ins({ creditorIban: IBAN_B })]), ctx({ history: [past()] }));
    const codes = s.map((x) => x.code);
    expect(codes).toContain("bank_details_changed");
    expect(codes).not.toContain("new_payee");
  });
  it("merges the reasons of one kind into one signal at the highest severity", () => {
    const cp = {
      id: "cp-1",
      name: "Nordic Supplies AS",
      iban: IBAN_B,
      status: "verified",
      changes: [{ at: "2026-03-01T08:00:00Z", oldIban: IBAN_A, newIban: IBAN_B }],
    };
    const s = computeRiskSignals(
      batch([ins({ creditorIban: IBAN_B, counterpartyId: "cp-1" })]),
      ctx({ history: [past()], counterparties: [cp] }),
    ).filter((x) => x.code === "bank_details_changed");
    expect(s).toHaveLength(1);
    expect(s[0]?.evidence).toMatchObject({
      reasons: [{ reason: "name_paid_to_other_iban" }, { reason: "counterparty_changed_recently" }],
    });
  });
});

describe("unverified payee above the configured amount", () => {
  const highFrom = { NOK: "50000" };
  it("is high from the amount up, medium below it and in other currencies", () => {
    const at = (amount: string, currency = "NOK") =>
      unverifiedCounterpartySignals(
        batch([ins({ amount, currency })], { currency }),
        ctx({ unverifiedHighAmounts: highFrom }),
      )[0];
    expect(at("49999.99")?.severity).toBe("medium");
    expect(at("50000.00")).toMatchObject({
      severity: "high",
      evidence: { high_from: { amount: "50000", currency: "NOK" } },
    });
    expect(plain(at("50000.00")?.message)).toBe(
      "Nordic Supplies AS is not a verified counterparty (ad-hoc creditor). The payment of NOK 50,000.00 is at or above NOK 50,000.00.",
    );
    expect(at("900000", "SEK")?.severity).toBe("medium");
  });
  it("makes the batch need an acknowledgement", () => {
    const s = computeRiskSignals(batch([ins({ amount: "60000" })]), ctx({ unverifiedHighAmounts: highFrom }));
    expect(hasHighRisk(s)).toBe(true);
    expect(
      hasHighRisk(computeRiskSignals(batch([ins({ amount: "600" })]), ctx({ unverifiedHighAmounts: highFrom }))),
    ).toBe(false);
  });
});

describe("a verified payee paid for the first time", () => {
  it("is a low signal, not medium; a verified payee raises no unverified signal", () => {
    const cp = { id: "cp-1", name: "Nordic Supplies AS", iban: IBAN_A, status: "verified", changes: [] };
    const s = computeRiskSignals(batch([ins({ counterpartyId: "cp-1" })]), ctx({ counterparties: [cp] }));
    expect(s.map((x) => [x.code, x.severity])).toEqual([["new_payee", "low"]]);
  });
});

describe("amount outlier", () => {
  const paid = (amounts: string[], over: Partial<PastInstruction> = {}) =>
    amounts.map((amount, i) => past({ amount, date: `2026-02-${String(i + 1).padStart(2, "0")}`, ...over }));
  it("flags over 3 × the median, not exactly 3 ×", () => {
    const history = paid(["90", "100", "110"]);
    expect(amountOutlierSignals(batch([ins({ amount: "300.00" })]), ctx({ history }))).toEqual([]);
    const s = amountOutlierSignals(batch([ins({ amount: "300.01" })]), ctx({ history }));
    expect(s[0]).toMatchObject({ code: "amount_outlier", evidence: { median: "100", factor: "3" } });
  });
  it("uses the last 12 payments to that IBAN in that currency only", () => {
    // 12 recent payments of 100 and 13 older ones of 1,000,000: only the recent 12 make the median.
    const history = [
      ...paid(Array<string>(12).fill("100")),
      ...paid(Array<string>(13).fill("1000000"), { date: "2025-01-01" }),
      past({ amount: "1", date: "2025-01-02", currency: "SEK" }),
      past({ amount: "1", creditorIban: IBAN_B }),
    ];
    const s = amountOutlierSignals(batch([ins({ amount: "301", creditorIban: IBAN_A_SPACED })]), ctx({ history }));
    expect(s[0]?.evidence).toMatchObject({ median: "100" });
    expect((s[0]?.evidence.payments as unknown[]).length).toBe(12);
    // 250 is below 3 × 100; payments in SEK are compared with SEK ones only.
    expect(amountOutlierSignals(batch([ins({ amount: "250" })]), ctx({ history }))).toEqual([]);
    expect(amountOutlierSignals(batch([ins({ amount: "1000", currency: "SEK" })]), ctx({ history }))).toHaveLength(1);
  });
  it("is silent without earlier payments to that IBAN", () => {
    expect(amountOutlierSignals(batch([ins({ amount: "999999" })]), ctx())).toEqual([]);
  });
});

describe("insufficient funds", () => {
  const account = { id: "acc-1", currency: "NOK", availableBalance: "1000.00", country: "NO" };
  const b = (amount: string) => batch([ins({ amount }), ins({ amount: "100.00" })], { debtorAccountId: "acc-1" });
  it("flags a total above the available balance, not one equal to it", () => {
    expect(insufficientFundsSignals(b("900.00"), ctx({ account }))).toEqual([]);
    const s = insufficientFundsSignals(b("900.01"), ctx({ account }));
    expect(s[0]).toMatchObject({
      instruction: null,
      severity: "high",
      evidence: { reason: "above_available", batch_total: "1000.01", shortfall: "0.01" },
    });
  });
  it("adds the open instructions of approved batches on the same account", () => {
    const committed = [
      past({ batchId: "ap-1", batchStatus: "approved", status: "pending", amount: "50", debtorAccountId: "acc-1" }),
      past({ batchId: "ap-1", batchStatus: "approved", status: "pending", amount: "25", debtorAccountId: "acc-1" }),
      // Settled already (in the available balance), other account, not approved yet: not counted.
      past({ batchId: "pr-1", batchStatus: "processing", status: "settled", amount: "500", debtorAccountId: "acc-1" }),
      past({ batchId: "ap-2", batchStatus: "approved", status: "pending", amount: "500", debtorAccountId: "acc-2" }),
      past({
        batchId: "pa-1",
        batchStatus: "pending_approval",
        status: "pending",
        amount: "500",
        debtorAccountId: "acc-1",
      }),
    ];
    expect(insufficientFundsSignals(b("825.00"), ctx({ account, history: committed }))).toEqual([]);
    const s = insufficientFundsSignals(b("825.01"), ctx({ account, history: committed }));
    expect(s[0]?.evidence).toMatchObject({
      reason: "above_available_after_approved",
      committed: "75",
      committed_batches: [{ batch_id: "ap-1", amount: "75" }],
      shortfall: "0.01",
    });
  });
  it("needs an account in the batch currency with a balance", () => {
    expect(insufficientFundsSignals(b("5000"), ctx())).toEqual([]);
    expect(insufficientFundsSignals(b("5000"), ctx({ account: { ...account, availableBalance: null } }))).toEqual([]);
    expect(insufficientFundsSignals(b("5000"), ctx({ account: { ...account, currency: "SEK" } }))).toEqual([]);
  });
});

describe("weekend / holiday execution date", () => {
  const on = (date: string | null, currency = "NOK", country: string | null = "NO") =>
    nonBankingDaySignals(
      batch([ins({ currency })], { currency, requestedExecutionDate: date }),
      ctx({ account: { id: "a", currency, availableBalance: null, country } }),
    );
  it("flags Saturdays, Sundays and the account country's holidays", () => {
    expect(on("2026-03-14")[0]).toMatchObject({ severity: "low", evidence: { kind: "weekend", weekday: "Saturday" } });
    expect(on("2026-03-15")[0]?.evidence).toMatchObject({ weekday: "Sunday" });
    expect(on("2026-04-06")[0]?.evidence).toMatchObject({ kind: "holiday", name: "Easter Monday", calendar: "NO" });
    expect(on("2029-05-17")[0]?.evidence).toMatchObject({ name: "Constitution Day" });
    expect(on("2026-06-19", "SEK", "SE")[0]?.evidence).toMatchObject({ name: "Midsummer Eve" });
    expect(on("2026-06-19")).toEqual([]); // not a Norwegian bank holiday
    expect(on("2026-03-10")).toEqual([]);
  });
  it("uses TARGET2 for euro payments and today when no date is requested", () => {
    expect(on("2026-05-01", "EUR", null)[0]?.evidence).toMatchObject({ calendar: "TARGET2" });
    expect(on("2026-05-01", "USD", null)).toEqual([]);
    expect(on(null)).toEqual([]);
    expect(
      nonBankingDaySignals(batch([ins()], { requestedExecutionDate: null }), ctx({ today: "2026-03-14" })),
    ).toHaveLength(1);
  });
});

describe("computeRiskSignals", () => {
  it("puts batch-level signals first, then instructions in order, and knows which are high", () => {
    const s = computeRiskSignals(
      batch(
        [ins({ creditorIban: IBAN_B, amount: "2000", endToEndId: "x-1" }), ins({ amount: "100", endToEndId: "x-2" })],
        {
          requestedExecutionDate: "2026-03-14",
          debtorAccountId: "acc-1",
        },
      ),
      ctx({
        history: [past({ date: "2026-03-01" })],
        account: { id: "acc-1", currency: "NOK", availableBalance: "1000", country: "NO" },
      }),
    );
    expect(s.map((x) => [x.instruction, x.code])).toEqual([
      [null, "insufficient_funds"],
      [null, "non_banking_day"],
      [0, "bank_details_changed"],
      [0, "unverified_counterparty"],
      // Not also "new payee": the name was paid before (to another IBAN), which bank_details_changed says.
      [1, "possible_duplicate"],
      [1, "unverified_counterparty"],
    ]);
    expect(hasHighRisk(s)).toBe(true);
    expect(hasHighRisk(s.filter((x) => x.severity !== "high"))).toBe(false);
  });
});
