import { describe, expect, it } from "vitest";
import { checkDateBounds, dateFnsLocale, dateLayout, formatDateField, parseDateField } from "./date-field";

describe("dateLayout", () => {
  it("follows the locale's field order and separator", () => {
    expect(dateLayout("en-GB")).toMatchObject({ pattern: "dd/MM/yyyy", hint: "dd/mm/yyyy" });
    expect(dateLayout("en-US")).toMatchObject({ pattern: "MM/dd/yyyy", hint: "mm/dd/yyyy" });
    expect(dateLayout("nb-NO")).toMatchObject({ pattern: "dd.MM.yyyy", hint: "dd.mm.yyyy" });
  });
  it("falls back to en-GB for a tag Intl refuses", () => {
    expect(dateLayout("not a locale!").pattern).toBe("dd/MM/yyyy");
  });
});

describe("formatDateField", () => {
  it("shows YYYY-MM-DD in the locale's layout", () => {
    expect(formatDateField("2026-03-05", "en-GB")).toBe("05/03/2026");
    expect(formatDateField("2026-03-05", "en-US")).toBe("03/05/2026");
    expect(formatDateField("2026-03-05", "nb-NO")).toBe("05.03.2026");
    expect(formatDateField("", "en-GB")).toBe("");
  });
});

describe("parseDateField", () => {
  it.each([
    ["en-GB", "05/03/2026", "2026-03-05"],
    ["en-GB", "5/3/2026", "2026-03-05"],
    ["en-GB", "23/11/2026", "2026-11-23"],
    ["en-US", "03/05/2026", "2026-03-05"],
    ["en-US", "11/23/2026", "2026-11-23"],
    ["nb-NO", "05.03.2026", "2026-03-05"],
    ["nb-NO", "5.3.2026", "2026-03-05"],
    ["nb-NO", "05/03/2026", "2026-03-05"],
    ["en-US", "2026-03-05", "2026-03-05"],
    ["en-GB", " 29/02/2028 ", "2028-02-29"],
  ])("%s reads %j as %s", (locale, text, iso) => {
    expect(parseDateField(text, locale, "From")).toEqual({ ok: true, value: iso });
  });

  it("reads empty text as null", () => {
    expect(parseDateField("  ", "en-GB", "From")).toEqual({ ok: true, value: null });
  });

  it.each([
    ["en-GB", "11/23/2026", "From: enter a date as dd/mm/yyyy"],
    ["en-GB", "31/02/2026", "From: enter a date as dd/mm/yyyy"],
    ["en-GB", "29/02/2026", "From: enter a date as dd/mm/yyyy"],
    ["en-GB", "05/03/26", "From: enter a date as dd/mm/yyyy"],
    ["en-US", "23/11/2026", "From: enter a date as mm/dd/yyyy"],
    ["nb-NO", "tomorrow", "From: enter a date as dd.mm.yyyy"],
    ["nb-NO", "2026-13-01", "From: enter a date as dd.mm.yyyy"],
  ])("%s refuses %j and names the field", (locale, text, error) => {
    expect(parseDateField(text, locale, "From")).toEqual({ ok: false, error });
  });
});

describe("checkDateBounds", () => {
  it("names the field and shows the bound in the locale", () => {
    expect(checkDateBounds("2026-01-01", "en-GB", "To", "2026-02-01")).toBe("To: the earliest date is 01/02/2026");
    expect(checkDateBounds("2026-03-01", "nb-NO", "Day", undefined, "2026-02-01")).toBe(
      "Day: the latest date is 01.02.2026",
    );
    expect(checkDateBounds("2026-02-01", "en-US", "Day", "2026-02-01", "2026-02-01")).toBeNull();
  });
});

describe("dateFnsLocale", () => {
  it("maps tags to calendar locales", () => {
    expect(dateFnsLocale("en-GB").code).toBe("en-GB");
    expect(dateFnsLocale("en-US").code).toBe("en-US");
    expect(dateFnsLocale("nb-NO").code).toBe("nb");
    expect(dateFnsLocale("no").code).toBe("nb");
    expect(dateFnsLocale("xx").code).toBe("en-GB");
  });
});
