import { describe, expect, it } from "vitest";
import { memoryDashboardDb } from "./test-db";
import { PreferenceError, reportingCurrencyOf, setReportingCurrency } from "./user-preferences";
import { upsertUser } from "./users";

const database = memoryDashboardDb();

describe("reporting currency preference", () => {
  it("defaults, is set, changed and cleared per user", async () => {
    const kari = await upsertUser(database.db, { email: "kari@example.com", name: "Kari", roles: ["viewer"] });
    const ola = await upsertUser(database.db, { email: "ola@example.com", name: "Ola", roles: ["viewer"] });
    expect(await reportingCurrencyOf(database.db, kari.id, "EUR")).toEqual({ currency: "EUR", origin: "default" });
    expect(await setReportingCurrency(database.db, kari.id, "NOK")).toBe("NOK");
    expect(await reportingCurrencyOf(database.db, kari.id, "EUR")).toEqual({ currency: "NOK", origin: "user" });
    // Another user's choice is their own.
    expect(await reportingCurrencyOf(database.db, ola.id, "SEK")).toEqual({ currency: "SEK", origin: "default" });
    await setReportingCurrency(database.db, kari.id, "JPY");
    expect((await reportingCurrencyOf(database.db, kari.id, "EUR")).currency).toBe("JPY");
    await setReportingCurrency(database.db, kari.id, null);
    expect(await reportingCurrencyOf(database.db, kari.id, "USD")).toEqual({ currency: "USD", origin: "default" });
  });

  it("refuses a code that is not a currency and an unknown user, naming the field", async () => {
    const u = await upsertUser(database.db, { email: "per@example.com", name: "Per", roles: ["viewer"] });
    for (const bad of ["nok", "NO", "ABC", "NOK "]) {
      const err = await setReportingCurrency(database.db, u.id, bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PreferenceError);
      expect((err as PreferenceError).field).toBe("reportingCurrency");
    }
    await expect(setReportingCurrency(database.db, "00000000-0000-4000-8000-000000000000", "NOK")).rejects.toThrow(
      /^userId/,
    );
    expect(await reportingCurrencyOf(database.db, u.id, "EUR")).toMatchObject({ origin: "default" });
    // The database refuses a malformed code too, should a caller skip the function.
    await expect(
      database.exec(`insert into user_preferences (user_id, reporting_currency) values ('${u.id}', 'eur')`),
    ).rejects.toThrow();
  });
});
