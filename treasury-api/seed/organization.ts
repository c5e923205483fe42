/**
 * The demo organization: tenants, companies, the koncern and
 * bank accounts, derived deterministically from the seed. Pure: no database.
 *
 * Tenant "Nordlys Group" holds the koncern "Nordlys Koncern" (companies in NO,
 * SE, DK and FI) and one company outside it; tenant "Fjord Holdings" has one
 * company with one account, for isolation tests.
 */
import { isValidIBAN } from "ibantools";
import { generateIban, generateOrgnr, type NordicCountry } from "./identifiers";
import { createRng, stableUuid } from "./prng";
import { DEMO_SIZE, checkSeedSize, type SeedSize } from "./size";

/** A Nordic bank as the seed uses it: BIC, display name and national bank code of the IBAN. */
export interface SeedBank {
  bic: string;
  name: string;
  country: NordicCountry;
  /** The leading BBAN digits that identify the bank (NO/DK reg. no., SE IBAN bank code, FI leading digit). */
  bankCode: string;
}

export const BANKS = {
  dnb: { bic: "DNBANOKK", name: "DNB", country: "NO", bankCode: "1503" },
  nordeaNo: { bic: "NDEANOKK", name: "Nordea", country: "NO", bankCode: "6003" },
  nordeaSe: { bic: "NDEASESS", name: "Nordea", country: "SE", bankCode: "300" },
  seb: { bic: "ESSESESS", name: "SEB", country: "SE", bankCode: "500" },
  handelsbanken: { bic: "HANDSESS", name: "Handelsbanken", country: "SE", bankCode: "600" },
  danske: { bic: "DABADKKK", name: "Danske Bank", country: "DK", bankCode: "3409" },
  nordeaDk: { bic: "NDEADKKK", name: "Nordea", country: "DK", bankCode: "2191" },
  op: { bic: "OKOYFIHH", name: "OP", country: "FI", bankCode: "5" },
  nordeaFi: { bic: "NDEAFIHH", name: "Nordea", country: "FI", bankCode: "1" },
} as const satisfies Record<string, SeedBank>;

/**
 * What an account is used for; drives which transactions it gets.
 * - operating: customers, suppliers, card settlements, payroll, tax, rent
 * - holding: intercompany, dividends, interest
 * - fx: foreign customers and suppliers in EUR/USD
 * - payroll: funded from the operating account, pays salaries (Sweden)
 * - tax: tax withholding account (Norway)
 * - property: rent income and property costs
 */
export type AccountRole = "operating" | "holding" | "fx" | "payroll" | "tax" | "property";

export interface SeedTenant {
  key: string;
  id: string;
  name: string;
}

export interface SeedCompany {
  key: string;
  id: string;
  tenantKey: string;
  tenantId: string;
  name: string;
  orgnr: string;
  country: NordicCountry;
  koncernKey: string | null;
  /** Employees paid monthly (0: no payroll). */
  employees: number;
}

export interface SeedKoncern {
  key: string;
  id: string;
  tenantId: string;
  name: string;
  companyKeys: string[];
}

export interface SeedAccount {
  key: string;
  id: string;
  tenantId: string;
  companyId: string;
  companyKey: string;
  /** Language and authorities of the transaction texts. */
  country: NordicCountry;
  bank: SeedBank;
  iban: string;
  currency: "NOK" | "SEK" | "DKK" | "EUR" | "USD";
  name: string;
  role: AccountRole;
  /** Relative transaction volume (1 ≈ 4 bookings per weekday at scale 1). */
  intensity: number;
  /** Typical balance in major units at scale 1; the generator keeps the balance around it. */
  level: number;
  /** Statement source of its coverage days. */
  coverageSource: "camt.053" | "api";
}

export interface SeedOrganization {
  seed: number;
  tenants: SeedTenant[];
  companies: SeedCompany[];
  koncerner: SeedKoncern[];
  accounts: SeedAccount[];
}

interface CompanySpec {
  key: string;
  tenantKey: string;
  name: string;
  country: NordicCountry;
  koncernKey: string | null;
  employees: number;
}

interface AccountSpec {
  key: string;
  companyKey: string;
  bank: SeedBank;
  currency: SeedAccount["currency"];
  name: string;
  role: AccountRole;
  intensity: number;
  level: number;
  coverageSource?: SeedAccount["coverageSource"];
}

const TENANTS = [
  { key: "nordlys", name: "Nordlys Group" },
  { key: "fjord", name: "Fjord Holdings" },
] as const;

const KONCERNER = [{ key: "nordlys-koncern", tenantKey: "nordlys", name: "Nordlys Koncern" }] as const;

const COMPANIES: CompanySpec[] = [
  {
    key: "nordlys-holding",
    tenantKey: "nordlys",
    name: "Nordlys Holding AS",
    country: "NO",
    koncernKey: "nordlys-koncern",
    employees: 8,
  },
  {
    key: "nordlys-norge",
    tenantKey: "nordlys",
    name: "Nordlys Norge AS",
    country: "NO",
    koncernKey: "nordlys-koncern",
    employees: 120,
  },
  {
    key: "nordlys-sverige",
    tenantKey: "nordlys",
    name: "Nordlys Sverige AB",
    country: "SE",
    koncernKey: "nordlys-koncern",
    employees: 75,
  },
  {
    key: "nordlys-danmark",
    tenantKey: "nordlys",
    name: "Nordlys Danmark A/S",
    country: "DK",
    koncernKey: "nordlys-koncern",
    employees: 40,
  },
  {
    key: "nordlys-suomi",
    tenantKey: "nordlys",
    name: "Nordlys Suomi Oy",
    country: "FI",
    koncernKey: "nordlys-koncern",
    employees: 35,
  },
  // Outside the koncern: the demo Form B client is deliberately not linked to it.
  {
    key: "polarlys-eiendom",
    tenantKey: "nordlys",
    name: "Polarlys Eiendom AS",
    country: "NO",
    koncernKey: null,
    employees: 0,
  },
  {
    key: "fjord-holdings",
    tenantKey: "fjord",
    name: "Fjord Holdings AS",
    country: "NO",
    koncernKey: null,
    employees: 12,
  },
];

const ACCOUNTS: AccountSpec[] = [
  {
    key: "holding-nok",
    companyKey: "nordlys-holding",
    bank: BANKS.dnb,
    currency: "NOK",
    name: "Konsernkonto NOK",
    role: "holding",
    intensity: 0.8,
    level: 45_000_000,
  },
  {
    key: "holding-eur",
    companyKey: "nordlys-holding",
    bank: BANKS.dnb,
    currency: "EUR",
    name: "Valutakonto EUR",
    role: "fx",
    intensity: 0.5,
    level: 1_800_000,
  },
  {
    key: "holding-usd",
    companyKey: "nordlys-holding",
    bank: BANKS.dnb,
    currency: "USD",
    name: "Valutakonto USD",
    role: "fx",
    intensity: 0.35,
    level: 1_200_000,
    coverageSource: "api",
  },
  {
    key: "norge-drift",
    companyKey: "nordlys-norge",
    bank: BANKS.dnb,
    currency: "NOK",
    name: "Driftskonto",
    role: "operating",
    intensity: 4.2,
    level: 18_000_000,
  },
  {
    key: "norge-skatt",
    companyKey: "nordlys-norge",
    bank: BANKS.nordeaNo,
    currency: "NOK",
    name: "Skattetrekkskonto",
    role: "tax",
    intensity: 0.1,
    level: 6_000_000,
  },
  {
    key: "sverige-drift",
    companyKey: "nordlys-sverige",
    bank: BANKS.seb,
    currency: "SEK",
    name: "Företagskonto",
    role: "operating",
    intensity: 3.2,
    level: 14_000_000,
  },
  {
    key: "sverige-lon",
    companyKey: "nordlys-sverige",
    bank: BANKS.handelsbanken,
    currency: "SEK",
    name: "Lönekonto",
    role: "payroll",
    intensity: 0.15,
    level: 600_000,
  },
  {
    key: "sverige-eur",
    companyKey: "nordlys-sverige",
    bank: BANKS.nordeaSe,
    currency: "EUR",
    name: "Valutakonto EUR",
    role: "fx",
    intensity: 0.5,
    level: 700_000,
  },
  {
    key: "danmark-drift",
    companyKey: "nordlys-danmark",
    bank: BANKS.danske,
    currency: "DKK",
    name: "Erhvervskonto",
    role: "operating",
    intensity: 2.4,
    level: 7_500_000,
  },
  {
    key: "danmark-eur",
    companyKey: "nordlys-danmark",
    bank: BANKS.nordeaDk,
    currency: "EUR",
    name: "Valutakonto EUR",
    role: "fx",
    intensity: 0.4,
    level: 500_000,
  },
  {
    key: "suomi-kaytto",
    companyKey: "nordlys-suomi",
    bank: BANKS.op,
    currency: "EUR",
    name: "Käyttötili",
    role: "operating",
    intensity: 2.4,
    level: 1_400_000,
  },
  {
    key: "suomi-nordea",
    companyKey: "nordlys-suomi",
    bank: BANKS.nordeaFi,
    currency: "EUR",
    name: "Säästötili",
    role: "holding",
    intensity: 0.25,
    level: 2_000_000,
    coverageSource: "api",
  },
  {
    key: "polarlys-drift",
    companyKey: "polarlys-eiendom",
    bank: BANKS.dnb,
    currency: "NOK",
    name: "Husleiekonto",
    role: "property",
    intensity: 0.45,
    level: 6_000_000,
  },
  {
    key: "fjord-drift",
    companyKey: "fjord-holdings",
    bank: BANKS.nordeaNo,
    currency: "NOK",
    name: "Driftskonto",
    role: "operating",
    intensity: 0.9,
    level: 4_000_000,
  },
];

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`demo organization: unknown ${what}`);
  return value;
}

/** Per country: legal suffix, local currency and the banks generated companies use. */
const GENERATED_COUNTRY: Record<
  NordicCountry,
  { suffix: string; currency: SeedAccount["currency"]; banks: readonly SeedBank[] }
> = {
  NO: { suffix: "AS", currency: "NOK", banks: [BANKS.dnb, BANKS.nordeaNo] },
  SE: { suffix: "AB", currency: "SEK", banks: [BANKS.seb, BANKS.handelsbanken, BANKS.nordeaSe] },
  DK: { suffix: "A/S", currency: "DKK", banks: [BANKS.danske, BANKS.nordeaDk] },
  FI: { suffix: "Oy", currency: "EUR", banks: [BANKS.op, BANKS.nordeaFi] },
};
const GENERATED_COUNTRIES: readonly NordicCountry[] = ["NO", "SE", "DK", "FI"];
const GENERATED_AREAS = ["Nord", "Sør", "Vest", "Øst", "Midt", "Kyst", "Fjell", "Dal", "Havn", "Skog"];

/**
 * The extra companies and accounts of a larger organisation (see size.ts):
 * koncern companies `nordlys-gen-006` … up to `size.companies`, rotating
 * through NO, SE, DK and FI with no employees, then accounts `<company>-acc-NN`
 * until every koncern company has `size.accountsPerCompany`. The first
 * generated account of a company is in its local currency ("holding"), the
 * others rotate local / EUR / USD ("fx" for foreign ones), at a low volume
 * (intensity 0.08 ≈ one booking every three weekdays at scale 1) so that a
 * thousand accounts seed in reasonable time.
 */
function generatedSpecs(
  size: SeedSize,
  companies: readonly CompanySpec[],
  accounts: readonly AccountSpec[],
): { companies: CompanySpec[]; accounts: AccountSpec[] } {
  const koncern = companies.filter((c) => c.koncernKey === "nordlys-koncern");
  const extraCompanies: CompanySpec[] = [];
  for (let i = koncern.length + 1; i <= size.companies; i++) {
    const country = GENERATED_COUNTRIES[i % GENERATED_COUNTRIES.length] ?? "NO";
    const area = GENERATED_AREAS[i % GENERATED_AREAS.length] ?? "Nord";
    const number = String(i).padStart(3, "0");
    extraCompanies.push({
      key: `nordlys-gen-${number}`,
      tenantKey: "nordlys",
      name: `Nordlys ${area} ${number} ${GENERATED_COUNTRY[country].suffix}`,
      country,
      koncernKey: "nordlys-koncern",
      employees: 0,
    });
  }
  const extraAccounts: AccountSpec[] = [];
  if (size.accountsPerCompany !== null) {
    for (const company of [...koncern, ...extraCompanies]) {
      const own = accounts.filter((a) => a.companyKey === company.key).length;
      const local = GENERATED_COUNTRY[company.country];
      for (let n = own + 1; n <= size.accountsPerCompany; n++) {
        const generatedIndex = n - own - 1;
        const currency = generatedIndex === 0 ? local.currency : ([local.currency, "EUR", "USD"] as const)[n % 3];
        const bank = local.banks[n % local.banks.length] ?? local.banks[0];
        if (!currency || !bank) throw new Error("demo organization: no bank or currency for a generated account");
        extraAccounts.push({
          key: `${company.key}-acc-${String(n).padStart(2, "0")}`,
          companyKey: company.key,
          bank,
          currency,
          name: `${currency === local.currency ? "Konto" : "Valutakonto"} ${currency} ${n}`,
          role: currency === local.currency ? "holding" : "fx",
          intensity: 0.08,
          level: 1_000_000 + 250_000 * (n % 8),
        });
      }
    }
  }
  return { companies: extraCompanies, accounts: extraAccounts };
}

/**
 * Builds the demo organization for `seed`, of `size` (default: the demo's).
 * Ids, organization numbers and IBANs depend only on the seed and each
 * entity's key, so the demo entities are the same at every size.
 * @throws Error if `size` is out of bounds (naming the field) or a generated
 *   IBAN is not valid (a bug in the generator).
 */
export function buildDemoOrganization(seed: number, size: SeedSize = DEMO_SIZE): SeedOrganization {
  const extra = generatedSpecs(checkSeedSize(size), COMPANIES, ACCOUNTS);
  const companySpecs = [...COMPANIES, ...extra.companies];
  const accountSpecs = [...ACCOUNTS, ...extra.accounts];
  const tenants: SeedTenant[] = TENANTS.map((t) => ({
    key: t.key,
    name: t.name,
    id: stableUuid(seed, `tenant:${t.key}`),
  }));
  const tenantId = (key: string) =>
    required(
      tenants.find((t) => t.key === key),
      `tenant ${key}`,
    ).id;

  const companies: SeedCompany[] = companySpecs.map((c) => ({
    ...c,
    id: stableUuid(seed, `company:${c.key}`),
    tenantId: tenantId(c.tenantKey),
    orgnr: generateOrgnr(createRng(seed, `orgnr:${c.key}`), c.country),
  }));

  const koncerner: SeedKoncern[] = KONCERNER.map((k) => ({
    key: k.key,
    name: k.name,
    id: stableUuid(seed, `koncern:${k.key}`),
    tenantId: tenantId(k.tenantKey),
    companyKeys: companies.filter((c) => c.koncernKey === k.key).map((c) => c.key),
  }));

  const accounts: SeedAccount[] = accountSpecs.map((a) => {
    const company = required(
      companies.find((c) => c.key === a.companyKey),
      `company ${a.companyKey}`,
    );
    const iban = generateIban(createRng(seed, `iban:${a.key}`), a.bank.country, a.bank.bankCode);
    if (!isValidIBAN(iban)) throw new Error(`demo organization: invalid IBAN ${iban}`);
    return {
      key: a.key,
      id: stableUuid(seed, `account:${a.key}`),
      tenantId: company.tenantId,
      companyId: company.id,
      companyKey: company.key,
      country: company.country,
      bank: a.bank,
      iban,
      currency: a.currency,
      name: a.name,
      role: a.role,
      intensity: a.intensity,
      level: a.level,
      coverageSource: a.coverageSource ?? "camt.053",
    };
  });

  return { seed, tenants, companies, koncerner, accounts };
}
