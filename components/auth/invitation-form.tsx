"use client";

import { useEffect, useState } from "react";
import Link from "next/link";
import { fieldErrors } from "@/components/counterparties/use-counterparty-write";
import { callBff } from "@/components/data/bff-fetch";
import { usersEndpoints } from "@/lib/bff/areas/users/endpoints";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";

/**
 * The form behind an invitation / reset link: reads the token from the URL fragment (never sent to a server by the
 * browser), asks for the e-mail the link was sent to and a new password (twice), and posts them to
 * POST /api/invitations/accept. The server decides everything (single use, 72 h, bound e-mail, disabled user).
 */
export function InvitationForm() {
  const [token, setToken] = useState<string | null>(null);
  const [values, setValues] = useState<Record<InviteFieldName, string>>({ email: "", password: "", repeat: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // The fragment is only readable in the browser, after hydration.
    setToken(window.location.hash.replace(/^#/, "") || "");
  }, []);

  if (token === null) return <p className="text-[13px] text-slate-600">Loading…</p>;
  if (token === "")
    return (
      <p role="alert" className="text-[13px] text-red-700">
        This page needs the link from your invitation e-mail. Open the link again, or ask an admin for a new one.
      </p>
    );
  if (done)
    return (
      <div className="space-y-3 text-[13px]">
        <p role="status">Your password is set.</p>
        <Link className="font-medium text-sky-800 underline" href="/login" data-testid="invite-sign-in">
          Sign in
        </Link>
      </div>
    );

  const { email, password, repeat } = values;
  const submit = async () => {
    setErrors({});
    setMessage(null);
    if (password !== repeat) {
      setErrors({ repeat: "does not match the password" });
      return;
    }
    setBusy(true);
    try {
      await callBff(usersEndpoints.acceptInvitation, { body: { token, email, password } });
      setDone(true);
    } catch (err) {
      setErrors(fieldErrors(err));
      setMessage(errorText(err, "Setting the password"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {INVITE_FIELDS.map((f) => (
        <InviteInput
          key={f.name}
          {...f}
          value={values[f.name]}
          onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          error={errors[f.name]}
        />
      ))}
      {message && (
        <p role="alert" className="text-[13px] text-red-700">
          {message}
        </p>
      )}
      <Button type="submit" variant="primary" pending={busy} data-testid="invite-submit">
        Set password
      </Button>
    </Form>
  );
}

/** The invitation form's inputs, in order: the e-mail the link was sent to, the new password and its repetition. */
const INVITE_FIELDS = [
  {
    name: "email",
    label: "E-mail the link was sent to",
    type: "email",
    autoComplete: "username",
    errorPrefix: "E-mail:",
  },
  {
    name: "password",
    label: "New password (at least 10 characters)",
    type: "password",
    autoComplete: "new-password",
    errorPrefix: "Password",
  },
  {
    name: "repeat",
    label: "Repeat the password",
    type: "password",
    autoComplete: "new-password",
    errorPrefix: "Repeat",
  },
] as const;

type InviteFieldName = (typeof INVITE_FIELDS)[number]["name"];

/**
 * One labelled input of the invitation form (`data-testid` `invite-<name>`), with the server's (or the form's) error
 * for it under the input, after `errorPrefix`.
 */
function InviteInput({
  name,
  label,
  type,
  autoComplete,
  value,
  onChange,
  error,
  errorPrefix,
}: {
  name: InviteFieldName;
  label: string;
  type: "email" | "password";
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  errorPrefix: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
      {label}
      <input
        type={type}
        autoComplete={autoComplete}
        className={`h-9 rounded-md border px-2 text-sm ${error ? "border-red-500" : "border-slate-300"}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        data-testid={`invite-${name}`}
      />
      {error && (
        <span className="font-normal text-red-700">
          {errorPrefix} {error}
        </span>
      )}
    </label>
  );
}
