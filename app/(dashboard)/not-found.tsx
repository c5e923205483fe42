import type { Metadata } from "next";
import { NotFoundState } from "@/components/ui/not-found-state";

export const metadata: Metadata = { title: "Not found" };

/** An unknown address or item, answered inside the app shell (status 404) with a way back. */
export default function DashboardNotFound() {
  return <NotFoundState />;
}
