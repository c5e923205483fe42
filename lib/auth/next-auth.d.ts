import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  /**
   * The session: who is signed in, the session version it was signed in under and when (epoch seconds); roles are
   * read from the DB on the server.
   */
  interface Session {
    user: { id: string; name: string; email: string };
    sv: number;
    authAt: number;
    /** Last recorded activity, epoch seconds (idle timeout). */
    lastActive: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The user's session version at sign-in (lib/db/users.ts `endSessions`). */
    sv?: number;
    /** Sign-in time, epoch seconds (absolute lifetime). */
    authAt?: number;
    /** This sign-in's id (random UUID), which passkey step-ups are bound to. */
    sid?: string;
    /** Last recorded activity, epoch seconds (idle timeout; moved forward by the proxy at most once a minute). */
    lastActive?: number;
  }
}
