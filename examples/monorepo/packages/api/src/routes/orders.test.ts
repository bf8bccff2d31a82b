import { describe, expect, it } from "vitest";
import { buildServer } from "../server.js";

describe("POST /orders", () => {
  it("rejects an order without lines", async () => {
    const app = buildServer();
    const res = await app.inject({ method: "POST", url: "/orders", payload: {} });
    expect(res.statusCode).toBe(400);
  });
});
