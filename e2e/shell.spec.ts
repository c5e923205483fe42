import path from "node:path";
import { expect, test } from "@playwright/test";
import { EXPECTED_AREAS, PASSWORD, SCREENSHOTS, USERS, storageState, type RoleKey } from "./fixtures";

for (const role of Object.keys(USERS) as RoleKey[]) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageState(role) });

    test("sees exactly the areas of the role, and each one renders inside the shell", async ({ page }) => {
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.locator("a[data-area]")).toHaveCount(EXPECTED_AREAS[role].length);
      expect(await nav.locator("a[data-area]").evaluateAll((as) => as.map((a) => a.getAttribute("data-area")))).toEqual(
        EXPECTED_AREAS[role],
      );
      await expect(page.getByTestId("user-roles")).toHaveText(USERS[role].roles);
      // Charts load lazily; let them settle so the screenshot shows the page as a person sees it.
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(SCREENSHOTS, `overview-${role}.png`) });
      for (const area of EXPECTED_AREAS[role].filter((a) => a !== "overview")) {
        await nav.locator(`a[data-area="${area}"]`).click();
        // An area may open on its first sub-page (/reports redirects to /reports/cashflow).
        await expect(page).toHaveURL(new RegExp(`/${area}(/[a-z-]+)?$`));
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expect(page.getByTestId("problem-state")).toHaveCount(0);
      }
    });
  });
}

test.describe("areas outside the role", () => {
  test.use({ storageState: storageState("viewer") });
  test("a viewer opening /webhooks sees a no-access state, the shell stays", async ({ page }) => {
    await page.goto("/webhooks");
    await expect(page.getByTestId("problem-state")).toContainText("No access");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });
});

test.describe("company switcher", () => {
  test.use({ storageState: storageState("treasurer") });
  test("switching company changes the context of every view", async ({ page }) => {
    await page.goto("/accounts");
    const switcher = page.getByTestId("company-switcher");
    const options = await switcher
      .locator("option")
      .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent ?? "" })));
    expect(options.length).toBeGreaterThan(1);
    const before = await switcher.inputValue();
    const target = options.find((o) => o.value !== before);
    if (!target) throw new Error("no second company");
    const name = target.label.replace(/ \([A-Z]{2}\)$/, "");
    await switcher.selectOption(target.value);
    // Views name the selected company in their header; match on that, not on wording that views own.
    await expect(page.locator("main").getByText(name).first()).toBeVisible();
    await expect(switcher).toHaveValue(target.value);
    await page.screenshot({ path: path.join(SCREENSHOTS, "accounts-after-switch.png") });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
    await expect(page.getByTestId("company-switcher")).toHaveValue(target.value);
    await page.goto("/transactions");
    await expect(page.locator("main").getByText(name).first()).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "transactions.png") });
  });
});

// Signing out (which ends every session of the user) is proven in auth.setup.ts, before the saved sessions are used.
test("sign-in page, wrong password, sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: path.join(SCREENSHOTS, "login.png") });
  await page.getByLabel("E-mail").fill(USERS.approver2.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // (Next's route announcer is a role=alert too, so the form's message is found by id.)
  await expect(page.locator("#login-error")).toHaveText("The e-mail or password is not correct.");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-name")).toHaveText(USERS.approver2.name);
});

test("before the page hydrates, the sign-in form submits nothing, so the password never reaches a URL", async ({
  page,
  request,
}) => {
  // Without JavaScript the page says sign-in needs it (the server HTML carries the notice in <noscript>).
  const html = await (await request.get("/login")).text();
  expect(html).toMatch(/<noscript>.*Signing in needs JavaScript\./s);
  // The app's scripts never arrive: the server-rendered form is what a person sees before hydration.
  await page.route("**/_next/static/**/*.js", (route) => route.abort());
  const requests: string[] = [];
  page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
  await page.goto("/login");
  await expect(page.locator("form")).toHaveAttribute("method", "post");
  const signIn = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(signIn).toBeDisabled();
  await page.getByLabel("E-mail").fill(USERS.approver2.email);
  await page.getByLabel("Password").fill(PASSWORD);
  const before = requests.length;
  // Enter in a field submits the form implicitly, unless its default button is disabled (HTML).
  await page.getByLabel("Password").press("Enter");
  await page.waitForTimeout(500);
  expect(requests.slice(before).filter((r) => !r.includes("/_next/static/"))).toEqual([]);
  expect(page.url()).toMatch(/\/login$/);
  expect(requests.join("\n")).not.toContain(encodeURIComponent(PASSWORD));
});

test("the dashboard keeps idle keep-alive connections 65 s, so a reused connection is never reset under a request", async ({
  request,
}) => {
  // Node's default of 5 s raced clients that reuse a connection (docs/operations.md, "Keep-alive").
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(res.headers()["keep-alive"]).toBe("timeout=65");
});
