import { expect, test as setup, type Page } from "@playwright/test";
import { PASSWORD, USERS, storageState, type RoleKey } from "./fixtures";

/**
 * The role whose setup also proves that signing out ends the user's sessions: here, before any test uses the saved
 * state, because signing out ends every session of that user (a state saved earlier would stop working).
 */
const SIGN_OUT_ROLE: RoleKey = "approver2";

async function signIn(page: Page, role: RoleKey): Promise<void> {
  const user = USERS[role];
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-name")).toHaveText(user.name);
}

/** Signs in once per role through the real sign-in page and keeps the session (storage state). */
for (const role of Object.keys(USERS) as RoleKey[]) {
  setup(`sign in as ${role}`, async ({ page, browser }) => {
    await signIn(page, role);
    if (role === SIGN_OUT_ROLE) {
      // A copy of the session cookie (another tab, a stolen cookie) stops working when the user signs out.
      const copied = await browser.newContext({ storageState: await page.context().storageState() });
      expect((await copied.request.get("/api/treasury/companies")).status()).toBe(200);
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/login/);
      await page.goto("/accounts");
      await expect(page).toHaveURL(/\/login/);
      expect((await copied.request.get("/api/treasury/companies")).status()).toBe(401);
      const copiedPage = await copied.newPage();
      await copiedPage.goto("/accounts");
      await expect(copiedPage).toHaveURL(/\/login/);
      await copied.close();
      await signIn(page, role);
    }
    await page.context().storageState({ path: storageState(role) });
  });
}
