import type { FastifyPluginAsync } from "fastify";
import { orderTotal, type OrderLine } from "@acme/shared";

const createOrderSchema = {
  body: {
    type: "object",
    required: ["lines"],
    properties: {
      lines: {
        type: "array",
        items: {
          type: "object",
          required: ["productId", "quantity", "unitPrice"],
          properties: {
            productId: { type: "string" },
            quantity: { type: "integer", minimum: 1 },
            unitPrice: { type: "integer", minimum: 0 },
          },
        },
      },
    },
  },
} as const;

export const orderRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { lines: OrderLine[] } }>("/", { schema: createOrderSchema }, async (req, reply) => {
    const total = orderTotal(req.body.lines);
    return reply.code(201).send({ total });
  });
};
