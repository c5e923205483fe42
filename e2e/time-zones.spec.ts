/**
 * Every instant is shown in the viewer's time zone and locale: on the server's first paint (the zone travels in the
 * `tz` cookie the browser sets, the locale in Accept-Language), after hydration and after client-side navigation.
 * Run in two zones and two locales; the expected text is computed here from the `<time>` element's ISO value with the
 * dashboard's formatter in the zone and locale under test.
 */
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { formatTimestamp } from "../lib/format-date";
import { SCREENSHOTS, storageState } from "./fixtures";

/** Intl output uses narrow and normal no-break spaces that differ between ICU builds; compare on plain spaces. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ").trim();

/**
 * What a `<time>` of `iso` should read in `locale` and `timeZone`: lib/format-date.ts's `formatTimestamp` (its format
 * is pinned by lib/format-date.test.ts; here the point is the zone and locale each render path uses).
 */
function expectedText(iso: string, locale: string, timeZone: string, opts: { seconds?: boolean; zone?: boolean }) {
  return plain(formatTimestamp(iso, locale, { timeZone, seconds: opts.seconds, zoneName: opts.zone }));
}

/**
 * The text a `<time>` shows and the text it should show. Waits until it is visible: on a first visit (no `tz` cookie
 * yet) the server renders times hidden, and the browser shows them in its zone after hydration.
 */
async function shownAndExpected(time: Locator, locale: string, timeZone: string, opts = {}) {
  await expect(time).toBeVisible();
  const iso = (await time.getAttribute("datetime")) ?? "";
  expect(iso, "a <time> element carries its ISO 8601 value with offset").toMatch(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/,
  );
  return { shown: plain(await time.innerText()), expected: expectedText(iso, locale, timeZone, opts), iso };
}

async function firstBatchCreated(page: Page) {
  return page.getByTestId("batch-row").first().locator("time").first();
}

for (const { timeZone, locale } of [
  { timeZone: "Europe/Oslo", locale: "en-GB" },
  { timeZone: "America/New_York", locale: "en-US" },
]) {
  test.describe(`viewer in ${timeZone} (${locale})`, () => {
    test.use({ storageState: storageState("viewer"), timezoneId: timeZone, locale });

    test("batch times are local on first paint, after hydration and after client-side navigation", async ({
      page,
      context,
    }) => {
      // The saved session carries the zone the sign-in ran in (UTC), as after travelling: the server renders that
      // zone, the browser re-renders in its own at once and stores it for the next server render.
      await page.goto("/payments");
      const time = await firstBatchCreated(page);
      await expect
        .poll(async () => {
          const { shown, expected } = await shownAndExpected(time, locale, timeZone);
          return shown === expected ? "local" : `${shown} (expected ${expected})`;
        })
        .toBe("local");
      const first = await shownAndExpected(time, locale, timeZone);
      await expect
        .poll(async () => (await context.cookies()).find((c) => c.name === "tz")?.value)
        .toBe(encodeURIComponent(timeZone));

      // The server's own HTML (what paints before any script runs) now carries the same local text (the request
      // carries the browser's Accept-Language, as a navigation does).
      const html = plain(
        await (await page.request.get("/payments", { headers: { "accept-language": locale } })).text(),
      );
      expect(html).toContain(first.iso);
      expect(html).toContain(first.expected);
      expect(html).toMatch(new RegExp(`<html lang="${locale}"`));

      // A client-side link to the batch shows its creation time in the same zone.
      const row = page.getByTestId("batch-row").first();
      await row.getByRole("link").click();
      await expect(page).toHaveURL(/\/payments\/[0-9a-f-]+$/);
      const created = page
        .locator("time")
        .filter({ hasText: /\d{2}:\d{2}/ })
        .first();
      const detail = await shownAndExpected(created, locale, timeZone);
      expect(detail.shown).toBe(detail.expected);
      await page.screenshot({ path: path.join(SCREENSHOTS, `time-zone-${timeZone.replace("/", "-")}.png`) });
    });
  });
}

test.describe("audit log times carry their zone", () => {
  test.use({ storageState: storageState("admin"), timezoneId: "Europe/Oslo", locale: "en-GB" });

  test("each event shows local time with the zone name", async ({ page }) => {
    await page.goto("/audit?events=all");
    const time = page
      .locator("main time")
      .filter({ hasText: /\d{2}:\d{2}/ })
      .first();
    await expect(time).toBeVisible();
    // The saved session's zone cookie says UTC (where it signed in): the server renders UTC, the browser re-renders.
    const zoned = { seconds: true, zone: true };
    await expect
      .poll(async () => {
        const { shown, expected } = await shownAndExpected(time, "en-GB", "Europe/Oslo", zoned);
        return shown === expected ? "local" : `${shown} (expected ${expected})`;
      })
      .toBe("local");
    const { shown } = await shownAndExpected(time, "en-GB", "Europe/Oslo", zoned);
    expect(shown).toMatch(/CES?T$/);
  });
});
