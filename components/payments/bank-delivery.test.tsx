/**
 * The batch page's "Sent to bank" line (docs/bank-channels.md "Push"): file name and the sent time in the viewer's
 * zone and locale; nothing where the API lacks the field or the file is not sent yet.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ViewerProvider } from "@/components/format/viewer";
import { BankDeliveryLine } from "./bank-delivery";

const DELIVERY = {
  file_name: "TD0f9e8d7c6b5a49388a1b2c3d4e5f6071.xml",
  sent_at: "2026-11-27T23:30:00.000Z",
  connection_name: "DNB",
};

function html(delivery: Parameters<typeof BankDeliveryLine>[0]["delivery"], timeZone: string, locale = "en-GB") {
  return renderToStaticMarkup(
    <ViewerProvider locale={locale} timeZone={timeZone}>
      <BankDeliveryLine delivery={delivery} />
    </ViewerProvider>,
  );
}

const text = (markup: string) => markup.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");

describe("BankDeliveryLine", () => {
  it("shows the file and the time in the viewer's zone", () => {
    const oslo = text(html(DELIVERY, "Europe/Oslo"));
    expect(oslo).toContain("Sent to bank");
    expect(oslo).toContain(DELIVERY.file_name);
    expect(oslo).toContain("28 Nov 2026");
    expect(oslo).toMatch(/00:30/);
    expect(oslo).toContain("(DNB)");
    // The same instant seen from New York is the evening before.
    const ny = text(html(DELIVERY, "America/New_York"));
    expect(ny).toContain("27 Nov 2026");
    expect(ny).toMatch(/18:30/);
    expect(html(DELIVERY, "Europe/Oslo")).toContain(`dateTime="${DELIVERY.sent_at}"`);
  });

  it("follows the viewer's locale", () => {
    expect(text(html(DELIVERY, "Europe/Oslo", "nb-NO"))).toMatch(/28\.? nov\.? 2026/);
  });

  it("renders nothing without the field (an API without bank channels) or before the file is sent", () => {
    expect(html(undefined, "Europe/Oslo")).toBe("");
    expect(html(null, "Europe/Oslo")).toBe("");
  });
});
