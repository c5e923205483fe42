/**
 * The Treasury Public API contract: zod schemas and inferred types of every
 * resource, request body, error body, token response and list envelope, both
 * forms (docs/treasury-api.md, docs/architecture.md#extensions). The single source of truth for the
 * treasury-api, the treasury client, the BFF and the forms.
 */
export * from "./common";
export * from "./errors";
export * from "./pagination";
export * from "./auth";
export * from "./organization";
export * from "./ledger";
export * from "./payments";
export * from "./approvals";
export * from "./reconciliation";
export * from "./reporting";
export * from "./webhooks";
export * from "./statements";
export * from "./list-queries";
export * from "./unmatched";
