import { formatMoney, type Product } from "@acme/shared";

export function ProductCard({ product }: { product: Product }) {
  return (
    <article aria-label={product.name}>
      <h2>{product.name}</h2>
      <p>{formatMoney({ amount: product.priceCents, currency: "EUR" })}</p>
      <button type="button">Add to cart</button>
    </article>
  );
}
