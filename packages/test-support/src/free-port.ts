/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server that must
 * be told its port before it starts (a PostgreSQL cluster, a dashboard whose
 * callback URL an identity provider must know). Another process may take it
 * in between; callers start right away.
 */
import { createServer } from "node:net";

/** @returns the port number; @throws when no port can be bound. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
