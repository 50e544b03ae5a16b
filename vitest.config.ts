import { defineConfig } from 'vitest/config';

// Two projects: the web app's unit/component tests (jsdom) and the server's HTTP integration
// suite (node, real SQLite and PostgreSQL). Each server test file builds its own app.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
    ],
  },
});
