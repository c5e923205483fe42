import { describe, expect, it } from "vitest";
import { ForecastExportQuery } from "../bff/inputs";
import { loadForecastHorizon } from "./forecast-horizon";

describe("forecast horizon", () => {
  it("reads 7, 30 and 90 from the URL; anything else is the default 30", () => {
    expect(loadForecastHorizon({ horizon: "7" }).horizon).toBe(7);
    expect(loadForecastHorizon({ horizon: "90" }).horizon).toBe(90);
    expect(loadForecastHorizon({}).horizon).toBe(30);
    expect(loadForecastHorizon({ horizon: "14" }).horizon).toBe(30);
  });

  it("the CSV route takes 7, 30 or 90 and refuses another value naming horizon", () => {
    expect(ForecastExportQuery.parse({ horizon: "90" }).horizon).toBe(90);
    const bad = ForecastExportQuery.safeParse({ horizon: "14" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["horizon"]);
    expect(bad.error?.issues[0]?.message).toBe("must be 7, 30 or 90 (days)");
  });
});
