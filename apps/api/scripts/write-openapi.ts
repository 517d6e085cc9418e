/**
 * Writes docs/openapi.json, the API description generated from the contract
 * schemas (`npm run docs:api`). Run it after changing a route or a contract
 * schema; test/app/openapi-doc.test.ts fails until the file is current.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  OPENAPI_FILE,
  buildOpenApiDocument,
  openApiText,
} from './openapi-document.js';

const document = await buildOpenApiDocument();
writeFileSync(OPENAPI_FILE, await openApiText(document));
console.log(
  `Wrote ${path.relative(process.cwd(), OPENAPI_FILE) || OPENAPI_FILE}`,
);
