// Bad input on every route (shard 3 of 4): see server/test/fuzz/shard.ts.
import { defineShard } from './fuzz/shard.ts';

await defineShard(3, 4);
