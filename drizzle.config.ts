import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './electron/core/db/schema.ts',
  out: './drizzle',
});
