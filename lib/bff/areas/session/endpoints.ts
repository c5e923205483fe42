/**
 * The session area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the company switcher, the
 * reporting currency, the user's own passkeys and the passkey step-up. Isomorphic: the browser derives its URLs and
 * query keys from these.
 */
import { endpoint } from "../../endpoint";

/** GET /api/session/step-up: the effective mode, whether the user has a passkey, whether decisions need one. */
export interface StepUpStatus {
  mode: "required" | "optional" | "off";
  enrolled: boolean;
  needed: boolean;
}

/** One of the signed-in user's passkeys; timestamps ISO 8601. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export const sessionEndpoints = {
  selectCompany: endpoint("POST", "/api/session/company").returns<{ company_id: string }>(),
  passkeys: endpoint("GET", "/api/session/passkeys").returns<{ items: Passkey[] }>(),
  renamePasskey: endpoint("PATCH", "/api/session/passkeys/[id]").returns<Passkey>(),
  removePasskey: endpoint("DELETE", "/api/session/passkeys/[id]"),
  registrationOptions: endpoint("POST", "/api/session/passkeys/registration/options"),
  registrationVerify: endpoint("POST", "/api/session/passkeys/registration/verify").returns<Passkey>(),
  reportingCurrency: endpoint("GET", "/api/session/reporting-currency"),
  setReportingCurrency: endpoint("PUT", "/api/session/reporting-currency"),
  stepUp: endpoint("GET", "/api/session/step-up").returns<StepUpStatus>(),
  stepUpOptions: endpoint("POST", "/api/session/step-up/options"),
  stepUpVerify: endpoint("POST", "/api/session/step-up/verify").returns<{ proof: string; header: string }>(),
};
