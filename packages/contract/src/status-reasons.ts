/**
 * ISO 20022 external status reason codes (ExternalStatusReason1Code) the banks send in pain.002 `StsRsnInf/Rsn/Cd`
 * and camt.054 return information, with their names as the ISO code set publishes them. Shared by the Treasury
 * API (which stores the text with the status event) and the dashboard (which shows code and text); see
 * docs/bank-files.md "pain.002 status reports".
 */
export const STATUS_REASON_TEXTS: Readonly<Record<string, string>> = {
  AC01: "Incorrect account number",
  AC02: "Invalid debtor account number",
  AC03: "Invalid creditor account number",
  AC04: "Closed account number",
  AC05: "Closed debtor account number",
  AC06: "Blocked account",
  AC07: "Closed creditor account number",
  AC13: "Invalid debtor account type",
  AG01: "Transaction forbidden",
  AG02: "Invalid bank operation code",
  AM01: "Zero amount",
  AM02: "Not allowed amount",
  AM03: "Not allowed currency",
  AM04: "Insufficient funds",
  AM05: "Duplication",
  AM09: "Wrong amount",
  AM10: "Invalid control sum",
  BE01: "Inconsistent with end customer",
  BE04: "Missing creditor address",
  BE05: "Unrecognised initiating party",
  CH03: "Requested execution date too far in future",
  CH16: "Elements content formally incorrect",
  CNOR: "Creditor bank is not registered",
  CURR: "Incorrect currency",
  CUST: "Requested by customer",
  DNOR: "Debtor bank is not registered",
  DS0H: "Not allowed account (signer)",
  DT01: "Invalid date",
  DUPL: "Duplicate payment",
  ED05: "Settlement failed",
  FF01: "Invalid file format",
  FOCR: "Following cancellation request",
  FRAD: "Fraudulent origin",
  MD01: "No mandate",
  MS02: "Not specified reason customer generated",
  MS03: "Not specified reason agent generated",
  NARR: "Narrative",
  RC01: "Bank identifier incorrect",
  RR01: "Missing debtor account or identification",
  RR02: "Missing debtor name or address",
  RR03: "Missing creditor name or address",
  RR04: "Regulatory reason",
  SL01: "Specific service offered by debtor agent",
  TM01: "Invalid cut off time",
  UPAY: "Undue payment",
};

/**
 * The text shown for a reason: the code's name, then the bank's own words when it gave any and they add
 * something, e.g. `Closed account number — account closed 2026-01-31`. Null when there is neither.
 * @param code the ISO code (or a proprietary one), null when none
 * @param additional the bank's `AddtlInf` text, null when none
 */
export function statusReasonText(code: string | null, additional: string | null = null): string | null {
  const name = code ? (STATUS_REASON_TEXTS[code.toUpperCase()] ?? null) : null;
  const extra = additional?.replace(/\s+/g, " ").trim() || null;
  if (name && extra && extra.toLowerCase() !== name.toLowerCase()) return `${name} — ${extra}`;
  return name ?? extra;
}
