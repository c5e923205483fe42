/**
 * Demo-like camt.053 statement files for the importer's tests, written by
 * `buildCamt053`: one day (2026-01-12) of the demo group's banks, with the
 * demo seed's banks and IBAN generator. Between them the two files carry
 * every case the importer has a rule for:
 *
 * - `DNB_FILE` (camt.053.001.02, three statements): an IBAN account with a
 *   DBIT opening balance dated the statement day, closing and forward
 *   balances; single payments with unstructured (multi-line) and structured
 *   remittance, NOTPROVIDED end-to-end ids, a salary batch with three TxDtls,
 *   a two-transaction batch from one payer, an entry with only AddtlNtryInf,
 *   the same fee booked twice under one AcctSvcrRef, a reversal (RvslInd) of
 *   a payment, a pending entry, amounts written "075.50" and "12.500"; an
 *   `Othr` account whose servicer has a name but no BIC, with a DtTm booking,
 *   a DBIT closing and a FrToDt of [D 00:00, D+1 00:00); an EUR account
 *   without servicer and without entries over a weekend period.
 * - `NORDEA_FILE` (camt.053.001.08, one statement): BICFI, `Pty/Nm` parties,
 *   `Sts/Cd`, no `Acct/Ccy`, a FrToDt without offset, an amount with one
 *   decimal ("45000.5"), a foreign-currency
 *   entry, a batch given only as `Btch/NbOfTxs`, a reversal of a received
 *   payment, pending and informational entries, every other balance code.
 *
 * The figures the tests expect are written next to the data they follow from.
 */
import { BANKS } from "../seed/organization";
import { generateIban } from "../seed/identifiers";
import { createRng } from "../seed/prng";
import { buildCamt053, camtDocument } from "./camt053-builder";

const SEED = 2026;

/** The statement day of every demo file. */
export const DAY = "2026-01-12";

export const IBANS = {
  dnbOperating: generateIban(createRng(SEED, "camt053:dnb-operating"), "NO", BANKS.dnb.bankCode),
  dnbEur: generateIban(createRng(SEED, "camt053:dnb-eur"), "NO", BANKS.dnb.bankCode),
  nordeaSe: generateIban(createRng(SEED, "camt053:nordea-se"), "SE", BANKS.nordeaSe.bankCode),
} as const;

/** The tax withholding account, identified by its Norwegian account number (`Othr/Id`), not an IBAN. */
export const TAX_ACCOUNT = "15039912345";

/**
 * DNB, camt.053.001.02. Operating account: opening -1500.00 (DBIT) + credits
 * 140512.50 − debits 111075.50 (booked entries only) = closing 27937.00.
 */
export const DNB_DOC = camtDocument(
  { version: "02", messageId: "DNB-20260112-0001", createdAt: `${DAY}T20:00:00+01:00` },
  [
    {
      id: "DNB-OP-20260112",
      account: {
        iban: IBANS.dnbOperating,
        currency: "NOK",
        name: "Nordlys Energi AS driftskonto",
        servicerBic: BANKS.dnb.bic,
      },
      balances: [
        { code: "OPBD", amount: "-1500.00", currency: "NOK", date: DAY },
        { code: "CLBD", amount: "27937.00", currency: "NOK", date: DAY },
        { code: "CLAV", amount: "27937.00", currency: "NOK", date: DAY },
        { code: "FWAV", amount: "27937.00", currency: "NOK", date: "2026-01-13" },
        { code: "FWAV", amount: "27937.00", currency: "NOK", date: "2026-01-14" },
      ],
      entries: [
        {
          entryRef: "1",
          servicerRef: "DNB2026011200001",
          amount: "125000.00",
          currency: "NOK",
          direction: "credit",
          booked: DAY,
          value: "2026-01-13",
          txs: [
            {
              endToEndId: "NORDLYS-INV-1042",
              counterparty: "Kunde Bergen AS",
              remittance: ["Faktura 1042\n            januar"],
            },
          ],
        },
        {
          entryRef: "2",
          servicerRef: "DNB2026011200002",
          amount: "12500.00",
          currency: "NOK",
          direction: "debit",
          booked: DAY,
          value: DAY,
          txs: [{ endToEndId: "NOTPROVIDED", counterparty: "Fjordkraft AS", creditorRef: "2345678901234" }],
        },
        {
          entryRef: "3",
          servicerRef: "DNB2026011200003",
          amount: "98000.00",
          currency: "NOK",
          direction: "debit",
          booked: DAY,
          additionalInfo: "Lønn januar 2026",
          batchCount: 3,
          txs: [
            { endToEndId: "LONN-2026-01-001", amount: "41000.00", counterparty: "Ola Nordmann", remittance: ["Lønn"] },
            {
              endToEndId: "LONN-2026-01-002",
              amount: "32000.00",
              counterparty: "Kari " + "Nordmann",
              remittance: ["Lønn"],
            },
            { endToEndId: "LONN-2026-01-003", amount: "25000.00", counterparty: "Per Hansen", remittance: ["Lønn"] },
          ],
        },
        {
          entryRef: "4",
          servicerRef: "DNB2026011200004",
          amount: "3000.00",
          currency: "NOK",
          direction: "credit",
          booked: DAY,
          txs: [
            { endToEndId: "VIPPS-88121", amount: "1200.00", counterparty: "Vipps MobilePay AS" },
            { endToEndId: "VIPPS-88122", amount: "1800.00", counterparty: "Vipps MobilePay AS" },
          ],
        },
        // The bank booked its monthly fee twice under one reference: two bookings (entries 5 and 6), both kept.
        ...["5", "6"].map((entryRef) => ({
          entryRef,
          servicerRef: "DNB-FEE-0112",
          amount: "250.00",
          currency: "NOK",
          direction: "debit" as const,
          booked: DAY,
          additionalInfo: "Gebyr\n      januar",
        })),
        // Fjordkraft's payment (entry 2) came back: a credit under the same reference.
        {
          entryRef: "7",
          servicerRef: "DNB2026011200002",
          amount: "12500.00",
          currency: "NOK",
          direction: "credit",
          reversal: true,
          booked: DAY,
          txs: [{ endToEndId: "NORDLYS-PAY-0007", counterparty: "Fjordkraft AS", remittance: ["Retur: konto lukket"] }],
        },
        {
          entryRef: "8",
          servicerRef: "DNB2026011200008",
          amount: "4000.00",
          currency: "NOK",
          direction: "debit",
          status: "PDNG",
          booked: DAY,
          txs: [{ counterparty: "Telenor Norge AS" }],
        },
        {
          entryRef: "9",
          servicerRef: "DNB2026011200009",
          amount: "075.50",
          currency: "NOK",
          direction: "debit",
          booked: DAY,
          txs: [{ counterparty: "Posten Norge AS", remittance: ["Porto"] }],
        },
        {
          entryRef: "10",
          amount: "12.500",
          currency: "NOK",
          direction: "credit",
          booked: DAY,
          additionalInfo: "Renter",
        },
      ],
    },
    {
      id: "DNB-TAX-20260112",
      period: { from: `${DAY}T00:00:00+01:00`, to: "2026-01-13T00:00:00+01:00" },
      account: { otherId: TAX_ACCOUNT, currency: "NOK", servicerName: "DNB Bank ASA" },
      balances: [{ code: "CLBD", amount: "-7.00", currency: "NOK", date: `${DAY}T23:59:00+01:00` }],
      entries: [
        {
          amount: "7.00",
          currency: "NOK",
          direction: "debit",
          booked: `${DAY}T08:15:00+01:00`,
          txs: [{ counterparty: "Skatteetaten", remittance: ["Forskuddstrekk"] }],
        },
      ],
    },
    {
      id: "DNB-EUR-20260112",
      period: { from: "2026-01-10T00:00:00+01:00", to: `${DAY}T23:59:59+01:00` },
      account: { iban: IBANS.dnbEur, currency: "EUR" },
      balances: [
        { code: "OPBD", amount: "50000.00", currency: "EUR", date: "2026-01-09" },
        { code: "CLBD", amount: "50000.00", currency: "EUR", date: DAY },
      ],
      entries: [],
    },
  ],
);

/**
 * Nordea Sweden, camt.053.001.08. SEK: previous closing 80000.00 + 45000.5
 * − (30000.00 + 8400.00 + 500.00) = closing 86100.50; the EUR entry is in
 * another currency and not part of that sum.
 */
export const NORDEA_DOC = camtDocument(
  { version: "08", messageId: "NDEA-20260112-7781", createdAt: `${DAY}T21:30:00+01:00` },
  [
    {
      id: "NDEA-SE-20260112",
      period: { from: `${DAY}T00:00:00`, to: `${DAY}T23:59:59` },
      account: {
        iban: IBANS.nordeaSe,
        servicerBic: BANKS.nordeaSe.bic,
        servicerName: "Nordea Bank Abp, filial i Sverige",
      },
      balances: [
        { code: "PRCD", amount: "80000.00", currency: "SEK", date: "2026-01-11" },
        { code: "OPAV", amount: "80000.00", currency: "SEK", date: DAY },
        { code: "ITBD", amount: "125000.50", currency: "SEK", date: DAY },
        { code: "ITAV", amount: "124000.50", currency: "SEK", date: DAY },
        { code: "CLBD", amount: "86100.50", currency: "SEK", date: DAY },
        { code: "CLAV", amount: "85100.50", currency: "SEK", date: DAY },
        { code: "INFO", amount: "1.00", currency: "SEK", date: DAY },
        { code: "XPCD", amount: "86100.50", currency: "SEK", date: "2026-01-13" },
      ],
      entries: [
        {
          entryRef: "N1",
          servicerRef: "NDEA0112A001",
          amount: "45000.5",
          currency: "SEK",
          direction: "credit",
          booked: DAY,
          value: DAY,
          txs: [{ endToEndId: "SE-INV-2201", counterparty: "Kund Stockholm AB", creditorRef: "RF18539007547034" }],
        },
        {
          entryRef: "N2",
          servicerRef: "NDEA0112A002",
          amount: "1200.00",
          currency: "EUR",
          direction: "debit",
          booked: DAY,
          value: "2026-01-14",
          txs: [{ endToEndId: "NORDLYS-TRV-0042", counterparty: "Lufthansa AG", remittance: ["Flight", "LH 4711"] }],
        },
        {
          entryRef: "N3",
          servicerRef: "NDEA0112A003",
          amount: "30000.00",
          currency: "SEK",
          direction: "debit",
          booked: DAY,
          batchCount: 12,
          additionalInfo: "Leverantörsbetalningar",
        },
        {
          entryRef: "N4",
          servicerRef: "NDEA0112A004",
          amount: "8400.00",
          currency: "SEK",
          direction: "debit",
          booked: DAY,
          batchCount: 2,
          txs: [
            { endToEndId: "SKV-2026-01-A", amount: "6000.00", counterparty: "Skatteverket", creditorRef: "5566778899" },
            { endToEndId: "SKV-2026-01-B", amount: "2400.00", counterparty: "Skatteverket", creditorRef: "5566778800" },
          ],
        },
        // A customer's earlier payment was recalled: a debit, the money going back to the customer.
        {
          entryRef: "N5",
          servicerRef: "NDEA0109A017",
          amount: "500.00",
          currency: "SEK",
          direction: "debit",
          reversal: true,
          booked: DAY,
          txs: [{ endToEndId: "SE-INV-2188", counterparty: "Kund Göteborg AB", remittance: ["Återbetalning"] }],
        },
        {
          entryRef: "N6",
          amount: "15000.00",
          currency: "SEK",
          direction: "credit",
          status: "PDNG",
          booked: "2026-01-13",
          txs: [{ counterparty: "Kund Malmö AB" }],
        },
        {
          entryRef: "N7",
          amount: "99.00",
          currency: "SEK",
          direction: "debit",
          status: "INFO",
          booked: DAY,
          additionalInfo: "Kommande kortavgift",
        },
      ],
    },
  ],
);

/** The two demo files as the importer takes them. */
export const DNB_FILE = { name: "dnb-no-20260112.xml", content: buildCamt053(DNB_DOC) };
export const NORDEA_FILE = { name: "nordea-se-20260112.xml", content: buildCamt053(NORDEA_DOC) };
