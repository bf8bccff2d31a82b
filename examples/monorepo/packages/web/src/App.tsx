import { useProducts } from "./api.js";
import { ProductCard } from "./components/ProductCard.js";

export function App() {
  const products = useProducts();
  return (
    <main>
      <h1>Acme Shop</h1>
      {products.map((p) => (
        <ProductCard key={p.id} product={p} />
      ))}
    </main>
  );
}
