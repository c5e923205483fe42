import Link from "next/link";

/** Not found outside the dashboard's shell (its own not-found page answers inside it): a way to the start. */
export default function NotFound() {
  return (
    <main className="mx-auto max-w-md px-6 py-16 text-center">
      <h1 className="text-base font-semibold text-slate-900">Page not found</h1>
      <p className="mt-1 text-[13px] text-slate-600">There is no page at this address.</p>
      <Link href="/" className="mt-5 inline-block text-[13px] font-medium text-sky-800 underline">
        Go to the overview
      </Link>
    </main>
  );
}
