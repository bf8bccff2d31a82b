import type { Money, OrderLine } from "./types.js";

const symbols = { EUR: "€", USD: "$" } as const;

export function formatMoney(money: Money): string {
  return `${symbols[money.currency]}${(money.amount / 100).toFixed(2)}`;
}

export function orderTotal(lines: readonly OrderLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
}
