/**
 * `npm run users -- add|list|disable` (issue 4 §3): manages dashboard users
 * in the dashboard database (`DATABASE_URL`, else the PGlite folder
 * `DASHBOARD_DATA_DIR`, default .data/dashboard). With PGlite, stop the
 * dashboard first: an embedded database has one process at a time.
 *
 *   npm run users -- add --email kari@example.com --name "Kari Nordmann" --role treasurer [--role approver]
 *                        [--company <uuid>]... [--password <pw>]   (a password is generated when omitted)
 *   npm run users -- list
 *   npm run users -- disable --email kari@example.com
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { ZodError, z } from "zod";
import { ROLES, Role } from "../lib/auth/roles";
import { openDashboardDb } from "../lib/db/client";
import { disableUser, listUsers, upsertUser } from "../lib/db/users";

const USAGE = `usage: npm run users -- add --email E --name N --role R [--role R2] [--company UUID]... [--password P]
       npm run users -- list
       npm run users -- disable --email E`;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string", multiple: true },
      company: { type: "string", multiple: true },
      password: { type: "string" },
    },
    strict: true,
  });
  const url = process.env.DATABASE_URL?.trim() || undefined;
  const database = await openDashboardDb(url ? { url } : { dataDir: process.env.DASHBOARD_DATA_DIR?.trim() || ".data/dashboard" });
  try {
    switch (command) {
      case "add": {
        const roles = z.array(Role).safeParse(values.role ?? []);
        if (!roles.success) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
        const generated = values.password ? undefined : randomBytes(12).toString("base64url");
        const user = await upsertUser(database.db, {
          email: values.email ?? "",
          name: values.name ?? "",
          password: values.password ?? generated,
          roles: roles.data,
          companyIds: values.company?.length ? values.company : null,
        });
        process.stdout.write(`saved ${user.email} (${user.roles.join(", ")}; companies: ${user.companyIds?.join(", ") ?? "all"})\n`);
        if (generated) process.stdout.write(`password: ${generated}\n`);
        return 0;
      }
      case "list": {
        const users = await listUsers(database.db);
        for (const u of users) {
          process.stdout.write(`${u.disabled ? "disabled" : "active  "}  ${u.email.padEnd(32)} ${u.roles.join(",").padEnd(22)} ${u.companyIds ? u.companyIds.join(",") : "all companies"}\n`);
        }
        if (users.length === 0) process.stdout.write("no users\n");
        return 0;
      }
      case "disable": {
        if (!values.email) throw new Error("--email is required");
        const ok = await disableUser(database.db, values.email);
        process.stdout.write(ok ? `disabled ${values.email}\n` : `no user ${values.email}\n`);
        return ok ? 0 : 1;
      }
      default:
        process.stderr.write(`${USAGE}\n`);
        return 2;
    }
  } finally {
    await database.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof ZodError) {
      process.stderr.write(err.issues.map((i) => `${i.path.join(".") || "input"} ${i.message}`).join("\n") + "\n");
    } else {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    }
    process.exit(1);
  });
