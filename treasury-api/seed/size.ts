/**
 * The size of the seeded organisation (`--seed-companies N`,
 * `--seed-accounts-per-company M`; env `TREASURY_API_SEED_COMPANIES`,
 * `TREASURY_API_SEED_ACCOUNTS_PER_COMPANY`), for benchmarks of group views.
 *
 * - `companies`: how many companies the "Nordlys Koncern" has, the five demo
 *   companies included (the payment and reconciliation seed steps book on
 *   their accounts, so they always exist): 5..500, default 5.
 * - `accountsPerCompany`: every koncern company gets generated accounts until
 *   it has at least this many (demo companies keep their own as well):
 *   1..100, default none (the demo's own 1–3 accounts per company).
 *
 * The default size is exactly today's demo data.
 */

/** The organisation size; `accountsPerCompany` null means "the demo's accounts only". */
export interface SeedSize {
  companies: number;
  accountsPerCompany: number | null;
}

/** The demo organisation: five koncern companies with their own accounts. */
export const DEMO_SIZE: SeedSize = { companies: 5, accountsPerCompany: null };

/** Inclusive bounds of the two settings. */
export const SEED_SIZE_LIMITS = {
  companies: { min: 5, max: 500 },
  accountsPerCompany: { min: 1, max: 100 },
} as const;

function wholeNumber(raw: string, name: string, min: number, max: number): number {
  const text = raw.trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * Parses the size settings. Each value is a decimal string (unset or empty:
 * the default); `names` are the option or variable names used in errors.
 * @returns the size, {@link DEMO_SIZE} when nothing is set
 * @throws Error naming the option when a value is not a whole number within
 *   {@link SEED_SIZE_LIMITS}
 */
export function parseSeedSize(
  values: { companies?: string; accountsPerCompany?: string },
  names: { companies: string; accountsPerCompany: string } = {
    companies: "--seed-companies",
    accountsPerCompany: "--seed-accounts-per-company",
  },
): SeedSize {
  const size: SeedSize = { ...DEMO_SIZE };
  const { companies, accountsPerCompany } = SEED_SIZE_LIMITS;
  if (values.companies !== undefined && values.companies.trim() !== "")
    size.companies = wholeNumber(values.companies, names.companies, companies.min, companies.max);
  if (values.accountsPerCompany !== undefined && values.accountsPerCompany.trim() !== "")
    size.accountsPerCompany = wholeNumber(
      values.accountsPerCompany,
      names.accountsPerCompany,
      accountsPerCompany.min,
      accountsPerCompany.max,
    );
  return size;
}

/**
 * The size from the environment (`TREASURY_API_SEED_COMPANIES`,
 * `TREASURY_API_SEED_ACCOUNTS_PER_COMPANY`).
 * @throws Error naming the variable for a bad value
 */
export function seedSizeFromEnv(env: Record<string, string | undefined>): SeedSize {
  return parseSeedSize(
    { companies: env.TREASURY_API_SEED_COMPANIES, accountsPerCompany: env.TREASURY_API_SEED_ACCOUNTS_PER_COMPANY },
    { companies: "TREASURY_API_SEED_COMPANIES", accountsPerCompany: "TREASURY_API_SEED_ACCOUNTS_PER_COMPANY" },
  );
}

/** Validates a size given in code (same bounds as the parser). @throws Error naming the field */
export function checkSeedSize(size: SeedSize): SeedSize {
  return parseSeedSize(
    {
      companies: String(size.companies),
      accountsPerCompany: size.accountsPerCompany === null ? undefined : String(size.accountsPerCompany),
    },
    { companies: "size.companies", accountsPerCompany: "size.accountsPerCompany" },
  );
}

/**
 * The size from CLI flag values over the environment: a flag that is given
 * wins over its variable, per setting.
 * @throws Error naming the flag or variable with the bad value
 */
export function resolveSeedSize(
  flags: { companies?: string; accountsPerCompany?: string },
  env: Record<string, string | undefined>,
): SeedSize {
  const fromEnv = seedSizeFromEnv(env);
  const fromFlags = parseSeedSize(flags);
  return {
    companies: flags.companies !== undefined ? fromFlags.companies : fromEnv.companies,
    accountsPerCompany:
      flags.accountsPerCompany !== undefined ? fromFlags.accountsPerCompany : fromEnv.accountsPerCompany,
  };
}
