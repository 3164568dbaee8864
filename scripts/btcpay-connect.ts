// npm run btcpay:connect — checks BTCPay Server settings and registers our webhook on the store.
// Reads the same environment (and .env) as the server. Exit code 0 when everything is in place.
import { ConfigError, loadConfig } from '../server/core/config.ts';
import { connectBtcpay } from '../server/modules/payments/btcpay.connect.ts';
import { loadDotEnv } from '../server/core/dotenv.ts';

loadDotEnv();
try {
  const result = await connectBtcpay(loadConfig());
  for (const line of result.lines) console.log(line);
  process.exit(result.ok ? 0 : 1);
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
