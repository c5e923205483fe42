/**
 * Helpers of the read-view e2e specs: the axe scan (no serious or critical violations) and a CSV download parsed with
 * papaparse.
 */
import { type Locator, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import Papa from "papaparse";
import { AXE_TAGS, expectNoSeriousViolations, settledTitle } from "./fixtures";

/** Fails with the serious / critical axe violations (WCAG 2.2 AA and best practice) of the page as it is now. */
export async function axe(page: Page, name: string) {
  await settledTitle(page);
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expectNoSeriousViolations(name, r.violations);
}

/** Clicks `button`, waits for the download and parses it as CSV with a header line. */
export async function downloadCsv(page: Page, button: Locator) {
  const [dl] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const fs = await import("node:fs/promises");
  return Papa.parse<Record<string, string>>(await fs.readFile(await dl.path(), "utf8"), {
    header: true,
    skipEmptyLines: true,
  });
}
