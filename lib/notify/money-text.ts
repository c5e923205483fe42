/**
 * Amounts inside notification texts (docs/users-and-notifications.md#notifications): a notification keeps the amount
 * as its currency code and exact decimal string (a `[[NOK 1662.11]]` marker in the stored text), and each reader
 * formats it at display time: the notification centre in the viewer's locale, an e-mail in the recipient's locale
 * when known, else en-GB ("NOK 1,662.11"). Texts stored before the marker ("(NOK 1662.11)") are formatted the same
 * way, so older notifications read like new ones. Plain functions, importable by the browser.
 */
import { DECIMAL_STRING_PATTERN, isIso4217 } from "@treasury/contract/amounts";
import { formatMoney } from "../money";

/** The locale an e-mail's amounts are written in when the recipient's is unknown. */
export const MAIL_LOCALE = "en-GB";

/** `[[NOK 1662.11]]`: an ISO 4217 code and a plain decimal string. */
const MARKER = /\[\[([A-Z]{3}) ([+-]?\d+(?:\.\d+)?)\]\]/g;
/** Before the marker, amounts were written raw in parentheses: `(NOK 1662.11)`. */
const LEGACY = /\(([A-Z]{3}) ([+-]?\d+\.\d+)\)/g;

/**
 * The marker for an amount in a notification text.
 * @param amount the API's decimal string ("1662.11", the contract's `DecimalString`); currency an ISO 4217 code ("NOK")
 * @throws TypeError when either is malformed (nothing unformattable is ever stored)
 */
export function moneyMarker(amount: string, currency: string): string {
  if (!isIso4217(currency)) throw new TypeError(`not a currency code: ${JSON.stringify(currency)}`);
  if (!DECIMAL_STRING_PATTERN.test(amount)) throw new TypeError(`not a decimal string: ${JSON.stringify(amount)}`);
  return `[[${currency} ${amount}]]`;
}

/**
 * A stored notification text with its amounts formatted for `locale` (grouping, the currency's decimals; exact, no
 * float): `Batch SAL-11 ([[NOK 1662.11]]) waits…` → `Batch SAL-11 (NOK 1,662.11) waits…` in en-GB. Legacy raw amounts
 * in parentheses are formatted too; any other text is left as it is.
 */
export function formatNotificationText(text: string, locale: string = MAIL_LOCALE): string {
  const fmt = (_: string, currency: string, amount: string) => formatMoney(amount, currency, { locale });
  return text.replace(MARKER, fmt).replace(LEGACY, (_: string, c: string, a: string) => `(${fmt(_, c, a)})`);
}

/**
 * A notification text as an e-mail carries it: amounts formatted for `locale` (default en-GB, the recipient's locale
 * being unknown) with plain spaces in place of Intl's no-break spaces, for every mail client and header.
 */
export function mailText(text: string, locale: string = MAIL_LOCALE): string {
  return formatNotificationText(text, locale).replace(/[\u00a0\u202f]/g, " ");
}
