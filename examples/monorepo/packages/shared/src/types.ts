export type Currency = "EUR" | "USD";

export interface Money {
  amount: number; // integer cents
  currency: Currency;
}

export interface Product {
  id: string;
  name: string;
  priceCents: number;
}

export interface OrderLine {
  productId: string;
  quantity: number;
  unitPrice: number; // integer cents
}
