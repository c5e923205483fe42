/**
 * URL state of the group overview: which breakdown the table and chart show
 * (`?by=company|koncern|bank|currency|account`).
 */
import { parseAsStringLiteral } from "nuqs/server";

export const GROUP_BREAKDOWNS = ["company", "koncern", "bank", "currency", "account"] as const;
export type GroupBreakdown = (typeof GROUP_BREAKDOWNS)[number];

export const groupUrlParsers = {
  by: parseAsStringLiteral(GROUP_BREAKDOWNS).withDefault("company"),
};
