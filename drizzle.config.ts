import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./treasury-api/db/schema.ts",
  out: "./treasury-api/db/migrations",
});
