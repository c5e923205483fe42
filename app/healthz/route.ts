/** GET /healthz — liveness (DESIGN.md "Operability"): the process answers. */
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
