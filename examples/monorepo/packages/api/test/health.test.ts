import { expect, it } from "vitest";
import { buildServer } from "../src/server.js";

it("reports healthy", async () => {
  const res = await buildServer().inject({ method: "GET", url: "/health" });
  expect(res.json()).toEqual({ ok: true });
});
