/** GET /healthz — liveness for a process supervisor: the process answers. */
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
