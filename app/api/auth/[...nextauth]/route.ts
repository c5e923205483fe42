import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/** next-auth's sign-in, callback, session and sign-out endpoints (options built at run time, not at build). */
async function handler(req: NextRequest, ctx: Ctx): Promise<Response> {
  const res: Response = await NextAuth(req, ctx, getAuthOptions());
  return res;
}

export { handler as GET, handler as POST };
