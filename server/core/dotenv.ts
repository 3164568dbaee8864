/**
 * Reads a .env file from the working directory when there is one (npm runs the server and every
 * script beside package.json); a variable already in the environment wins over the file. The
 * server and the command-line tools (create-user, backup, btcpay:connect, seed-locations) read
 * the same settings.
 */
export function loadDotEnv(): void {
  try {
    process.loadEnvFile('.env');
  } catch {
    /* no .env: the environment alone */
  }
}
