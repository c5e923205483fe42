/**
 * The organization area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the user's companies and
 * koncerner (groups of companies). Isomorphic: the browser derives its URLs and query keys from these.
 */
import { endpoint } from "../../endpoint";

export const organizationEndpoints = {
  companies: endpoint("GET", "/api/treasury/companies"),
  upsertCompany: endpoint("POST", "/api/treasury/companies"),
  company: endpoint("GET", "/api/treasury/companies/[id]"),
  koncerner: endpoint("GET", "/api/treasury/koncerner"),
  koncern: endpoint("GET", "/api/treasury/koncerner/[id]"),
  koncernBreakdown: endpoint("GET", "/api/treasury/koncerner/[id]/breakdown"),
};
