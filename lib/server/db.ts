/**
 * The dashboard database of this process, opened and migrated once; in demo
 * mode the demo users are created on first use, the viewer limited to the
 * first demo companies that the Treasury API client can see, then the
 * dashboard's own demo data (verified payees, category rules:
 * lib/server/demo-story.ts) once per database, and the demo FX
 * rates are seeded up to today (again on the first use of each new UTC day,
 * so a demo left running keeps current rates).
 */
import "server-only";
import { openDashboardDb, type DashboardDb } from "../db/client";
import { seedDemoUsers } from "../db/demo-users";
import { seedDemoRates } from "../fx/demo-rates";
import { seedDemoStory } from "./demo-story";
import { utcToday } from "../fx/dates";
import { collectAll } from "../treasury-client";
import { getConfig } from "./config";
import { logger } from "./log";
import { treasury } from "./treasury";

const g = globalThis as typeof globalThis & {
  __dashboardDb?: Promise<DashboardDb>;
  __demoUsers?: Promise<string[]>;
  __demoStory?: Promise<void>;
  __demoRates?: { day: string; done: Promise<void> };
};

/** Opens once; a failed open is not cached, so the next request tries again. */
function openOnce(): Promise<DashboardDb> {
  if (!g.__dashboardDb) {
    const c = getConfig();
    const p = openDashboardDb(c.DATABASE_URL ? { url: c.DATABASE_URL } : { dataDir: c.DASHBOARD_DATA_DIR }).then(
      (d) => d.db,
    );
    g.__dashboardDb = p;
    p.catch(() => {
      if (g.__dashboardDb === p) g.__dashboardDb = undefined;
    });
  }
  return g.__dashboardDb;
}

function seedDemoOnce(db: DashboardDb): Promise<string[]> {
  if (!g.__demoUsers) {
    const p = (async () => {
      const companies = await collectAll(treasury().listCompanies({}, { pageSize: 1000 }));
      await seedDemoUsers(
        db,
        companies.map((co) => co.id),
      );
      logger.info({ companies: companies.length }, "demo users ready");
      return companies.map((co) => co.id);
    })();
    g.__demoUsers = p;
    p.catch((err: unknown) => {
      logger.error({ err }, "demo users could not be created");
      if (g.__demoUsers === p) g.__demoUsers = undefined;
    });
  }
  return g.__demoUsers;
}

/**
 * The demo story (lib/server/demo-story.ts) after the demo users, once per process; it writes only into a fresh
 * database. Its own promise: a failure is logged and never fails the caller nor the demo users (the demo then works
 * with an empty register and no rules, as before), and it is not retried.
 */
function seedDemoStoryOnce(db: DashboardDb): Promise<void> {
  g.__demoStory ??= seedDemoOnce(db)
    .then((companyIds) => seedDemoStory(db, treasury(), companyIds))
    .then((s) => logger.info(s, "demo story ready"))
    .catch((err: unknown) => logger.error({ err }, "demo story could not be seeded"));
  return g.__demoStory;
}

/**
 * Seeds the demo FX rates once per UTC day. A failure is logged and retried
 * on the next call; it never fails the caller (amounts then show unconverted).
 */
function seedDemoRatesToday(db: DashboardDb): Promise<void> {
  const day = utcToday();
  if (g.__demoRates?.day !== day) {
    const done = seedDemoRates(db, day).then((r) => {
      logger.info({ inserted: r.inserted, from: r.from, to: r.to }, "demo fx rates ready");
    });
    const entry = { day, done };
    g.__demoRates = entry;
    done.catch((err: unknown) => {
      logger.error({ err }, "demo fx rates could not be seeded");
      if (g.__demoRates === entry) g.__demoRates = undefined;
    });
  }
  return (g.__demoRates?.done ?? Promise.resolve()).catch(() => undefined);
}

/**
 * The dashboard database (demo users, FX rates and the demo story present in demo mode).
 * @throws when it cannot be opened, or the demo users cannot be created
 */
export async function dashboardDb(): Promise<DashboardDb> {
  const db = await openOnce();
  if (getConfig().DASHBOARD_DEMO) {
    await Promise.all([seedDemoOnce(db), seedDemoRatesToday(db)]);
    await seedDemoStoryOnce(db);
  }
  return db;
}
