import { expect, test as setup } from "@playwright/test";
import { PASSWORD, USERS, storageState, type RoleKey } from "./fixtures";

/** Signs in once per role through the real sign-in page and keeps the session (storage state). */
for (const role of Object.keys(USERS) as RoleKey[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    const user = USERS[role];
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("user-name")).toHaveText(user.name);
    await page.context().storageState({ path: storageState(role) });
  });
}
