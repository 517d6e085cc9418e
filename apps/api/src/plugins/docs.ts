import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/**
 * The API description, generated from the routes' contract schemas: the
 * OpenAPI document at `/api/openapi.json` and Swagger UI at `/api/docs`.
 * Both list every route, the admin ones included, so they are served only
 * where API_DOCS is on (by default in development; docs/security.md HD-07).
 * Registered before the routes, which it collects as they are added.
 */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: 'ProAm Connect API',
          version: '0.1.0',
          description:
            'Every call is POST /api/{path} with a JSON body and answers the OK or NG envelope (docs/api.md).',
        },
        servers: [{ url: '/' }],
      },
    });
    if (!app.config.apiDocs) return;
    app.get(
      '/api/openapi.json',
      { config: { auth: 'none' }, schema: { hide: true } },
      async () => app.swagger(),
    );
    await app.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { supportedSubmitMethods: [] },
      // The API's own policy allows nothing; the UI's page needs its scripts and styles.
      staticCSP: true,
      uiHooks: { onRequest: (_req, _reply, done) => done() },
    });
  },
  { name: 'docs', dependencies: ['config'] },
);
