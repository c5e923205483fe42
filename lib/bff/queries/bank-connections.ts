/**
 * Bank connection health (docs/bank-channels.md#operations) through the local API's extension
 * `GET /bank-connections`: the selected company's host-to-host connections, read-only, for treasurers and admins.
 * The API's answer carries channel settings (hosts, folders, fingerprints); the view keeps only what the health page
 * shows, so no path or host leaves the server.
 */
import "server-only";
import type { BankConnection } from "@treasury/contract/bank-connections";
import { capabilities } from "../capabilities";
import { companyCall, type BffContext } from "../context";
import { BffError } from "../errors";
import { treasury } from "../../server/treasury";
import { allAccounts } from "./account-rows";

/** One connection as the health page shows it. Timestamps ISO 8601 with offset; counts of today (UTC). */
export interface BankConnectionHealthView {
  id: string;
  bank_name: string;
  channel: "folder" | "sftp";
  active: boolean;
  /** The names of the accounts it serves (the id when the account is not listed). */
  accounts: string[];
  pull_interval_seconds: number;
  last_pull_at: string | null;
  last_pull_ok_at: string | null;
  last_push_ok_at: string | null;
  files_in_today: number;
  files_out_today: number;
  failed_files_today: number;
  consecutive_failures: number;
  last_error: string | null;
  /** `ok`; `failing` (the last pull or push failed); `inactive` (switched off). */
  state: "ok" | "failing" | "inactive";
}

/** Whether the configured API offers bank connections (its OpenAPI document lists GET /bank-connections). */
export async function bankConnectionsAvailable(): Promise<boolean> {
  return (await capabilities()).has("bank_connections.health");
}

/** The API's connection as the health view (pure; `names` maps account ids to names). */
export function toHealthView(c: BankConnection, names: ReadonlyMap<string, string>): BankConnectionHealthView {
  return {
    id: c.id,
    bank_name: c.bank_name,
    channel: c.channel.channel,
    active: c.active,
    accounts: c.account_ids.map((id) => names.get(id) ?? id),
    pull_interval_seconds: c.pull_interval_seconds,
    last_pull_at: c.health.last_pull_at,
    last_pull_ok_at: c.health.last_pull_ok_at,
    last_push_ok_at: c.health.last_push_ok_at,
    files_in_today: c.health.files_in_today,
    files_out_today: c.health.files_out_today,
    failed_files_today: c.health.failed_files_today,
    consecutive_failures: c.health.consecutive_failures,
    last_error: c.health.last_error,
    state: !c.active ? "inactive" : c.health.consecutive_failures > 0 ? "failing" : "ok",
  };
}

/**
 * The selected company's connections with their health, oldest first.
 * @throws BffError 404 when the API has no bank connections extension; 403 without a company
 */
export async function listBankConnectionHealth(ctx: BffContext): Promise<BankConnectionHealthView[]> {
  if (!(await bankConnectionsAvailable()))
    throw new BffError("not_found", "The Treasury API has no bank connections; bank files arrive another way.");
  const call = companyCall(ctx);
  const [connections, accounts] = await Promise.all([treasury().listBankConnections(call), allAccounts(ctx)]);
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  return connections.map((c) => toHealthView(c, names));
}
