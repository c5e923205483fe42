import { describe, expect, it } from "vitest";
import { calendarsFor, closingReason, easterSunday, holidaysOf } from "./bank-holidays";

describe("bank holidays", () => {
  it("computes Easter Sunday (Gregorian)", () => {
    expect(["2000", "2024", "2025", "2026", "2027", "2038"].map((y) => easterSunday(Number(y)))).toEqual([
      "2000-04-23",
      "2024-03-31",
      "2025-04-20",
      "2026-04-05",
      "2027-03-28",
      "2038-04-25",
    ]);
  });

  it("places the moveable days of each calendar", () => {
    const no = holidaysOf("NO", 2026);
    expect(no.get("2026-04-02")).toBe("Maundy Thursday");
    expect(no.get("2026-04-03")).toBe("Good Friday");
    expect(no.get("2026-05-14")).toBe("Ascension Day");
    expect(no.get("2026-05-25")).toBe("Whit Monday");
    expect(holidaysOf("DK", 2026).get("2026-05-15")).toBe("Bank holiday after Ascension");
    expect(holidaysOf("FI", 2025).get("2025-06-20")).toBe("Midsummer Eve");
    expect(holidaysOf("TARGET2", 2026).size).toBe(6);
    expect(holidaysOf("SE", 2026).has("2026-04-02")).toBe(false);
  });

  it("picks the account country's calendar and TARGET2 for euro", () => {
    expect(calendarsFor("FI", "EUR")).toEqual(["FI", "TARGET2"]);
    expect(calendarsFor("NO", "NOK")).toEqual(["NO"]);
    expect(calendarsFor("US", "USD")).toEqual([]);
    expect(closingReason("2026-12-24", ["NO"])).toEqual({ kind: "holiday", name: "Christmas Eve", calendar: "NO" });
    expect(closingReason("2026-12-24", ["TARGET2"])).toBeNull();
    expect(closingReason("2026-12-27", [])).toEqual({ kind: "weekend", weekday: "Sunday" });
  });
});
