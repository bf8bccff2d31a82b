import Fastify, { type FastifyInstance } from "fastify";
import { orderRoutes } from "./routes/orders.js";
import { productRoutes } from "./routes/products.js";

export function buildServer(): FastifyInstance {
  const app = Fastify({ logger: true });
  app.get("/health", async () => ({ ok: true }));
  app.register(productRoutes, { prefix: "/products" });
  app.register(orderRoutes, { prefix: "/orders" });
  return app;
}
