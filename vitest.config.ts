import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'src/protocol/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          env: { NODE_ENV: 'test' },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'widget',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/protocol/**'],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
