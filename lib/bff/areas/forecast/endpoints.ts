/**
 * The forecast area's BFF endpoints (docs/forecast.md#the-routes): the cash forecast and its variance, their export,
 * and the stored inputs (manual lines, scenarios, settings). Isomorphic: the browser derives its URLs and query keys
 * from these (docs/architecture.md#the-bff-declared-per-area).
 */
import type { CashForecastView, ForecastVarianceView } from "../../queries/cash-forecast";
import type { ManualLineRow, ScenarioRow } from "@/lib/forecast/store";
import { endpoint } from "../../endpoint";

/** The stored forecast inputs (`GET /api/forecast/lines`). */
export interface ForecastInputs {
  lines: ManualLineRow[];
  scenarios: ScenarioRow[];
  recurring_off: string[];
  thresholds: Record<string, string>;
}

export const forecastEndpoints = {
  forecast: endpoint("GET", "/api/forecast").returns<CashForecastView>(),
  variance: endpoint("GET", "/api/forecast/variance").returns<ForecastVarianceView>(),
  export: endpoint("GET", "/api/forecast/export"),
  inputs: endpoint("GET", "/api/forecast/lines").returns<ForecastInputs>(),
  addLine: endpoint("POST", "/api/forecast/lines"),
  changeLine: endpoint("PUT", "/api/forecast/lines/[id]"),
  removeLine: endpoint("DELETE", "/api/forecast/lines/[id]"),
  addScenario: endpoint("POST", "/api/forecast/scenarios"),
  changeScenario: endpoint("PUT", "/api/forecast/scenarios/[id]"),
  removeScenario: endpoint("DELETE", "/api/forecast/scenarios/[id]"),
  settings: endpoint("POST", "/api/forecast/settings"),
  snapshot: endpoint("POST", "/api/forecast/snapshots"),
};
