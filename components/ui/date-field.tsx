"use client";

import * as Popover from "@radix-ui/react-popover";
import { format, parse } from "date-fns";
import { CalendarDays } from "lucide-react";
import { useId, useState } from "react";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { useLocale } from "@/components/format/use-locale";
import { checkDateBounds, dateFnsLocale, dateLayout, formatDateField, parseDateField } from "@/lib/date-field";

const toDate = (iso: string | undefined) => (iso ? parse(iso, "yyyy-MM-dd", new Date(2000, 0, 1)) : undefined);

/** Month-grid colours and sizes of the calendar (react-day-picker's CSS variables). */
const CALENDAR_STYLE = {
  "--rdp-accent-color": "var(--color-slate-900)",
  "--rdp-accent-background-color": "var(--color-slate-100)",
  "--rdp-day-height": "36px",
  "--rdp-day-width": "36px",
  "--rdp-day_button-height": "34px",
  "--rdp-day_button-width": "34px",
} as React.CSSProperties;

/**
 * The calendar button of a `DateField`: a Radix popover with a keyboard-operable month grid bounded by `min`/`max`
 * (`YYYY-MM-DD`); picking a day closes it and passes the day to `onPick` as `YYYY-MM-DD`.
 */
function CalendarButton({
  label,
  testId,
  value,
  min,
  max,
  locale,
  onPick,
}: {
  label: string;
  testId?: string;
  value: string | null;
  min?: string;
  max?: string;
  locale: string;
  onPick: (iso: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const selected = toDate(value ?? undefined);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          aria-label={`Choose ${label.toLowerCase()} from a calendar`}
          data-testid={testId ? `${testId}-calendar` : undefined}
          className="inline-flex h-8 w-8 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-600 hover:bg-slate-100"
        >
          <CalendarDays aria-hidden className="h-4 w-4" />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 rounded-md border border-slate-200 bg-white p-2 text-[13px] text-slate-900 shadow-lg"
          aria-label={`${label}: calendar`}
        >
          <DayPicker
            mode="single"
            locale={dateFnsLocale(locale)}
            selected={selected}
            defaultMonth={selected ?? toDate(max) ?? undefined}
            autoFocus
            disabled={[
              ...(min ? [{ before: toDate(min) as Date }] : []),
              ...(max ? [{ after: toDate(max) as Date }] : []),
            ]}
            onSelect={(d) => {
              if (!d) return;
              setOpen(false);
              onPick(format(d, "yyyy-MM-dd"));
            }}
            style={CALENDAR_STYLE}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/**
 * A labelled date field in the viewer's locale: a text box that shows and accepts the locale's numeric layout
 * (en-GB `dd/mm/yyyy`, en-US `mm/dd/yyyy`, nb-NO `dd.mm.yyyy`; ISO `yyyy-mm-dd` is accepted too) and a calendar
 * button that opens a keyboard-operable month grid (react-day-picker in a Radix popover: arrow keys move by day,
 * Page Up/Down by month, Enter picks, Escape closes and returns focus).
 *
 * `value` and `onChange` speak `YYYY-MM-DD` (null for empty), so URLs and APIs never see the locale's layout.
 * A complete, valid date is committed as it is typed; an incomplete or impossible one is reported on blur or Enter
 * with a message naming the field (`From: enter a date as dd/mm/yyyy`) and is passed to `onInvalidText` when given
 * (forms hand it to their schema); otherwise the last good value stays. `min`/`max` (`YYYY-MM-DD`) bound both the
 * typed value and the calendar. `clearable` lets an emptied box commit null.
 */
export function DateField({
  label,
  value,
  onChange,
  onInvalidText,
  min,
  max,
  clearable = false,
  boundTyped = true,
  invalid = false,
  testId,
  className = "",
  inputClassName = "",
  describedBy,
}: {
  label: string;
  value: string | null;
  onChange: (iso: string | null) => void;
  onInvalidText?: (text: string) => void;
  min?: string;
  max?: string;
  clearable?: boolean;
  /** Whether typed dates are checked against `min`/`max` (false: the calendar only; a form schema checks). */
  boundTyped?: boolean;
  /** Marks the box invalid for an error shown by the caller (e.g. a server field error). */
  invalid?: boolean;
  testId?: string;
  className?: string;
  inputClassName?: string;
  describedBy?: string;
}) {
  const locale = useLocale();
  const id = useId();
  const errorId = `${id}-error`;
  const iso = value ?? "";
  const shownFor = `${iso}|${locale}`;
  const [syncedFor, setSyncedFor] = useState(shownFor);
  const [text, setText] = useState(() => formatDateField(iso, locale));
  const [error, setError] = useState<string | null>(null);
  // A new value from outside (a preset, a reset, the locale known after hydration) replaces the text.
  if (syncedFor !== shownFor) {
    setSyncedFor(shownFor);
    setText(formatDateField(iso, locale));
    setError(null);
  }
  const layout = dateLayout(locale);

  /** Reads `t`; commits it when it is a valid date within bounds. `report` shows problems (blur, Enter). */
  const read = (t: string, report: boolean) => {
    const r = parseDateField(t, locale, label);
    if (!r.ok) {
      if (report) {
        setError(r.error);
        onInvalidText?.(t);
      }
      return;
    }
    if (r.value === null) {
      if (!report) return;
      if (clearable) {
        setError(null);
        if (value !== null) onChange(null);
      } else {
        setError(`${label}: enter a date as ${layout.hint}`);
        onInvalidText?.("");
      }
      return;
    }
    const bound = boundTyped ? checkDateBounds(r.value, locale, label, min, max) : null;
    if (bound) {
      if (report) {
        setError(bound);
        onInvalidText?.(t);
      }
      return;
    }
    setError(null);
    if (r.value !== value) onChange(r.value);
    else if (report) setText(formatDateField(r.value, locale));
  };

  const described = [error ? errorId : null, describedBy].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1 text-xs font-medium text-slate-600 ${className}`}>
      <label htmlFor={id}>{label}</label>
      <div className="flex items-center gap-1">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={layout.hint}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            read(e.target.value, false);
          }}
          onBlur={(e) => read(e.target.value, true)}
          onKeyDown={(e) => {
            if (e.key === "Enter") read(e.currentTarget.value, true);
          }}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={described}
          data-value={value ?? ""}
          data-testid={testId}
          className={
            `h-8 w-[7.75rem] rounded-md border bg-white px-2 text-[13px] font-normal text-slate-900 tabular ` +
            `${error || invalid ? "border-red-500" : "border-slate-300"} ${inputClassName}`
          }
        />
        <CalendarButton
          label={label}
          testId={testId}
          value={value}
          min={min}
          max={max}
          locale={locale}
          onPick={(picked) => {
            setError(null);
            setText(formatDateField(picked, locale));
            if (picked !== value) onChange(picked);
          }}
        />
      </div>
      {error && (
        <span id={errorId} className="text-xs font-normal text-red-700" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
