import { defineConfig } from "drizzle-kit";

/** drizzle-kit config of the dashboard's own database (users, audit log). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./lib/db/migrations",
});
