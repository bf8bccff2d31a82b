import { render, screen } from "@testing-library/react";
import { expect, it } from "vitest";
import { ProductCard } from "./ProductCard.js";

it("shows the price and an add button", () => {
  render(<ProductCard product={{ id: "p1", name: "Mug", priceCents: 1250 }} />);
  expect(screen.getByRole("button", { name: "Add to cart" })).toBeTruthy();
  expect(screen.getByText("€12.50")).toBeTruthy();
});
