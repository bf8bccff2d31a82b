// Seeds a local development database with a handful of products.
import pg from "pg";

const products = [
  { id: "mug", name: "Mug", priceCents: 1250 },
  { id: "tee", name: "T-shirt", priceCents: 2400 },
];

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
for (const p of products) {
  await pool.query(
    "insert into products (id, name, price_cents) values ($1, $2, $3) on conflict (id) do nothing",
    [p.id, p.name, p.priceCents],
  );
}
await pool.end();
