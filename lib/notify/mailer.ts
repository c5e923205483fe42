/**
 * SMTP through nodemailer (docs/users-and-notifications.md#e-mail): `SMTP_URL` (smtp:// or smtps://) and `SMTP_FROM`.
 * No SMTP_URL, no sender: e-mail is off and only the in-app centre is told.
 */
import nodemailer from "nodemailer";
import { hasControl, MailHeaderError } from "./mail-text";
import type { SendMail } from "./outbox";

/** The sender used when `SMTP_FROM` is unset. */
export const DEFAULT_SMTP_FROM = "Treasury Dashboard <treasury-dashboard@localhost>";

/**
 * A `SendMail` on an SMTP server: plain text, the outbox row's Message-ID, the recipient and subject as queued
 * (checked again here: a CR / LF is refused, never sent).
 * @throws MailHeaderError (from the returned function) for a header with a control character
 */
export function smtpSender(url: string, from = DEFAULT_SMTP_FROM): SendMail {
  if (hasControl(from)) throw new MailHeaderError("from");
  const transport = nodemailer.createTransport(url);
  return async (m) => {
    if (hasControl(m.to)) throw new MailHeaderError("to");
    if (hasControl(m.subject)) throw new MailHeaderError("subject");
    await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, messageId: m.messageId });
  };
}
