/**
 * Measurements of a page on a phone, shared by the phone specs (docs/architecture.md#phones): sideways overflow of
 * the page and of the main area, and amounts cut off at the side.
 */
import type { Page } from "@playwright/test";

/**
 * Horizontal overflow of the document and of the main area, in px (0 when none), and the first element that sticks
 * out of the screen or of the main area (tag, test id, class), to say where to look. The screen's width is the
 * configured one: on a mobile browser a too-wide page widens the layout viewport itself (and `innerWidth` with it).
 */
export async function overflow(page: Page): Promise<{ body: number; main: number; culprit: string }> {
  const width = page.viewportSize()?.width ?? 390;
  return page.evaluate((width) => {
    const main = document.querySelector("main");
    const mainRight = main ? main.getBoundingClientRect().right : width;
    let culprit = "";
    for (const el of document.body.querySelectorAll("*")) {
      const limit = main?.contains(el) ? mainRight : width;
      if (el.getBoundingClientRect().right > limit + 1 && !el.closest("[class*=overflow-x-auto]")) {
        culprit = `${el.tagName.toLowerCase()} ${el.getAttribute("data-testid") ?? ""} ${el.className}`.slice(0, 160);
        break;
      }
    }
    return {
      body: Math.max(document.documentElement.scrollWidth, window.innerWidth) - width,
      main: main ? main.scrollWidth - main.clientWidth : 0,
      culprit,
    };
  }, width);
}

/**
 * The elements matching `selector` a person sees on the page, and those of them cut off at the side: outside the
 * screen's width or outside a box that clips or scrolls sideways around them (a wide table's scroll box, a truncated
 * cell). Elements not displayed (the other layout's copy, folded details, screen-reader text) are not counted; those
 * further down, or further down a list that scrolls vertically, are reachable and pass. Each cut one is described by
 * `describe`'s attributes (`data-*` names) and where it is.
 */
async function cutAtTheSide(
  page: Page,
  selector: string,
  describe: string[],
): Promise<{ shown: number; cut: string[] }> {
  const width = page.viewportSize()?.width ?? 390;
  return page.evaluate(
    ({ width, selector, describe }) => {
      const cut: string[] = [];
      let shown = 0;
      for (const el of document.querySelectorAll<HTMLElement>(selector)) {
        const r = el.getBoundingClientRect();
        if ((r.width === 0 && r.height === 0) || el.closest(".sr-only")) continue;
        if (getComputedStyle(el).visibility === "hidden") continue;
        shown++;
        let left = 0;
        let right = width;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === "visible") continue;
          const box = a.getBoundingClientRect();
          left = Math.max(left, box.left);
          right = Math.min(right, box.right);
        }
        if (r.left < left - 1 || r.right > right + 1) {
          const name = describe.map((d) => el.getAttribute(d) ?? "").join(" ") || (el.textContent ?? "").slice(0, 40);
          cut.push(
            `${name.trim()} spans ${Math.round(r.left)}–${Math.round(r.right)} px, ` +
              `the visible part ${Math.round(left)}–${Math.round(right)} px`,
          );
        }
      }
      return { shown, cut: cut.slice(0, 5) };
    },
    { width, selector, describe },
  );
}

/**
 * The amounts (`[data-amount]`, the <Amount> component) a person sees on the page, and those of them cut off at the
 * side (see `cutAtTheSide`).
 */
export function amountsOutOfView(page: Page): Promise<{ shown: number; cut: string[] }> {
  return cutAtTheSide(page, "[data-amount]", ["data-amount", "data-currency"]);
}

/**
 * The buttons and links of the main area (a list's edit, delete, move actions) a person sees, and those cut off at
 * the side: reachable only by scrolling a box sideways, or not at all (see `cutAtTheSide`).
 */
export function actionsOutOfView(page: Page): Promise<{ shown: number; cut: string[] }> {
  return cutAtTheSide(page, "main button, main a[href]", ["aria-label", "data-testid"]);
}
