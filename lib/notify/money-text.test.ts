import { describe, expect, it } from "vitest";
import { formatNotificationText, mailText, moneyMarker } from "./money-text";

describe("amounts in notification texts", () => {
  const stored = `Batch 2df88821 (${moneyMarker("1662.11", "NOK")}) waits for your approval: Rule 2 (Default).`;

  it("keeps the amount structured and formats it for the reader's locale, exactly", () => {
    expect(stored).toBe("Batch 2df88821 ([[NOK 1662.11]]) waits for your approval: Rule 2 (Default).");
    expect(mailText(stored)).toBe("Batch 2df88821 (NOK 1,662.11) waits for your approval: Rule 2 (Default).");
    expect(formatNotificationText(stored, "de-DE")).toMatch(/\(1\.662,11\sNOK\)/);
    expect(formatNotificationText(stored, "nb-NO")).toMatch(/\(1\s662,11\sNOK\)/);
    expect(mailText(`x ${moneyMarker("12345678901234567.89", "EUR")}`)).toBe("x EUR 12,345,678,901,234,567.89");
    expect(mailText(`x ${moneyMarker("5", "JPY")} ${moneyMarker("1250.5", "EUR")}`)).toBe("x JPY 5 EUR 1,250.50");
  });

  it("formats texts stored before the marker (raw amounts in parentheses) the same way", () => {
    expect(mailText("Batch 2df88821 (NOK 1662.11) waits for your approval: Rule 2.")).toBe(
      "Batch 2df88821 (NOK 1,662.11) waits for your approval: Rule 2.",
    );
  });

  it("keeps the display's no-break space between code and amount in the notification centre", () => {
    expect(formatNotificationText(stored, "en-GB")).toContain("(NOK\u00a01,662.11)");
  });

  it("leaves other text alone, hostile or not", () => {
    for (const t of ["Batch SAL-11 was approved.", "(abc 1.2)", "[[NOK 1,2]]", "[[nok 12.00]]", "<b>(NOK)</b>", ""]) {
      expect(formatNotificationText(t)).toBe(t);
    }
  });

  it("refuses to build a marker from a malformed amount or currency", () => {
    expect(() => moneyMarker("1,662.11", "NOK")).toThrow(TypeError);
    expect(() => moneyMarker("1662.11", "nok")).toThrow(TypeError);
    expect(() => moneyMarker("1e5", "NOK")).toThrow(TypeError);
    expect(() => moneyMarker("+12.00", "NOK")).toThrow(TypeError);
    expect(() => moneyMarker("12.00", "XYZ")).toThrow(TypeError);
  });
});
