import { endpointUrl } from "@/lib/bff/endpoint";
import { forecastEndpoints } from "@/lib/bff/areas/forecast/endpoints";
import { buttonClass } from "@/components/ui/button";

/**
 * The CSV and XLSX download links of one export of `GET /api/forecast/export` (docs/forecast.md#exports), styled as
 * the shared secondary button; `testId` marks the CSV link, `${testId}-xlsx` the XLSX one.
 */
export function ExportLinks({
  what,
  query,
  testId,
}: {
  what: string;
  query: Record<string, string | number>;
  testId: string;
}) {
  return (
    <span className="inline-flex flex-wrap gap-2">
      <a
        className={buttonClass("secondary")}
        href={endpointUrl(forecastEndpoints.export, {}, query)}
        download
        data-testid={testId}
      >
        Export {what} (CSV)
      </a>
      <a
        className={buttonClass("secondary")}
        href={endpointUrl(forecastEndpoints.export, {}, { ...query, format: "xlsx" })}
        download
        data-testid={`${testId}-xlsx`}
      >
        Export {what} (XLSX)
      </a>
    </span>
  );
}
