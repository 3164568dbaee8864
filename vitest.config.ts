import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          name: 'browser',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
