/**
 * Display names of banks from their BIC (ISO 9362), for accounts that a
 * statement import creates. The first four characters of a
 * BIC are the institution code, shared by all of a bank's branches and
 * countries (NDEAFIHH, NDEANOKK → Nordea), so that is the lookup key.
 */

const BY_INSTITUTION: Readonly<Record<string, string>> = {
  ABNA: "ABN AMRO",
  BARC: "Barclays",
  BNPA: "BNP Paribas",
  CHAS: "JPMorgan Chase",
  CITI: "Citibank",
  COBA: "Commerzbank",
  CRES: "Credit Suisse",
  DABA: "Danske Bank",
  DEUT: "Deutsche Bank",
  DNBA: "DNB",
  ESSE: "SEB",
  GSCR: "Goldman Sachs",
  GSLD: "Goldman Sachs",
  HAND: "Handelsbanken",
  HSBC: "HSBC",
  INGB: "ING",
  LOYD: "Lloyds Bank",
  MIDL: "HSBC UK",
  NDEA: "Nordea",
  NWBK: "NatWest",
  OKOY: "OP",
  POFI: "PostFinance",
  RABO: "Rabobank",
  SOGE: "Société Générale",
  SWED: "Swedbank",
  UBSW: "UBS",
  UNCR: "UniCredit",
};

/**
 * The bank's display name: the known name for the BIC's institution code,
 * else the name the statement gives for the servicer, else the BIC itself,
 * else "Unknown bank".
 */
export function bankNameFor(bic: string | null, servicerName: string | null): string {
  const known = bic ? BY_INSTITUTION[bic.slice(0, 4).toUpperCase()] : undefined;
  return known ?? servicerName ?? bic ?? "Unknown bank";
}
