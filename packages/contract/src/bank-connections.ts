/**
 * Bank connections (extension; docs/bank-channels.md): host-to-host channels to a bank, `folder` or `sftp`.
 * Credentials go in and are never returned: a connection shows `has_password` / `has_private_key` only.
 */
import { z } from "zod";
import { IsoDateTime, Uuid, plainString } from "./common";

const Dir = plainString()
  .min(1, { message: "is required" })
  .max(500, { message: "must be at most 500 characters" })
  .refine((d) => d.startsWith("/"), { message: "must be an absolute path" });

export const AFTER_IMPORT = ["leave", "delete", "archive"] as const;

const FolderChannel = z
  .object({ channel: z.literal("folder"), inbox_dir: Dir, outbox_dir: Dir })
  .strict()
  .meta({ id: "BankFolderChannel" });

const SftpChannel = z
  .object({
    channel: z.literal("sftp"),
    host: plainString()
      .min(1, { message: "is required" })
      .max(253, { message: "must be at most 253 characters" })
      .regex(/^[A-Za-z0-9.:-]+$/, { message: "must be a host name or IP address" }),
    port: z.number().int().min(1).max(65535).default(22),
    username: plainString().min(1, { message: "is required" }).max(100),
    password: z.string().min(1).max(1000).optional(),
    private_key: z.string().min(1).max(20000).optional(),
    passphrase: z.string().min(1).max(1000).optional(),
    host_key_fingerprint: plainString().regex(/^(SHA256:)?[A-Za-z0-9+/]{43}=?$/, {
      message: "must be the host key's SHA-256 fingerprint as ssh-keygen -lf prints it (SHA256:…)",
    }),
    inbox: Dir,
    outbox: Dir,
  })
  .strict()
  .refine((c) => c.password !== undefined || c.private_key !== undefined, {
    message: "password or private_key is required",
    path: ["password"],
  })
  .meta({ id: "BankSftpChannel" });

const ConnectionFields = {
  bank_name: plainString().min(1, { message: "is required" }).max(200),
  account_ids: z.array(Uuid).min(1).max(500),
  after_import: z.enum(AFTER_IMPORT).default("leave"),
  archive_dir: Dir.optional(),
  pull_interval_seconds: z.number().int().min(10).max(86400).default(300),
  active: z.boolean().default(true),
};

/** POST /bank-connections. */
export const BankConnectionCreate = z
  .object({ ...ConnectionFields, channel: z.union([FolderChannel, SftpChannel]) })
  .strict()
  .refine((b) => b.after_import !== "archive" || b.archive_dir !== undefined, {
    message: "is required when after_import is archive",
    path: ["archive_dir"],
  })
  .meta({ id: "BankConnectionCreate" });
export type BankConnectionCreate = z.infer<typeof BankConnectionCreate>;

/** PATCH /bank-connections/{id}: any subset; a new `channel` replaces the channel and its credentials. */
export const BankConnectionPatch = z
  .object({
    bank_name: ConnectionFields.bank_name.optional(),
    account_ids: ConnectionFields.account_ids.optional(),
    after_import: z.enum(AFTER_IMPORT).optional(),
    archive_dir: Dir.nullable().optional(),
    pull_interval_seconds: z.number().int().min(10).max(86400).optional(),
    active: z.boolean().optional(),
    channel: z.union([FolderChannel, SftpChannel]).optional(),
  })
  .strict()
  .meta({ id: "BankConnectionPatch" });
export type BankConnectionPatch = z.infer<typeof BankConnectionPatch>;

export const BankConnection = z
  .object({
    id: Uuid,
    company_id: Uuid,
    bank_name: z.string(),
    account_ids: z.array(Uuid),
    channel: z.object({
      channel: z.enum(["folder", "sftp"]),
      inbox_dir: z.string().optional(),
      outbox_dir: z.string().optional(),
      host: z.string().optional(),
      port: z.number().optional(),
      username: z.string().optional(),
      host_key_fingerprint: z.string().optional(),
      inbox: z.string().optional(),
      outbox: z.string().optional(),
      has_password: z.boolean().optional(),
      has_private_key: z.boolean().optional(),
    }),
    after_import: z.enum(AFTER_IMPORT),
    archive_dir: z.string().nullable(),
    pull_interval_seconds: z.number(),
    active: z.boolean(),
    health: z.object({
      last_pull_at: IsoDateTime.nullable(),
      last_pull_ok_at: IsoDateTime.nullable(),
      last_push_ok_at: IsoDateTime.nullable(),
      consecutive_failures: z.number(),
      last_error: z.string().nullable(),
      files_in_today: z.number(),
      files_out_today: z.number(),
      failed_files_today: z.number(),
    }),
    created_at: IsoDateTime,
  })
  .meta({ id: "BankConnection" });
export type BankConnection = z.infer<typeof BankConnection>;

export const BankConnectionFile = z
  .object({
    id: Uuid,
    direction: z.enum(["in", "out"]),
    file_name: z.string(),
    size: z.number(),
    sha256: z.string(),
    status: z.enum(["imported", "failed", "duplicate", "sent"]),
    reason: z.string().nullable(),
    batch_id: Uuid.nullable(),
    created_at: IsoDateTime,
  })
  .meta({ id: "BankConnectionFile" });
export type BankConnectionFile = z.infer<typeof BankConnectionFile>;

/** POST /bank-connections/{id}/pull: what one pull did. */
export const BankPullResult = z
  .object({
    listed: z.number(),
    imported: z.number(),
    duplicates: z.number(),
    failed: z.number(),
    error: z.string().nullable(),
  })
  .meta({ id: "BankPullResult" });
export type BankPullResult = z.infer<typeof BankPullResult>;
