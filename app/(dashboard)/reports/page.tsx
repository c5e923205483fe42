import { redirect } from "next/navigation";

/** /reports opens the cashflow report. */
export default function ReportsIndex() {
  redirect("/reports/cashflow");
}
