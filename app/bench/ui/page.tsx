import { notFound } from "next/navigation";
import { RenderBench } from "@/components/bench/render-bench";

/** Render harness for `npm run bench:ui`; exists only when the server runs with DASHBOARD_BENCH=1. */
export default async function BenchPage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  if (process.env.DASHBOARD_BENCH !== "1") notFound();
  const { kind } = await searchParams;
  return <RenderBench kind={kind === "intraday" ? "intraday" : "transactions"} />;
}
