import { useEffect, useState } from "react";
import type { Product } from "@acme/shared";

export function useProducts(): Product[] {
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    fetch("/api/products")
      .then((res) => res.json() as Promise<Product[]>)
      .then(setProducts);
  }, []);
  return products;
}
