/**
 * Companies and corporate groups (koncerner) — docs/treasury-api.md#organization.
 */
import { z } from "zod";
import { CountryCode, CurrencyCode, DecimalString, Uuid, text } from "./common";

export const Company = z
  .object({
    id: Uuid,
    name: z.string(),
    orgnr: z.string().meta({ description: "Organization number; upsert identity within the API client" }),
    country: z.string(),
  })
  .meta({ id: "Company" });
export type Company = z.infer<typeof Company>;

/** POST /companies body: upsert keyed on `orgnr` within the API client. */
export const CompanyUpsert = z
  .object({
    orgnr: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{4,20}$/, { message: "must be 4 to 20 letters, digits or hyphens" }),
    name: text(140),
    country: CountryCode,
  })
  .strict()
  .meta({ id: "CompanyUpsert" });
export type CompanyUpsert = z.infer<typeof CompanyUpsert>;

export const Koncern = z.object({ id: Uuid, name: z.string() }).meta({ id: "Koncern" });
export type Koncern = z.infer<typeof Koncern>;

const CurrencyBalance = z.object({ currency: CurrencyCode, balance: DecimalString });

/** GET /koncerner/{id}/breakdown (members fixed by docs/architecture.md#reports). */
export const KoncernBreakdown = z
  .object({
    koncern_id: Uuid,
    companies: z.array(z.object({ company_id: Uuid, name: z.string(), balances: z.array(CurrencyBalance) })),
    totals: z.array(CurrencyBalance),
  })
  .meta({ id: "KoncernBreakdown" });
export type KoncernBreakdown = z.infer<typeof KoncernBreakdown>;
