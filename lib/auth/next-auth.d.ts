import "next-auth";

declare module "next-auth" {
  /** The session the browser sees: who is signed in, nothing more (roles are read from the DB on the server). */
  interface Session {
    user: { id: string; name: string; email: string };
  }
}
