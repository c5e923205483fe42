/**
 * Counterparties and remittance texts of the demo ledger:
 * believable Nordic names (fictional companies), the tax authorities, and
 * national payment references — Norwegian KID and Swedish OCR (Luhn check
 * digit), Finnish viitenumero (7-3-1 check digit).
 */
import type { NordicCountry } from "./identifiers";
import { luhnCheckDigit } from "./identifiers";
import type { Rng } from "./prng";

/** The language each country's texts are written in (BCP 47). */
const LANGUAGE: Record<NordicCountry, string> = { NO: "nb", SE: "sv", DK: "da", FI: "fi" };

/** The twelve month names of `language` as `Intl` spells them standing alone (lower case in the Nordic languages). */
function monthNames(language: string): readonly string[] {
  const format = new Intl.DateTimeFormat(language, { month: "long", timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, m) => format.format(new Date(Date.UTC(2026, m, 15))));
}

/** Names of the months in the language of each country, January first ("januar", "januari", "tammikuu"). */
export const MONTHS: Record<NordicCountry, readonly string[]> = {
  NO: monthNames(LANGUAGE.NO),
  SE: monthNames(LANGUAGE.SE),
  DK: monthNames(LANGUAGE.DK),
  FI: monthNames(LANGUAGE.FI),
};

export const CUSTOMERS: Record<NordicCountry, readonly string[]> = {
  NO: [
    "Bergen Fiskeeksport AS",
    "Tromsø Havnelogistikk AS",
    "Stavanger Offshore Service AS",
    "Trondheim Byggevare AS",
    "Kristiansand Marin AS",
    "Bodø Elektro AS",
    "Ålesund Møbelfabrikk AS",
    "Hamar Agro AS",
    "Drammen Verktøy AS",
    "Lillehammer Sport AS",
    "Molde Maskin AS",
    "Haugesund Shipping AS",
    "Fredrikstad Dagligvare AS",
    "Narvik Malm AS",
  ],
  SE: [
    "Göteborgs Hamnservice AB",
    "Malmö Livs AB",
    "Uppsala Byggmaterial AB",
    "Norrlands Trä AB",
    "Västerås Elteknik AB",
    "Linköpings Maskin AB",
    "Örebro Logistik AB",
    "Sundsvall Papper AB",
    "Jönköpings Möbler AB",
    "Luleå Stål AB",
  ],
  DK: [
    "Aarhus Havnelogistik A/S",
    "Odense Fødevarer ApS",
    "Aalborg Maskinfabrik A/S",
    "Esbjerg Offshore ApS",
    "Vejle Byggecenter A/S",
    "Roskilde Elektro ApS",
    "Horsens Møbler A/S",
    "Kolding Transport ApS",
  ],
  FI: [
    "Tampereen Kone Oy",
    "Oulun Satamalogistiikka Oy",
    "Turun Elintarvike Oy",
    "Jyväskylän Rakennus Oy",
    "Kuopion Sähkö Oy",
    "Lahden Puutuote Oy",
    "Vaasan Energia Oy",
    "Porin Teräs Oy",
  ],
};

export const SUPPLIERS: Record<NordicCountry, readonly string[]> = {
  NO: [
    "Nordisk Emballasje AS",
    "Viken Transport AS",
    "Fjellkraft Energi AS",
    "Kontorpartner Norge AS",
    "IT-Drift Bergen AS",
    "Oslo Revisjon AS",
    "Advokatfirmaet Berg & Lunde AS",
    "Rogaland Stål AS",
    "Vestland Renhold AS",
    "Innlandet Trelast AS",
  ],
  SE: [
    "Svensk Förpackning AB",
    "Mälardalens Transport AB",
    "Kontorsgruppen Sverige AB",
    "Stockholms Revisionsbyrå AB",
    "Skånska Energi AB",
    "Norrköpings Städservice AB",
    "Dalarnas Trävaror AB",
  ],
  DK: [
    "Dansk Emballage A/S",
    "Jysk Fragt ApS",
    "København Revision A/S",
    "Fyns Energi A/S",
    "Sjællands Rengøring ApS",
    "Nordsø Stål A/S",
  ],
  FI: [
    "Suomen Pakkaus Oy",
    "Vantaan Kuljetus Oy",
    "Helsingin Tilintarkastus Oy",
    "Pohjolan Energia Oy",
    "Espoon Siivouspalvelu Oy",
  ],
};

/** Trading partners of the EUR and USD accounts. */
export const FOREIGN_PARTNERS: readonly string[] = [
  "Hamburg Marine Supplies GmbH",
  "Rotterdam Freight B.V.",
  "Boston Seafood Importers Inc.",
  "Seattle Ocean Traders LLC",
  "Lyon Industrie SAS",
  "Milano Componenti S.r.l.",
  "Gdańsk Shipyard Services Sp. z o.o.",
  "Tallinn Logistics OÜ",
  "Antwerp Chemicals NV",
  "Bilbao Aceros S.L.",
];

export const TAX_AUTHORITY: Record<NordicCountry, string> = {
  NO: "Skatteetaten",
  SE: "Skatteverket",
  DK: "Skattestyrelsen",
  FI: "Verohallinto",
};

export const LANDLORD: Record<NordicCountry, string> = {
  NO: "Bryggen Næringsbygg AS",
  SE: "Stockholms Fastighets AB",
  DK: "Ejendomsselskabet Havnen A/S",
  FI: "Kiinteistö Oy Keskustorni",
};

export const CARD_ACQUIRER: Record<NordicCountry, string> = {
  NO: "Nets Branch Norway",
  SE: "Nets Sweden AB",
  DK: "Nets Denmark A/S",
  FI: "Nets Finland",
};

/** Short words of the texts, per language. */
export const WORDS: Record<
  NordicCountry,
  {
    invoice: string;
    salary: string;
    rent: string;
    fee: string;
    interest: string;
    card: string;
    topUp: string;
    sweep: string;
    refund: string;
    vat: string;
  }
> = {
  NO: {
    invoice: "Faktura",
    salary: "Lønn",
    rent: "Husleie",
    fee: "Gebyr",
    interest: "Renter",
    card: "Kortoppgjør",
    topUp: "Overføring fra konsernkonto",
    sweep: "Overføring til konsernkonto",
    refund: "Kreditnota",
    vat: "MVA",
  },
  SE: {
    invoice: "Faktura",
    salary: "Lön",
    rent: "Hyra",
    fee: "Avgift",
    interest: "Ränta",
    card: "Kortinlösen",
    topUp: "Överföring från koncernkonto",
    sweep: "Överföring till koncernkonto",
    refund: "Kreditfaktura",
    vat: "Moms",
  },
  DK: {
    invoice: "Faktura",
    salary: "Løn",
    rent: "Husleje",
    fee: "Gebyr",
    interest: "Renter",
    card: "Kortafregning",
    topUp: "Overførsel fra koncernkonto",
    sweep: "Overførsel til koncernkonto",
    refund: "Kreditnota",
    vat: "Moms",
  },
  FI: {
    invoice: "Lasku",
    salary: "Palkka",
    rent: "Vuokra",
    fee: "Palvelumaksu",
    interest: "Korko",
    card: "Korttitilitys",
    topUp: "Siirto konsernitililtä",
    sweep: "Siirto konsernitilille",
    refund: "Hyvityslasku",
    vat: "ALV",
  },
};

/** A Norwegian KID / Swedish OCR number: `length` digits, the last a Luhn check digit. */
export function luhnReference(rng: Rng, length: number): string {
  const body = rng.digits(length - 1);
  return `${body}${luhnCheckDigit(body)}`;
}

/** A Finnish viitenumero: digits with the 7-3-1 check digit, grouped by five from the right. */
export function finnishReference(rng: Rng): string {
  const body = `${rng.int(1, 9)}${rng.digits(rng.int(5, 9))}`;
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (weights[i % 3] ?? 1);
  const ref = `${body}${(10 - (sum % 10)) % 10}`;
  const groups: string[] = [];
  for (let end = ref.length; end > 0; end -= 5) groups.unshift(ref.slice(Math.max(0, end - 5), end));
  return groups.join(" ");
}

/** The payment reference a customer in `country` typically quotes. */
export function customerReference(rng: Rng, country: NordicCountry, invoiceNo: number): string {
  const w = WORDS[country];
  switch (country) {
    case "NO":
      return rng.chance(0.7) ? `KID ${luhnReference(rng, 12)}` : `${w.invoice} ${invoiceNo}`;
    case "SE":
      return rng.chance(0.7) ? `OCR ${luhnReference(rng, 10)}` : `${w.invoice} ${invoiceNo}`;
    case "DK":
      return rng.chance(0.5) ? `FIK +71<${rng.digits(15)}+${rng.digits(8)}<` : `Faktura nr. ${invoiceNo}`;
    case "FI":
      return rng.chance(0.7) ? `Viite ${finnishReference(rng)}` : `${w.invoice} ${invoiceNo}`;
  }
}
