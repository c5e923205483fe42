/**
 * A real SMTP server on loopback for tests (test-only): the `smtp-server` package on a free port, no TLS, any
 * login accepted; every message received is parsed into recipient, subject, Message-ID, text and the first link.
 */
import { SMTPServer } from "smtp-server";

/** One delivered message. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  messageId: string;
  text: string;
  /** The first http(s) URL in the text, or null. */
  link: string | null;
  raw: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves once `n` messages have arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const m = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return m?.[1]?.trim() ?? "";
}

/** Decodes a quoted-printable or plain body (nodemailer sends plain text as 7bit or quoted-printable). */
function bodyText(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join("\n\n");
  if (!/quoted-printable/i.test(header(raw, "Content-Transfer-Encoding"))) return body;
  return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Starts the sink on 127.0.0.1 (port 0 = a free one). */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    onAuth: (_auth, _session, cb) => cb(null, { user: "test" }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const text = bodyText(raw);
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header(raw, "Subject"),
          messageId: header(raw, "Message-ID"),
          text,
          link: /https?:\/\/\S+/.exec(text)?.[0] ?? null,
          raw,
        });
        for (const w of waiters.splice(0)) w();
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const addr = server.server.address();
  const actual = typeof addr === "object" && addr ? addr.port : port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    received,
    async waitFor(n, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`expected ${n} e-mails, got ${received.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return received;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
