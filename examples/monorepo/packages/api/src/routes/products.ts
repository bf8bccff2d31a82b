import type { FastifyPluginAsync } from "fastify";
import type { Product } from "@acme/shared";
import { query } from "../db/client.js";

export const productRoutes: FastifyPluginAsync = async (app) => {
  app.get("/", async () => query<Product>("select id, name, price_cents from products order by name"));
};
