import Fastify from 'fastify';

// The baseline of scripts/bench.ts: bare Fastify answering {hello: 'world'} with a response
// schema, on the same machine, in its own process. Prints the port it listens on.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    'Usage: node scripts/bench-hello.ts\nStarts bare Fastify hello-world on a free 127.0.0.1 port and prints "READY <port>" (used by scripts/bench.ts).',
  );
  process.exit(0);
}
const app = Fastify({ logger: false });
app.get('/', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
