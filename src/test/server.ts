import { setupServer } from 'msw/node';

/** The one msw server of the browser tests; each test adds its handlers with server.use(...). */
export const server = setupServer();
