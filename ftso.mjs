import Database from 'better-sqlite3';
const db = new Database('/tmp/ftsx.sqlite');
const t = performance.now();
db.exec(`INSERT INTO ads_fts(ads_fts) VALUES ('optimize');`);
console.log('optimize', ((performance.now() - t) / 1000).toFixed(1), 's');
console.log(db.prepare("SELECT count(*) n FROM ads_fts_data").get(), db.prepare("SELECT count(*) n FROM ads_fts2_data").get());
console.log(db.prepare("SELECT sum(length(block)) n FROM ads_fts_data").get(), db.prepare("SELECT sum(length(block)) n FROM ads_fts2_data").get());
