import { describe, expect, it } from "vitest";
import { formatMoney, orderTotal } from "./money.js";

describe("money", () => {
  it("formats cents", () => expect(formatMoney({ amount: 1250, currency: "EUR" })).toBe("€12.50"));
  it("sums order lines", () =>
    expect(orderTotal([{ productId: "p1", quantity: 2, unitPrice: 300 }])).toBe(600));
});
