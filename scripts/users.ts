/**
 * `npm run users -- add|list|disable|unlink-sso`: manages
 * dashboard users in the dashboard database (`DATABASE_URL`, else the PGlite
 * folder `DASHBOARD_DATA_DIR`, default .data/dashboard). With PGlite, stop
 * the dashboard first: an embedded database has one process at a time.
 *
 *   npm run users -- add --email kari@example.com --name "Kari Nordmann" --role treasurer [--role approver]
 *                        [--company <uuid>]... [--password <pw>]   (a password is generated when omitted)
 *   npm run users -- list          (with the single sign-on account each user is tied to)
 *   npm run users -- disable --email kari@example.com
 *   npm run users -- unlink-sso --email kari@example.com
 *
 * `unlink-sso` clears the tie to an IdP account (lib/db/sso-accounts.ts), so
 * that the user's next single sign-on ties them to the account they then use:
 * for a person whose IdP account was re-created. Audited as `user.sso_unlink`.
 */
import { randomBytes } from "node:crypto";
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { ZodError, z } from "zod";
import { ROLES, Role } from "../lib/auth/roles";
import { openDashboardDb } from "../lib/db/client";
import { listSsoLinks, ssoLinkOf, unlinkSsoAccount, type SsoLink } from "../lib/db/sso-accounts";
import { disableUser, listUsers, upsertUser } from "../lib/db/users";

const USAGE = `usage: npm run users -- add --email E --name N --role R [--role R2] [--company UUID]... [--password P]
       npm run users -- list
       npm run users -- disable --email E
       npm run users -- unlink-sso --email E`;

/** How `list` and `unlink-sso` show a tie: `sso <sub> @ <issuer> since <time>`. */
function describeLink(link: SsoLink | null | undefined): string {
  return link ? `sso ${link.subject} @ ${link.issuer} since ${link.linkedAt}` : "sso not tied";
}

/** Who ran the CLI, for the audit log (there is no dashboard session here). */
function cliActor(): string {
  let name = "unknown";
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry for this uid (some containers)
  }
  return `users-cli:${name}`;
}

/** The parsed options of the command line. */
type Values = { email?: string; name?: string; role?: string[]; company?: string[]; password?: string };
/** The dashboard database as `openDashboardDb` opens it. */
type Db = Awaited<ReturnType<typeof openDashboardDb>>["db"];

/**
 * `add`: saves a user (roles checked, a password generated when none is given) and prints it, the generated
 * password, and a single sign-on tie the address still has.
 * @throws Error when a role is unknown; ZodError on a bad email, name or company.
 */
async function addUser(db: Db, values: Values): Promise<number> {
  const roles = z.array(Role).safeParse(values.role ?? []);
  if (!roles.success) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
  const generated = values.password ? undefined : randomBytes(12).toString("base64url");
  const user = await upsertUser(db, {
    email: values.email ?? "",
    name: values.name ?? "",
    password: values.password ?? generated,
    roles: roles.data,
    companyIds: values.company?.length ? values.company : null,
  });
  process.stdout.write(
    `saved ${user.email} (${user.roles.join(", ")}; companies: ${user.companyIds?.join(", ") ?? "all"})\n`,
  );
  if (generated) process.stdout.write(`password: ${generated}\n`);
  const link = await ssoLinkOf(db, user.id);
  // Re-adding a leaver's address for someone new keeps the leaver's tie (and so refuses the newcomer's SSO)
  // until unlinked.
  if (link)
    process.stdout.write(
      `still tied to ${describeLink(link)}; if this is another person, run: npm run users -- unlink-sso ` +
        `--email ${user.email}\n`,
    );
  return 0;
}

/** `list`: one line per user (state, email, roles, companies, single sign-on tie), or "no users". */
async function listAll(db: Db): Promise<number> {
  const users = await listUsers(db);
  const links = await listSsoLinks(db);
  for (const u of users) {
    process.stdout.write(
      `${u.disabled ? "disabled" : "active  "}  ` +
        `${u.email.padEnd(32)} ${u.roles.join(",").padEnd(22)} ${(u.companyIds
          ? u.companyIds.join(",")
          : "all " + "companies"
        ).padEnd(16)} ${describeLink(links.get(u.id))}\n`,
    );
  }
  if (users.length === 0) process.stdout.write("no users\n");
  return 0;
}

/** `disable`: disables the user of `--email`; exit code 1 when there is none. @throws Error without `--email`. */
async function disable(db: Db, values: Values): Promise<number> {
  if (!values.email) throw new Error("--email is required");
  const ok = await disableUser(db, values.email);
  process.stdout.write(ok ? `disabled ${values.email}\n` : `no user ${values.email}\n`);
  return ok ? 0 : 1;
}

/**
 * `unlink-sso`: clears the single sign-on tie of `--email` (audited as the CLI's user); exit code 1 when there is
 * no such user. @throws Error without `--email`.
 */
async function unlinkSso(db: Db, values: Values): Promise<number> {
  if (!values.email) throw new Error("--email is required");
  const r = await unlinkSsoAccount(db, values.email, cliActor());
  if (!r) {
    process.stdout.write(`no user ${values.email}\n`);
    return 1;
  }
  process.stdout.write(
    r.former
      ? `unlinked ${values.email} (was ${describeLink(r.former)}); the next single sign-on ties it again\n`
      : `${values.email} was not tied to a single sign-on account\n`,
  );
  return 0;
}

/** The commands by name; each returns the process's exit code. */
const COMMANDS: Record<string, (db: Db, values: Values) => Promise<number>> = {
  add: addUser,
  list: listAll,
  disable,
  "unlink-sso": unlinkSso,
};

/**
 * Parses the command line, opens the dashboard database and runs the command (module comment).
 * @returns the exit code: 0, 1 when the user named is not found, 2 with the usage for an unknown command.
 * @throws on an unknown option or a command's bad input.
 */
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
  const database = await openDashboardDb(
    url ? { url } : { dataDir: process.env.DASHBOARD_DATA_DIR?.trim() || ".data/dashboard" },
  );
  try {
    const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run) return await run(database.db, values);
    process.stderr.write(`${USAGE}\n`);
    return 2;
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
