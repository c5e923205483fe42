/**
 * Checks on what goes into an e-mail's headers (docs/users-and-notifications.md#e-mail): a recipient, a subject or a
 * name with CR, LF or another control character is refused, so no header can be injected through a user's name, a
 * batch reference or a subject.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An e-mail refused before it was queued; `field` names what was wrong (`to`, `subject`). */
export class MailHeaderError extends Error {
  constructor(readonly field: "to" | "subject" | "from") {
    super(`the e-mail's ${field} must not contain line breaks or control characters`);
    this.name = "MailHeaderError";
  }
}

/** True when `s` holds a control character (CR / LF included). */
export function hasControl(s: string): boolean {
  return CONTROL.test(s);
}

/**
 * @returns the subject, trimmed and at most 200 characters
 * @throws MailHeaderError for a recipient or subject with a control character, or a recipient that is not one address
 */
export function checkedHeaders(to: string, subject: string): { to: string; subject: string } {
  if (hasControl(to) || !/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(to)) throw new MailHeaderError("to");
  if (hasControl(subject)) throw new MailHeaderError("subject");
  return { to, subject: subject.trim().slice(0, 200) };
}

/** A value put into a subject or a body line: control characters (a CR / LF in a batch reference) become spaces. */
export function oneLine(s: string): string {
  return s.replace(new RegExp(CONTROL.source, "g"), " ").trim();
}
