import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEcbCsv } from "./ecb-csv";
import { parseEcbXml } from "./ecb-xml";
import { parseFxFile } from "./parse";
import { FxFileError } from "./rate-file";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

/** The error a parse throws (fails the test when it does not throw). */
function failure(run: () => unknown): FxFileError {
  try {
    run();
  } catch (err) {
    if (err instanceof FxFileError) return err;
    throw err;
  }
  throw new Error("expected an FxFileError");
}

const xml = (days: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" ` +
  `xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
${days}
  </Cube>
</gesmes:Envelope>`;

describe("ECB XML", () => {
  it("reads the daily file: one date, every currency, rates exactly as published", () => {
    const r = parseFxFile(fixture("eurofxref-daily.xml"));
    expect(r.format).toBe("ecb-xml");
    expect(r.dates).toBe(1);
    expect(r.rates).toHaveLength(29);
    expect(r.rates[0]).toEqual({ date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.1573" });
    // Trailing zeros and the published decimals are kept (no number parsing).
    for (const rate of r.rates) expect(fixture("eurofxref-daily.xml")).toContain(`rate='${rate.rate}'`);
  });

  it("reads the historical file: every day, in file order", () => {
    const r = parseEcbXml(fixture("eurofxref-hist.xml"));
    expect(r.dates).toBe(7);
    expect(r.rates).toHaveLength(7 * 29);
    expect([...new Set(r.rates.map((x) => x.date))]).toEqual([
      "2026-11-20",
      "2026-11-19",
      "2026-11-18",
      "2026-11-17",
      "2026-11-16",
      "2026-11-13",
      "2026-11-12",
    ]);
  });

  it("names the element and date of a bad rate", () => {
    const e = failure(() =>
      parseEcbXml(
        xml(
          `<Cube time="2026-11-20">\n<Cube currency="USD" rate="1.1573"/>\n<Cube currency="NOK" rate="11,7"/>\n</Cube>`,
        ),
      ),
    );
    expect(e.location).toBe('line 7, <Cube time="2026-11-20"> > <Cube currency="NOK">');
    expect(e.problem).toMatch(/"11,7" is not a positive decimal/);
  });

  it.each([
    ["a zero rate", '<Cube time="2026-11-20"><Cube currency="USD" rate="0.0000"/></Cube>', /not a positive decimal/],
    ["a negative rate", '<Cube time="2026-11-20"><Cube currency="USD" rate="-1.1"/></Cube>', /not a positive/],
    ["an exponent", '<Cube time="2026-11-20"><Cube currency="USD" rate="1e3"/></Cube>', /not a positive/],
    ["a missing rate", '<Cube time="2026-11-20"><Cube currency="USD"/></Cube>', /no rate attribute/],
    ["a missing currency", '<Cube time="2026-11-20"><Cube rate="1.1"/></Cube>', /no currency attribute/],
    ["a bad currency", '<Cube time="2026-11-20"><Cube currency="usd" rate="1.1"/></Cube>', /ISO 4217/],
    ["EUR against itself", '<Cube time="2026-11-20"><Cube currency="EUR" rate="1"/></Cube>', /other than EUR/],
    ["a missing time", '<Cube><Cube currency="USD" rate="1.1"/></Cube>', /no time attribute/],
    ["a bad date", '<Cube time="2026-02-30"><Cube currency="USD" rate="1.1"/></Cube>', /not a date/],
    ["an empty day", '<Cube time="2026-11-20"></Cube>', /no <Cube currency/],
    [
      "a currency twice",
      '<Cube time="2026-11-20"><Cube currency="USD" rate="1.1"/><Cube currency="USD" rate="1.2"/></Cube>',
      /currency given twice/,
    ],
  ])("refuses %s", (_name, days, problem) => {
    expect(failure(() => parseEcbXml(xml(days))).problem).toMatch(problem);
  });

  it("refuses a date given twice, naming both places", () => {
    const e = failure(() =>
      parseEcbXml(
        xml(
          '<Cube time="2026-11-20"><Cube currency="USD" rate="1.1"/></Cube>\n<Cube time="2026-11-20"><Cube ' +
            'currency="USD" rate="1.1"/></Cube>',
        ),
      ),
    );
    expect(e.message).toMatch(/^line 6, <Cube time="2026-11-20">: date given twice \(first at line 5/);
  });

  it("refuses a missing Cube, another root, a truncated file and a DOCTYPE", () => {
    expect(failure(() => parseEcbXml(xml("").replace(/<\/?Cube>/g, ""))).problem).toMatch(/expected one <Cube>/);
    expect(failure(() => parseEcbXml("<rates><Cube/></rates>")).problem).toMatch(/gesmes:Envelope/);
    const truncated = fixture("eurofxref-hist.xml").slice(0, 900);
    expect(failure(() => parseEcbXml(truncated)).message).toMatch(/^line \d+, column \d+: not well-formed XML/);
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>${xml("")}`;
    expect(failure(() => parseEcbXml(bomb)).problem).toMatch(/DOCTYPE/);
  });
});

describe("ECB CSV", () => {
  it("reads the historical file: skips N/A cells, ignores the trailing comma", () => {
    const r = parseFxFile(fixture("eurofxref-hist.csv"));
    expect(r.format).toBe("ecb-csv");
    expect(r.dates).toBe(7);
    // 41 columns of which 12 are retired currencies (N/A on every row).
    expect(r.rates).toHaveLength(7 * 29);
    expect(r.rates.some((x) => x.quote === "BGN" || x.quote === "HRK")).toBe(false);
    expect(r.rates[0]).toEqual({ date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.1573" });
  });

  it("gives the same rates as the XML file of the same days", () => {
    const key = (x: { date: string; quote: string; rate: string }) => `${x.date} ${x.quote} ${x.rate}`;
    const fromCsv = parseEcbCsv(fixture("eurofxref-hist.csv")).rates.map(key).sort();
    const fromXml = parseEcbXml(fixture("eurofxref-hist.xml")).rates.map(key).sort();
    expect(fromCsv).toEqual(fromXml);
  });

  it("reads the daily CSV layout (spaces after commas, a written-out date)", () => {
    const r = parseEcbCsv("Date, USD, JPY, BGN, \n20 November 2026, 1.1573, 179.81, N/A, \n");
    expect(r.rates).toEqual([
      { date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.1573" },
      { date: "2026-11-20", base: "EUR", quote: "JPY", rate: "179.81" },
    ]);
  });

  it("reads a file without trailing commas, with CRLF, a BOM and blank lines", () => {
    const r = parseFxFile("\uFEFFDate,USD,NOK\r\n2026-11-20,1.1573,11.6669\r\n\r\n2026-11-19,1.1609,N/A\r\n");
    expect(r.rates.map((x) => `${x.date} ${x.quote} ${x.rate}`)).toEqual([
      "2026-11-20 USD 1.1573",
      "2026-11-20 NOK 11.6669",
      "2026-11-19 USD 1.1609",
    ]);
  });

  it.each([
    ["a bad number", "Date,USD,NOK,\n2026-11-20,1.1573,11.66.69,\n", "line 2", /NOK rate "11.66.69"/],
    ["an empty cell", "Date,USD,NOK,\n2026-11-20,1.1573,11.6669,\n2026-11-19,,11.7,\n", "line 3", /USD rate ""/],
    ["a zero rate", "Date,USD,\n2026-11-20,0,\n", "line 2", /not a positive/],
    ["a bad date", "Date,USD,\n2026-11-20,1.1,\n20.11.2026,1.1,\n", "line 3", /date "20.11.2026"/],
    ["a short row", "Date,USD,NOK,\n2026-11-20,1.1573\n", "line 2", /2 cells where the header has 3/],
    ["a missing last rate", "Date,USD,NOK,\n2026-11-20,1.1573,\n", "line 2", /NOK rate ""/],
    ["a long row", "Date,USD,\n2026-11-20,1.1573,1.2,\n", "line 2", /4 cells where the header has 2/],
    ["no Date header", "USD,NOK,\n1.1,11.7,\n", "line 1", /first column Date/],
    ["a bad column", "Date,USD,Norway,\n2026-11-20,1.1,11.7,\n", "line 1", /header "Norway"/],
    ["a column twice", "Date,USD,USD,\n2026-11-20,1.1,1.1,\n", "line 1", /USD given twice/],
    ["an empty column in the middle", "Date,USD,,NOK,\n2026-11-20,1.1,,11.7,\n", "line 1", /column 3 header ""/],
    ["a header only", "Date,USD,\n", "line 1", /no rates/],
    ["only N/A", "Date,USD,\n2026-11-20,N/A,\n", "line 1", /no rates/],
    ["an unclosed quote", 'Date,USD,\n2026-11-20,"1.1,\n', "line 2", /not valid CSV/],
  ])("refuses %s, naming the line", (_name, text, location, problem) => {
    const e = failure(() => parseEcbCsv(text));
    expect(e.location).toBe(location);
    expect(e.problem).toMatch(problem);
  });

  it("refuses a date given twice, naming both lines", () => {
    const e = failure(() => parseEcbCsv("Date,USD,\n2026-11-20,1.1,\n\n2026-11-19,1.1,\n2026-11-20,1.1,\n"));
    expect(e.message).toBe("line 5: date 2026-11-20 given twice (first on line 2)");
  });
});
