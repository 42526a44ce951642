// An independent S3 server (@20minutes/s3rver from npm, a maintained fork of s3rver that checks SigV4 signatures of
// headers and presigned URLs) in a process of its own, so the product's processes talk to it over the network only.
// argv: port, directory, bucket. Prints "ready <port>" once it listens.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package is CommonJS; this file runs as plain Node
const S3rver = require('@20minutes/s3rver');

// One deviation from SigV4 in s3rver 5.0.0: it encodes the presigned query's values for the canonical request with
// encodeURIComponent, which leaves ! ' ( ) * as they are, where SigV4 (and AWS S3) encode every byte but A-Z a-z 0-9
// - _ . ~. A presigned link carrying response-content-disposition (filename*=UTF-8''…) is then refused although AWS
// accepts it. That is the only place the package calls encodeURIComponent, so this process's own is made RFC 3986.
const encode = globalThis.encodeURIComponent;
globalThis.encodeURIComponent = (value) => encode(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const [port, directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1', port: Number(port), directory, silent: true,
  // Path-style addressing (server/storage/s3.ts); a vhost lookup would read "127" as a bucket name.
  vhostBuckets: false, allowMismatchedSignatures: false, configureBuckets: [{ name: bucket, configs: [] }],
});
server.run().then((address) => {
  process.stdout.write(`ready ${address.port}\n`);
}, (err) => { process.stderr.write(String(err && err.stack || err) + '\n'); process.exit(1); });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close().finally(() => process.exit(0)));
