import { notFound } from "next/navigation";

/**
 * Every address no page of the dashboard answers: it gets the shell's "not found" page (status 404) instead of
 * Next's bare one, so the navigation stays and the page offers a way back. Known routes win over this catch-all.
 */
export default function MissingPage(): never {
  notFound();
}
