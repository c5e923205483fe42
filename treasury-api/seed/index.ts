/**
 * The complete demo seed: the ledger data
 * of `seed/demo.ts`, then every area's seed step in dependency order —
 * payments (batches in every state, pending approvals), reconciliation
 * (matches on the payments' bookings), webhooks (one inactive endpoint).
 * Import `seedDemo` from here, not from `./demo`, to get all of it.
 */
import "./payments";
import "./reconciliation";
import "./webhooks";

export { seedDemo, writeDemoFixtures, readDemoFixtures, type DemoFixtures } from "./demo";
