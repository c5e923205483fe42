/**
 * OAuth 2.0 client credentials (docs/treasury-api.md#token Authentication).
 */
import { z } from "zod";
import { Uuid, plainString } from "./common";

/** Every scope of docs/treasury-api.md#authentication-and-scopes, in the order of its table. */
export const SCOPES = [
  "read:ledger",
  "write:ledger",
  "read:reporting",
  "read:forecast",
  "read:payments",
  "write:payments",
  "approve:payments",
  "read:reconciliation",
  "write:reconciliation",
  "admin:public_api",
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** Which form a token was issued in (docs/architecture.md#one-service-both-forms). */
export const ApiForm = z.enum(["A", "B"]);
export type ApiForm = z.infer<typeof ApiForm>;

/** Form B token request, `application/x-www-form-urlencoded` (POST /auth/token/). */
export const FormBTokenRequest = z.object({
  grant_type: z.literal("client_credentials", { message: "grant_type must be client_credentials" }),
  scope: plainString().max(2000).optional(),
  client_id: plainString().max(200).optional(),
  client_secret: plainString().max(500).optional(),
});

/** Form A token request, JSON (POST /auth/tenant-token). */
export const FormATokenRequest = z.object({
  tenant_id: Uuid,
  grant_type: z
    .literal("client_credentials", { message: "grant_type must be client_credentials" })
    .default("client_credentials"),
  scope: plainString().max(2000).optional(),
  client_id: plainString().max(200).optional(),
  client_secret: plainString().max(500).optional(),
});

/** Token response (both forms). Form A adds `tenant_id`. No refresh token, ever. */
export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    scope: z.string(),
    tenant_id: Uuid.optional(),
  })
  .meta({ id: "TokenResponse" });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Parse a space-separated scope string into a de-duplicated list (order kept). */
export function parseScopeList(scope: string | undefined): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(/\s+/).filter(Boolean))];
}
