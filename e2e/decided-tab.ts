/**
 * The Decided tab of the reconciliation review lists the newest decision first, across the user's companies, 25 to a
 * page. Specs running alongside decide other matches in the same seconds, so a match a spec has just decided need not
 * be on the first page: these helpers find the page that holds it (through the dashboard's own review endpoint) and
 * open the tab there, so the row's rendering is still what the spec checks.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { endpointUrl } from "../lib/bff/endpoint";
import { reconciliationEndpoints } from "../lib/bff/areas/reconciliation/endpoints";

/** The part of a review row these helpers read (lib/views/reconciliation's MatchReviewRow). */
interface DecidedItem {
  match: { id: string; state: string };
  instruction: { end_to_end_id: string; creditor_name?: string | null } | null;
}

/**
 * The first item of the Decided tab that `pick` accepts and the tab's page (1-based) that lists it, read page by page
 * through the dashboard's review endpoint as `page`'s user; undefined when no page lists one.
 */
export async function findDecided(
  page: Page,
  pick: (item: DecidedItem) => boolean,
): Promise<{ page: number; item: DecidedItem } | undefined> {
  for (let p = 1; p <= 200; p++) {
    const res = await page.request.get(endpointUrl(reconciliationEndpoints.review, {}, { tab: "decided", page: p }));
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { items: DecidedItem[]; has_next: boolean };
    const item = body.items.find(pick);
    if (item) return { page: p, item };
    if (!body.has_next) return undefined;
  }
  return undefined;
}

/**
 * Opens `/reconciliation?tab=decided` at the page holding the match `pick` accepts and waits until `row` (a locator
 * of that match's row on `page`) is visible; retried for up to a minute, because more decisions can move the match
 * to a later page between the lookup and the navigation.
 */
export async function openDecidedRow(page: Page, pick: (item: DecidedItem) => boolean, row: Locator): Promise<void> {
  await expect(async () => {
    const p = (await findDecided(page, pick))?.page;
    expect(p, "the match is on no page of the Decided tab").toBeDefined();
    await page.goto(p === 1 ? "/reconciliation?tab=decided" : `/reconciliation?tab=decided&page=${p}`);
    await expect(row).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
