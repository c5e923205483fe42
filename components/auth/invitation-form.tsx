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
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
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
  const field = (bad: boolean) => `h-9 rounded-md border px-2 text-sm ${bad ? "border-red-500" : "border-slate-300"}`;
  return (
    <Form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        E-mail the link was sent to
        <input
          type="email"
          autoComplete="username"
          className={field(!!errors.email)}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={errors.email ? true : undefined}
          data-testid="invite-email"
        />
        {errors.email && <span className="font-normal text-red-700">E-mail: {errors.email}</span>}
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        New password (at least 10 characters)
        <input
          type="password"
          autoComplete="new-password"
          className={field(!!errors.password)}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={errors.password ? true : undefined}
          data-testid="invite-password"
        />
        {errors.password && <span className="font-normal text-red-700">Password {errors.password}</span>}
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Repeat the password
        <input
          type="password"
          autoComplete="new-password"
          className={field(!!errors.repeat)}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          aria-invalid={errors.repeat ? true : undefined}
          data-testid="invite-repeat"
        />
        {errors.repeat && <span className="font-normal text-red-700">Repeat {errors.repeat}</span>}
      </label>
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
